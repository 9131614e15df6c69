package sdkcode

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// every is a PutItem whose item holds every attribute type, and the names the writers must take care over.
var every = Request{Pattern: 4, ID: "4", Description: "Record a customer's visit", Operation: "PutItem", Tables: []string{"Visits"},
	Body: []byte(`{"TableName":"Visits","Item":{"pk":{"S":"C#1"},"n":{"N":"1.50"},"big":{"N":"12345678901234567890"},
	"tenth":{"N":"0.1"},"bin":{"B":"AP8="},"ok":{"BOOL":true},"none":{"NULL":true},"m":{"M":{"a b":{"S":"x"}}},
	"l":{"L":[{"N":"2"},{"S":"y"}]},"ss":{"SS":["a","b"]},"ns":{"NS":["1","99999999999999999999"]},"bs":{"BS":["AQ=="]},
	"__proto__":{"S":"p"}},"ConditionExpression":"attribute_not_exists(pk)"}`)}

func TestJavaScript_writesEveryTypeAsTheDocumentClientTakesIt(t *testing.T) {
	out, err := JavaScript("Visits", []Request{every})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`import { NumberValue, PutCommand } from "@aws-sdk/lib-dynamodb";`,
		`n: 1.5`, `big: NumberValue.from("12345678901234567890")`, `tenth: 0.1`, `bin: Buffer.from("AP8=", "base64")`,
		`ok: true`, `none: null`, `m: { "a b": "x" }`, `l: [2, "y"]`, `ss: new Set(["a", "b"])`,
		`ns: new Set([1, NumberValue.from("99999999999999999999")])`, `bs: new Set([Buffer.from("AQ==", "base64")])`,
		`["__proto__"]: "p"`, `export function pattern4RecordCustomersVisit(doc)`, `"4": pattern4RecordCustomersVisit,`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the module lacks %s:\n%s", want, out)
		}
	}
}

func TestPython_writesEveryTypeInDynamoDBsTypedForm(t *testing.T) {
	out, err := Python("Visits", []Request{every})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`def pattern_4_record_customers_visit(client):`, `return client.put_item(`,
		`"n": {"N": "1.50"}`, `"bin": {"B": b"\x00\xff"}`, `"ok": {"BOOL": True}`, `"none": {"NULL": True}`,
		`"m": {"M": {"a b": {"S": "x"}}}`, `"ns": {"NS": ["1", "99999999999999999999"]}`, `"bs": {"BS": [b"\x01"]}`,
		`ConditionExpression="attribute_not_exists(pk)",`, `"4": pattern_4_record_customers_visit,`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the module lacks %s:\n%s", want, out)
		}
	}
}

func TestGo_writesEveryTypeAsTheSDKsMembers(t *testing.T) {
	out, err := Go("Visits", []Request{every})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
		t.Fatalf("not Go: %v\n%s", err, out)
	}
	for _, want := range []string{`func Pattern4RecordCustomersVisit(ctx context.Context, client *dynamodb.Client) (*dynamodb.PutItemOutput, error)`,
		`"bin":       &types.AttributeValueMemberB{Value: []byte("\x00\xff")}`, `&types.AttributeValueMemberNULL{Value: true}`,
		`&types.AttributeValueMemberNS{Value: []string{"1", "99999999999999999999"}}`, `ConditionExpression: aws.String("attribute_not_exists(pk)")`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the package lacks %s:\n%s", want, out)
		}
	}
}

func TestSnippets_refuseWhatTheyCannotWrite(t *testing.T) {
	odd := every
	odd.Body = []byte(`{"TableName":"Visits","Item":{},"ReturnValues":"ALL_OLD"}`)
	s := Snippets([]Request{odd, {ID: "5", Operation: "Query", Reason: "the key condition does not parse"}})
	if s[0].Code != nil || !strings.Contains(s[0].Reason, "ReturnValues") {
		t.Errorf("a member the writers do not know must be refused by name, got %+v", s[0])
	}
	if s[1].Code != nil || s[1].Reason != "the key condition does not parse" {
		t.Errorf("a request that cannot be made keeps its reason, got %+v", s[1])
	}
	if _, err := JavaScript("x", []Request{odd}); err == nil {
		t.Error("the module must refuse a request it cannot write whole")
	}
}
