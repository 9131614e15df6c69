package workbench

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// nestedJSON is an attribute value in DynamoDB JSON whose lists and maps nest levels deep,
// alternating maps and lists around a string.
func nestedJSON(levels int) string {
	var b strings.Builder
	for i := range levels {
		if i%2 == 0 {
			b.WriteString(`{"M":{"a":`)
		} else {
			b.WriteString(`{"L":[`)
		}
	}
	b.WriteString(`{"S":"x"}`)
	for i := levels - 1; i >= 0; i-- {
		if i%2 == 0 {
			b.WriteString(`}}`)
		} else {
			b.WriteString(`]}`)
		}
	}
	return b.String()
}

const tooDeepText = "attribute value nests deeper than 32 levels, DynamoDB's limit"

func TestValueJSON_nestsAtMost32Levels(t *testing.T) {
	t.Parallel()
	var v designer.Value
	if err := v.UnmarshalJSON([]byte(nestedJSON(designer.MaxValueDepth))); err != nil {
		t.Fatalf("%d levels: %v", designer.MaxValueDepth, err)
	}
	for _, levels := range []int{designer.MaxValueDepth + 1, 4_900} {
		err := v.UnmarshalJSON([]byte(nestedJSON(levels)))
		if !errors.Is(err, designer.ErrValueTooDeep) || err.Error() != tooDeepText {
			t.Errorf("%d levels: %v", levels, err)
		}
	}
}

func TestParseJSON_refusesAnItemNestedPast32Levels(t *testing.T) {
	t.Parallel()
	doc := func(levels int) []byte {
		d := designer.Design{Name: "Deep", Tables: []designer.Table{{Name: "Tab", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
			Items: []designer.SampleItem{{ID: "1", Item: designer.Item{"pk": designer.Str("a"), "deep": designer.Str("HERE")}}}}}}
		data, err := designer.MarshalCompactJSON(d)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Replace(data, []byte(`{"S":"HERE"}`), []byte(nestedJSON(levels)), 1)
	}
	if _, err := designer.ParseJSON(doc(designer.MaxValueDepth)); err != nil {
		t.Fatalf("%d levels: %v", designer.MaxValueDepth, err)
	}
	_, err := designer.ParseJSON(doc(designer.MaxValueDepth + 1))
	var ve *designer.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), tooDeepText) {
		t.Errorf("%d levels: %v", designer.MaxValueDepth+1, err)
	}
}

func TestParsePaste_refusesAValueNestedPast32Levels(t *testing.T) {
	t.Parallel()
	table := designer.Table{Name: "Tab", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}}
	if _, err := designer.ParsePaste(`[{"pk":{"S":"a"},"deep":`+nestedJSON(designer.MaxValueDepth)+`}]`, table); err != nil {
		t.Fatalf("%d levels: %v", designer.MaxValueDepth, err)
	}
	_, err := designer.ParsePaste(`[{"pk":{"S":"a"},"deep":`+nestedJSON(designer.MaxValueDepth+1)+`}]`, table)
	var pe *designer.PasteError
	if !errors.As(err, &pe) || pe.Attribute != "deep" || !strings.Contains(err.Error(), tooDeepText) {
		t.Errorf("%d levels: %v", designer.MaxValueDepth+1, err)
	}
}

func TestParseCell_refusesAMapOrListNestedPast32Levels(t *testing.T) {
	t.Parallel()
	// A map cell is itself the first level, so its members may nest 31 more.
	inner := nestedJSON(designer.MaxValueDepth - 1)
	for _, c := range []struct {
		typ        designer.Type
		ok, tooFar string
	}{
		{designer.M, `{"a":` + inner + `}`, `{"a":` + nestedJSON(designer.MaxValueDepth) + `}`},
		{designer.L, `[` + inner + `]`, `[` + nestedJSON(designer.MaxValueDepth) + `]`},
	} {
		if _, err := designer.ParseCell(c.ok, c.typ); err != nil {
			t.Errorf("%s of %d levels: %v", c.typ, designer.MaxValueDepth, err)
		}
		if _, err := designer.ParseCell(c.tooFar, c.typ); err == nil || !strings.Contains(err.Error(), tooDeepText) {
			t.Errorf("%s of %d levels: %v", c.typ, designer.MaxValueDepth+1, err)
		}
		if v := designer.InferCell(c.tooFar); v.Type != designer.S {
			t.Errorf("an untyped cell nested %d levels became a %s", designer.MaxValueDepth+1, v.Type)
		}
	}
}

func TestImport_dropsAValueNestedPast32Levels(t *testing.T) {
	t.Parallel()
	model := func(levels int) []byte {
		return []byte(`{"DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}},` +
			`"TableData": [{"id": {"S": "1"}, "deep": ` + nestedJSON(levels) + `}]}]}`)
	}
	d, _, err := Import(model(designer.MaxValueDepth))
	if err != nil || len(d.Tables) != 1 || len(d.Tables[0].Items) != 1 || d.Tables[0].Items[0].Item["deep"].Type != designer.M {
		t.Fatalf("%d levels: %v", designer.MaxValueDepth, err)
	}
	d, notes, err := Import(model(designer.MaxValueDepth + 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, kept := d.Tables[0].Items[0].Item["deep"]; kept {
		t.Errorf("the attribute nested %d levels was kept", designer.MaxValueDepth+1)
	}
	var said bool
	for _, n := range notes {
		said = said || strings.Contains(n.Message, "deep") && strings.Contains(n.Message, tooDeepText)
	}
	if !said {
		t.Errorf("no note names the attribute and the limit: %+v", notes)
	}
}

func TestEvaluateJSON_refusesValuesNestedPast32Levels(t *testing.T) {
	t.Parallel()
	d := designer.Design{Tables: []designer.Table{{Name: "Tab", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
		Items: []designer.SampleItem{{ID: "1", Item: designer.Item{"pk": designer.Str("a")}}}}}}
	want := "Nesting Levels have exceeded supported limits: " + tooDeepText
	for _, c := range []struct{ op, body, want string }{
		{"Scan", `{"TableName":"Tab","FilterExpression":"x = :v","ExpressionAttributeValues":{":v":` + nestedJSON(designer.MaxValueDepth) + `}}`, ""},
		{"Scan", `{"TableName":"Tab","FilterExpression":"x = :v","ExpressionAttributeValues":{":v":` + nestedJSON(designer.MaxValueDepth+1) + `}}`,
			"ExpressionAttributeValues contains invalid value: " + want + " for key :v"},
		{"GetItem", `{"TableName":"Tab","Key":{"pk":` + nestedJSON(4_900) + `}}`, want},
		{"Scan", `{"TableName":"Tab","ExclusiveStartKey":{"pk":` + nestedJSON(designer.MaxValueDepth+1) + `}}`, "The provided starting key is invalid: " + want},
	} {
		_, err := dynamo.EvaluateJSON(d, c.op, []byte(c.body))
		var ee *dynamo.EvalError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%.60s: %v", c.body, err)
		case c.want != "" && (!errors.As(err, &ee) || ee.Type != "ValidationException" || ee.Message != c.want):
			t.Errorf("%.60s: %v, want %q", c.body, err, c.want)
		}
	}
}
