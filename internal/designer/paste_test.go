package designer_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

func pasteTestTable() designer.Table {
	return designer.Table{
		Name:         "Orders",
		PartitionKey: designer.KeyAttribute{Name: "PK", Type: designer.S},
		SortKey:      &designer.KeyAttribute{Name: "SK", Type: designer.S},
		Attributes: []designer.Attribute{
			{Name: "total", Type: designer.N},
			{Name: "tags", Type: designer.SS},
			{Name: "address", Type: designer.M},
			{Name: "code", Type: designer.S},
		},
		GSIs: []designer.Index{{Name: "ByRank", PartitionKey: []designer.KeyAttribute{{Name: "rank", Type: designer.N}}}},
	}
}

func TestParsePaste_tsvUsesDeclaredTypesAndInfersTheRest(t *testing.T) {
	t.Parallel()
	text := "PK\tSK\ttotal\ttags\tcode\trank\tactive\tnote\r\n" +
		"USER#1\tORDER#1\t12.50\t[\"a\",\"b\"]\t007\t3\ttrue\tfirst order\r\n" +
		"\t\t\t\t\t\t\t\r\n" +
		"USER#2\tORDER#2\t\t\t\t\t\t\r\n"
	items, err := designer.ParsePaste(text, pasteTestTable())
	if err != nil {
		t.Fatal(err)
	}
	want := []designer.Item{
		{
			"PK": designer.Str("USER#1"), "SK": designer.Str("ORDER#1"), "total": designer.Num("12.50"),
			"tags": {Type: designer.SS, SS: []string{"a", "b"}}, "code": designer.Str("007"), "rank": designer.Num("3"),
			"active": designer.Boolean(true), "note": designer.Str("first order"),
		},
		{"PK": designer.Str("USER#2"), "SK": designer.Str("ORDER#2")},
	}
	assertItems(t, items, want)
}

func TestParsePaste_tsvUnquotesSpreadsheetCells(t *testing.T) {
	t.Parallel()
	text := "PK\tnote\taddress\n" +
		"A\t\"two\nlines\"\t{\"city\":{\"S\":\"Lisbon\"}}\n" +
		"B\tsays \"hi\"\t\n"
	items, err := designer.ParsePaste(text, pasteTestTable())
	if err != nil {
		t.Fatal(err)
	}
	assertItems(t, items, []designer.Item{
		{"PK": designer.Str("A"), "note": designer.Str("two\nlines"), "address": designer.Map(map[string]designer.Value{"city": designer.Str("Lisbon")})},
		{"PK": designer.Str("B"), "note": designer.Str(`says "hi"`)},
	})
}

func TestParsePaste_csv(t *testing.T) {
	t.Parallel()
	text := "PK,SK,total,address,note\n" +
		`USER#1,PROFILE,3,"{""city"":{""S"":""Porto""}}","hello, world"` + "\n" +
		"USER#2,PROFILE,,,\n"
	items, err := designer.ParsePaste(text, pasteTestTable())
	if err != nil {
		t.Fatal(err)
	}
	assertItems(t, items, []designer.Item{
		{"PK": designer.Str("USER#1"), "SK": designer.Str("PROFILE"), "total": designer.Num("3"),
			"address": designer.Map(map[string]designer.Value{"city": designer.Str("Porto")}), "note": designer.Str("hello, world")},
		{"PK": designer.Str("USER#2"), "SK": designer.Str("PROFILE")},
	})
}

