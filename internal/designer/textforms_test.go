package designer_test

import (
	"errors"
	"testing"

	"dynaloom/internal/designer"
)

func TestParsePatternList(t *testing.T) {
	t.Parallel()
	got, err := designer.ParsePatternList(" 4: first_name, last_name ; #7: total;")
	if err != nil || designer.FormatPatternList(got) != "4: first_name, last_name; 7: total" {
		t.Fatalf("got %v %v", got, err)
	}
	for _, bad := range []string{"four: a", "4 a, b", "0: a"} {
		var ve *designer.ValidationError
		if _, err := designer.ParsePatternList(bad); !errors.As(err, &ve) || ve.Field != "pattern_attributes" {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}

func TestSetIndexPatternList_replacesTheWholeList(t *testing.T) {
	t.Parallel()
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	tbl, ix := "", ""
	for _, tb := range d.Tables {
		if len(tb.GSIs) > 0 {
			tbl, ix = tb.Name, tb.GSIs[0].Name
			break
		}
	}
	next, err := designer.SetIndexPatternList{Table: tbl, Index: ix, Text: "1: first_name"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := next.TableByName(tbl)
	if list := designer.FormatPatternList(got.GSIs[0].PatternAttributes); list != "1: first_name" {
		t.Fatalf("list = %q", list)
	}
	if _, err := (designer.SetIndexPatternList{Table: tbl, Index: ix, Text: "999: a"}).Apply(d); err == nil {
		t.Fatal("an unknown pattern number was accepted")
	}
}

func TestParseGenerator_roundTrips(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"name", "email", "uuid", "date", "number 1..100", "text 3..8", "one_of OPEN|SHIPPED", "template ORDER#{order_id}"} {
		g, err := designer.ParseGenerator(text)
		if err != nil || designer.FormatGenerator(g) != text {
			t.Fatalf("%q → %+v %v → %q", text, g, err, designer.FormatGenerator(g))
		}
	}
	if g, err := designer.ParseGenerator(""); g != nil || err != nil {
		t.Fatal("empty text should mean no generator")
	}
	for _, bad := range []string{"dice", "number 9..1", "number x..y", "one_of", "template"} {
		if _, err := designer.ParseGenerator(bad); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}
