package designer

import (
	"bytes"
	"errors"
	"strings"
	"testing"
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
	var v Value
	if err := v.UnmarshalJSON([]byte(nestedJSON(MaxValueDepth))); err != nil {
		t.Fatalf("%d levels: %v", MaxValueDepth, err)
	}
	for _, levels := range []int{MaxValueDepth + 1, 4_900} {
		err := v.UnmarshalJSON([]byte(nestedJSON(levels)))
		if !errors.Is(err, ErrValueTooDeep) || err.Error() != tooDeepText {
			t.Errorf("%d levels: %v", levels, err)
		}
	}
}

func TestParseJSON_refusesAnItemNestedPast32Levels(t *testing.T) {
	doc := func(levels int) []byte {
		d := Design{Name: "Deep", Tables: []Table{{Name: "Tab", PartitionKey: KeyAttribute{Name: "pk", Type: S},
			Items: []SampleItem{{ID: "1", Item: Item{"pk": Str("a"), "deep": Str("HERE")}}}}}}
		data, err := MarshalCompactJSON(d)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Replace(data, []byte(`{"S":"HERE"}`), []byte(nestedJSON(levels)), 1)
	}
	if _, err := ParseJSON(doc(MaxValueDepth)); err != nil {
		t.Fatalf("%d levels: %v", MaxValueDepth, err)
	}
	_, err := ParseJSON(doc(MaxValueDepth + 1))
	var ve *ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), tooDeepText) {
		t.Errorf("%d levels: %v", MaxValueDepth+1, err)
	}
}

func TestParsePaste_refusesAValueNestedPast32Levels(t *testing.T) {
	table := Table{Name: "Tab", PartitionKey: KeyAttribute{Name: "pk", Type: S}}
	if _, err := ParsePaste(`[{"pk":{"S":"a"},"deep":`+nestedJSON(MaxValueDepth)+`}]`, table); err != nil {
		t.Fatalf("%d levels: %v", MaxValueDepth, err)
	}
	_, err := ParsePaste(`[{"pk":{"S":"a"},"deep":`+nestedJSON(MaxValueDepth+1)+`}]`, table)
	var pe *PasteError
	if !errors.As(err, &pe) || pe.Attribute != "deep" || !strings.Contains(err.Error(), tooDeepText) {
		t.Errorf("%d levels: %v", MaxValueDepth+1, err)
	}
}

func TestParseCell_refusesAMapOrListNestedPast32Levels(t *testing.T) {
	// A map cell is itself the first level, so its members may nest 31 more.
	inner := nestedJSON(MaxValueDepth - 1)
	for _, c := range []struct {
		typ        Type
		ok, tooFar string
	}{
		{M, `{"a":` + inner + `}`, `{"a":` + nestedJSON(MaxValueDepth) + `}`},
		{L, `[` + inner + `]`, `[` + nestedJSON(MaxValueDepth) + `]`},
	} {
		if _, err := ParseCell(c.ok, c.typ); err != nil {
			t.Errorf("%s of %d levels: %v", c.typ, MaxValueDepth, err)
		}
		if _, err := ParseCell(c.tooFar, c.typ); err == nil || !strings.Contains(err.Error(), tooDeepText) {
			t.Errorf("%s of %d levels: %v", c.typ, MaxValueDepth+1, err)
		}
		if v := InferCell(c.tooFar); v.Type != S {
			t.Errorf("an untyped cell nested %d levels became a %s", MaxValueDepth+1, v.Type)
		}
	}
}

func TestImportWorkbenchJSON_dropsAValueNestedPast32Levels(t *testing.T) {
	model := func(levels int) []byte {
		return []byte(`{"DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}},` +
			`"TableData": [{"id": {"S": "1"}, "deep": ` + nestedJSON(levels) + `}]}]}`)
	}
	d, _, err := ImportWorkbenchJSON(model(MaxValueDepth))
	if err != nil || len(d.Tables) != 1 || len(d.Tables[0].Items) != 1 || d.Tables[0].Items[0].Item["deep"].Type != M {
		t.Fatalf("%d levels: %v", MaxValueDepth, err)
	}
	d, notes, err := ImportWorkbenchJSON(model(MaxValueDepth + 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, kept := d.Tables[0].Items[0].Item["deep"]; kept {
		t.Errorf("the attribute nested %d levels was kept", MaxValueDepth+1)
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
	d := Design{Tables: []Table{{Name: "Tab", PartitionKey: KeyAttribute{Name: "pk", Type: S},
		Items: []SampleItem{{ID: "1", Item: Item{"pk": Str("a")}}}}}}
	want := "Nesting Levels have exceeded supported limits: " + tooDeepText
	for _, c := range []struct{ op, body, want string }{
		{"Scan", `{"TableName":"Tab","FilterExpression":"x = :v","ExpressionAttributeValues":{":v":` + nestedJSON(MaxValueDepth) + `}}`, ""},
		{"Scan", `{"TableName":"Tab","FilterExpression":"x = :v","ExpressionAttributeValues":{":v":` + nestedJSON(MaxValueDepth+1) + `}}`,
			"ExpressionAttributeValues contains invalid value: " + want + " for key :v"},
		{"GetItem", `{"TableName":"Tab","Key":{"pk":` + nestedJSON(4_900) + `}}`, want},
		{"Scan", `{"TableName":"Tab","ExclusiveStartKey":{"pk":` + nestedJSON(MaxValueDepth+1) + `}}`, "The provided starting key is invalid: " + want},
	} {
		_, err := EvaluateJSON(d, c.op, []byte(c.body))
		var ee *EvalError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%.60s: %v", c.body, err)
		case c.want != "" && (!errors.As(err, &ee) || ee.Type != "ValidationException" || ee.Message != c.want):
			t.Errorf("%.60s: %v, want %q", c.body, err, c.want)
		}
	}
}