func TestParsePaste_dynamoDBJSON(t *testing.T) {
	t.Parallel()
	one := designer.Item{"PK": designer.Str("USER#1"), "n": designer.Num("1")}
	two := designer.Item{"PK": designer.Str("USER#2"), "tags": {Type: designer.SS, SS: []string{"x"}}}
	for _, tc := range []struct {
		name, text string
	}{
		{"one item and another", `{"PK":{"S":"USER#1"},"n":{"N":"1"}} {"PK":{"S":"USER#2"},"tags":{"SS":["x"]}}`},
		{"an array", `[{"PK":{"S":"USER#1"},"n":{"N":"1"}},{"PK":{"S":"USER#2"},"tags":{"SS":["x"]}}]`},
		{"a scan response", `{"Items":[{"PK":{"S":"USER#1"},"n":{"N":"1"}},{"PK":{"S":"USER#2"},"tags":{"SS":["x"]}}],"Count":2,"ScannedCount":2}`},
		{"one per line", "{\"PK\":{\"S\":\"USER#1\"},\"n\":{\"N\":\"1\"}}\n\n{\"PK\":{\"S\":\"USER#2\"},\"tags\":{\"SS\":[\"x\"]}}\n"},
		{"get item responses", `{"Item":{"PK":{"S":"USER#1"},"n":{"N":"1"}}}` + "\n" + `{"Item":{"PK":{"S":"USER#2"},"tags":{"SS":["x"]}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items, err := designer.ParsePaste(tc.text, pasteTestTable())
			if err != nil {
				t.Fatal(err)
			}
			assertItems(t, items, []designer.Item{one, two})
		})
	}
}

func TestParsePaste_jsonAttributesNamedItemOrItems(t *testing.T) {
	t.Parallel()
	text := `{"PK":{"S":"A"},"Items":{"L":[]},"Item":{"S":"x"}}`
	items, err := designer.ParsePaste(text, pasteTestTable())
	if err != nil {
		t.Fatal(err)
	}
	assertItems(t, items, []designer.Item{{"PK": designer.Str("A"), "Items": designer.List(), "Item": designer.Str("x")}})
}

func TestParsePaste_errorsNameRowAndColumn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       string
		row, col   int
	}{
		{"bad number", "PK\ttotal\nA\t1\nB\tabc\n", `row 3, column 2 (total): "abc" is not a number`, 3, 2},
		{"bad set", "PK,tags\nA,\"[\"\"a\"\",\"\"a\"\"]\"\n", `row 2, column 2 (tags): "[\"a\",\"a\"]" is not a string set: a set must not hold "a" twice`, 2, 2},
		{"too many cells", "PK\tSK\nA\tB\tC\n", "row 2, column 3: the row has 3 cells but the header names only 2 attributes", 2, 3},
		{"header gap", "PK\t\tSK\nA\tB\tC\n", "row 1, column 2: the header row has no attribute name here", 1, 2},
		{"header twice", "PK,SK,PK\n", "row 1, column 3 (PK): the header names PK twice (columns 1 and 3)", 1, 3},
		{"csv quote", "PK,SK\nA,\"B\n", "row 2: extraneous or missing \" in quoted-field", 2, 0},
		{"json value", `[{"PK":{"S":"A"}},{"PK":{"X":"B"}}]`, `row 2 (PK): unknown attribute type "X"`, 2, 0},
		{"json syntax", `{"PK":{"S":"A"}} {"PK":`, "row 2: ", 2, 0},
		{"json not an item", `[1]`, "row 1: an item is a JSON object of attribute values", 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := designer.ParsePaste(tc.text, pasteTestTable())
			var pe *designer.PasteError
			if !errors.As(err, &pe) {
				t.Fatalf("error = %v (%T), want a *PasteError", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) || pe.Row != tc.row || pe.Column != tc.col {
				t.Fatalf("error = %q (row %d, column %d), want %q (row %d, column %d)", err, pe.Row, pe.Column, tc.want, tc.row, tc.col)
			}
		})
	}
}

func TestParsePaste_nothingToPaste(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"", "  \n\t\n", "PK\tSK\n", "PK,SK\n,\n", "[]", `{"Items":[]}`, "\uFEFF"} {
		if _, err := designer.ParsePaste(text, pasteTestTable()); !errors.Is(err, designer.ErrEmptyPaste) {
			t.Errorf("ParsePaste(%q) error = %v, want ErrEmptyPaste", text, err)
		}
	}
}

func assertItems(t *testing.T, got, want []designer.Item) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d items %v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Errorf("item %d = %v, want %v", i, got[i], want[i])
			continue
		}
		for name, w := range want[i] {
			if g, ok := got[i][name]; !ok || !cellValueEqual(g, w) {
				t.Errorf("item %d attribute %s = %+v, want %+v", i, name, g, w)
			}
		}
	}
}

func FuzzParsePaste(f *testing.F) {
	for _, seed := range []string{
		"PK\tSK\ttotal\nA\tB\t1\n",
		"PK,SK,tags\nA,B,\"[\"\"x\"\"]\"\n",
		`{"Items":[{"PK":{"S":"A"}}]}`,
		`[{"PK":{"S":"A"},"m":{"M":{"x":{"L":[{"NULL":true}]}}}}]`,
		"{\"PK\":{\"S\":\"A\"}}\n{\"PK\":{\"N\":\"1\"}}",
		"PK\tnote\nA\t\"quoted\ttab\"\n",
		"\uFEFFPK\n\"unterminated",
	} {
		f.Add(seed)
	}
	tbl := pasteTestTable()
	f.Fuzz(func(t *testing.T, text string) {
		items, err := designer.ParsePaste(text, tbl)
		if err == nil && len(items) == 0 {
			t.Fatalf("ParsePaste(%q) returned no items and no error", text)
		}
		for _, it := range items {
			designer.ItemSize(it)
		}
	})
}

// BenchmarkParsePasteTSV10000 reads 10,000 pasted TSV rows of eight columns.
func BenchmarkParsePasteTSV10000(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("PK\tSK\ttotal\ttags\tcode\tstatus\tcreated_at\tnote\n")
	for i := range 10000 {
		fmt.Fprintf(&sb, "USER#%d\tORDER#%05d\t%d.%02d\t[\"a\",\"b\"]\tC%d\tSHIPPED\t2024-05-%02dT10:00:00Z\tsome note %d\n",
			i%100, i, i, i%100, i, i%28+1, i)
	}
	text := sb.String()
	tbl := pasteTestTable()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		items, err := designer.ParsePaste(text, tbl)
		if err != nil || len(items) != 10000 {
			b.Fatalf("ParsePaste: %d items, %v", len(items), err)
		}
	}
}
