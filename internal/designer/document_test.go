package designer_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// everyValueDesign holds every DynamoDB type, nested, in sample items and in operation values.
func everyValueDesign() designer.Design {
	nested := designer.Map(map[string]designer.Value{
		"list": designer.List(designer.Str("a"), designer.Num("-1.5E3"), designer.Null(), designer.Boolean(false),
			designer.Map(map[string]designer.Value{"deep": designer.List(designer.Bin([]byte{0, 1, 2}))})),
		"set": {Type: designer.NS, SS: []string{"1", "2.50", "-3"}},
	})
	item := designer.Item{
		"pk":   designer.Str("USER#1"),
		"sk":   designer.Num("42"),
		"s":    designer.Str("<b>bold</b> & \"quoted\" ünïcode \u2028"),
		"n":    designer.Num("0.000000000000000000000000000000000001"),
		"b":    designer.Bin([]byte("\x00\xffbinary")),
		"bool": designer.Boolean(true),
		"null": designer.Null(),
		"m":    nested,
		"l":    designer.List(designer.List(), designer.Map(map[string]designer.Value{})),
		"ss":   {Type: designer.SS, SS: []string{"red", "green"}},
		"ns":   {Type: designer.NS, SS: []string{"7", "1e10"}},
		"bs":   {Type: designer.BS, BS: [][]byte{[]byte("a"), []byte("b")}},
	}
	limit := 10
	return designer.Design{
		Name: "Every value",
		Entities: []designer.Entity{{Name: "Thing", Attributes: []designer.Attribute{
			{Name: "pk", Type: designer.S}, {Name: "sk", Type: designer.N}, {Name: "m", Type: designer.M}, {Name: "bs", Type: designer.BS},
		}}},
		Patterns: []designer.Pattern{{
			Number: 1, Description: "Get a thing", Type: designer.Read,
			Mapping: designer.Mapping{Operations: []designer.Operation{{
				Op: "Query", Table: "Things", KeyCondition: "#pk = :pk AND sk > :sk", Limit: &limit,
				Names:    map[string]string{"#pk": "pk"},
				Values:   map[string]designer.Value{":pk": designer.Str("USER#1"), ":sk": designer.Num("1"), ":m": nested},
				Expected: &[]designer.Item{{"pk": designer.Str("USER#1"), "sk": designer.Num("42")}},
			}}},
		}},
		Tables: []designer.Table{{
			Name:         "Things",
			PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "sk", Type: designer.N},
			Items:        []designer.SampleItem{{ID: "one", Item: item}, {ID: "two", Item: designer.Item{"pk": designer.Str("USER#2"), "sk": designer.Num("1")}}},
		}},
	}
}

func TestJSON_roundTrip(t *testing.T) {
	t.Parallel()
	designs := map[string]designer.Design{
		"hr example":  designertest.HRDesign(t),
		"every value": everyValueDesign(),
		"empty":       {Name: "Empty"},
	}
	for name, d := range designs {
		t.Run(name, func(t *testing.T) {
			first := designertest.MustMarshal(t, d)
			parsed, err := designer.ParseJSON(first)
			if err != nil {
				t.Fatalf("ParseJSON(MarshalJSON(d)): %v", err)
			}
			second := designertest.MustMarshal(t, parsed)
			if !bytes.Equal(first, second) {
				t.Fatalf("round trip changed the document:\n%s", designertest.FirstDifference(first, second))
			}
		})
	}
}

func TestMarshalJSON_isReadable(t *testing.T) {
	t.Parallel()
	out := string(designertest.MustMarshal(t, everyValueDesign()))
	for _, want := range []string{`"format": "dynaloom/1"`, `<b>bold</b> & \"quoted\"`, `"N": "0.000000000000000000000000000000000001"`} {
		if !strings.Contains(out, want) {
			t.Errorf("MarshalJSON output lacks %s", want)
		}
	}
}

func TestParseJSON_partialDocumentGetsDefaults(t *testing.T) {
	t.Parallel()
	d, err := designer.ParseJSON([]byte(`{"name":"Orders"}`))
	if err != nil {
		t.Fatalf("ParseJSON: %v", err)
	}
	if d.Name != "Orders" || d.Format != designer.Format {
		t.Errorf("name %q format %q", d.Name, d.Format)
	}
	if d.Entities == nil || d.Relationships == nil || d.Patterns == nil || d.Aggregates == nil ||
		d.Consolidations == nil || d.Tables == nil || d.Comments == nil {
		t.Errorf("a list was left nil: %+v", d)
	}
	out := string(designertest.MustMarshal(t, d))
	for _, want := range []string{`"entities": []`, `"tables": []`, `"comments": []`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
}

func TestParseJSON_defaults(t *testing.T) {
	t.Parallel()
	d, err := designer.ParseJSON([]byte(`{
		"entities": [{"name": "User"}],
		"access_patterns": [{"number": 1, "description": "Get user"}],
		"tables": [{"name": "Users", "partition_key": {"name": "user_id", "type": "S"},
			"gsis": [{"name": "ByEmail", "partition_key": [{"name": "email", "type": "S"}]}],
			"items": [{"id": "u1"}]}],
		"revision": 7
	}`))
	if err != nil {
		t.Fatalf("ParseJSON: %v", err)
	}
	if d.Name != "Untitled design" {
		t.Errorf("Name = %q, want the default", d.Name)
	}
	if d.Patterns[0].Status != designer.StatusOpen {
		t.Errorf("status = %q, want %q", d.Patterns[0].Status, designer.StatusOpen)
	}
	if tb := d.Tables[0]; tb.BillingMode != designer.OnDemand || tb.GSIs[0].Projection.Type != designer.All {
		t.Errorf("billing %q projection %q", tb.BillingMode, tb.GSIs[0].Projection.Type)
	}
	if d.Entities[0].Attributes == nil || d.Tables[0].Items[0].Item == nil {
		t.Errorf("nested lists left nil, they would be written as null")
	}
}

func TestParseJSON_refuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		field string
	}{
		{name: "unknown member", in: `{"name":"Orders","colour":"blue"}`, field: "colour"},
		{name: "unknown nested member", in: `{"tables":[{"name":"T","partition_key":{"name":"id","type":"S"},"hash_key":"id"}]}`, field: "hash_key"},
		{name: "foreign format", in: `{"format":"dynaloom/2","name":"Orders"}`, field: "format"},
		{name: "format of another tool", in: `{"format":"workbench","name":"Orders"}`, field: "format"},
		{name: "format not a string", in: `{"format":1}`, field: "format"},
		{name: "name not a string", in: `{"name":5}`, field: "name"},
		{name: "nested type error", in: `{"entities":[{"name":"A","attributes":[{"name":"x","type":5}]}]}`, field: "entities/attributes/type"},
		{name: "boolean expected", in: `{"aggregates":[{"entity_a":"A","bounded":"yes"}]}`, field: "aggregates/bounded"},
		{name: "number expected", in: `{"access_patterns":[{"number":"one"}]}`, field: "access_patterns/number"},
		{name: "not an object", in: `[]`, field: "body"},
		{name: "null", in: `null`, field: "body"},
		{name: "syntax error", in: `{"name":`, field: "body"},
		{name: "trailing data", in: `{"name":"a"} {}`, field: "body"},
		{name: "bad attribute type", in: `{"entities":[{"name":"A","attributes":[{"name":"x","type":"STRING"}]}]}`, field: "entities/0/attributes/0/type"},
		{name: "bad status", in: `{"access_patterns":[{"number":1,"status":"done"}]}`, field: "access_patterns/0/status"},
		{name: "unknown action", in: `{"access_patterns":[{"number":1,"status":"open","mapping":{"operations":[{"op":"TransactWriteItems","table":"T","action":"upsert"}]}}]}`,
			field: "access_patterns/0/mapping/operations/0/action"},
		{name: "update in a batch", in: `{"access_patterns":[{"number":1,"status":"open","mapping":{"operations":[{"op":"Query","table":"T"},{"op":"BatchWriteItem","table":"T","action":"update"}]}}]}`,
			field: "access_patterns/0/mapping/operations/1/action"},
		{name: "action of a read", in: `{"access_patterns":[{"number":1,"status":"open","mapping":{"operations":[{"op":"GetItem","table":"T","action":"put"}]}}]}`,
			field: "access_patterns/0/mapping/operations/0/action"},
		{name: "bad relationship kind", in: `{"relationships":[{"from":"A","to":"B","kind":"1:N"}]}`, field: "relationships/0/kind"},
		{name: "bad billing mode", in: `{"tables":[{"name":"T","partition_key":{"name":"id","type":"S"},"billing_mode":"FREE"}]}`, field: "tables/0/billing_mode"},
		{name: "control character in name", in: `{"name":"a\u0007b"}`, field: "name"},
		{name: "malformed sample value", in: `{"tables":[{"name":"T","partition_key":{"name":"id","type":"S"},"items":[{"id":"a","item":{"id":{"N":"fast"}}}]}]}`, field: "body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := designer.ParseJSON([]byte(tt.in))
			if err == nil {
				t.Fatalf("ParseJSON accepted it: %+v", d)
			}
			designertest.WantValidationError(t, err, tt.field)
		})
	}
}

func TestParseJSON_errorMessageNamesTheProblem(t *testing.T) {
	t.Parallel()
	_, err := designer.ParseJSON([]byte(`{"tables":[{"name":"T","partition_key":{"name":"id","type":"S"},"items":[{"id":"a","item":{"id":{"N":"fast"}}}]}]}`))
	if err == nil || !strings.Contains(err.Error(), `"fast" is not a number`) {
		t.Errorf("error = %v, want it to quote the bad number", err)
	}
	_, err = designer.ParseJSON([]byte(`{"format":"dynaloom/2"}`))
	if err == nil || !strings.Contains(err.Error(), "dynaloom/1") {
		t.Errorf("error = %v, want it to name the supported format", err)
	}
}

func TestMarshalJSON_doesNotChangeItsArgument(t *testing.T) {
	t.Parallel()
	d := designer.Design{Name: "x", Tables: []designer.Table{{Name: "T", PartitionKey: designer.KeyAttribute{Name: "id", Type: designer.S}}},
		Patterns: []designer.Pattern{{Number: 1}}, Entities: []designer.Entity{{Name: "E"}}}
	designertest.MustMarshal(t, d)
	if d.Tables[0].BillingMode != "" || d.Patterns[0].Status != "" || d.Entities[0].Attributes != nil {
		t.Errorf("MarshalJSON filled defaults into the caller's design: %+v", d)
	}
}

// The JSON field names in the docs must match the struct tags; this catches a renamed tag.
func TestMarshalJSON_topLevelMembers(t *testing.T) {
	t.Parallel()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(designertest.MustMarshal(t, designer.Design{Name: "x"}), &m); err != nil {
		t.Fatal(err)
	}
	want := []string{"format", "name", "overview", "entities", "relationships", "access_patterns", "aggregates",
		"consolidations", "considerations", "tables", "prose", "comments"}
	if len(m) != len(want) {
		t.Errorf("top-level members = %d, want %d", len(m), len(want))
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("missing top-level member %q", k)
		}
	}
}

func TestNormalize_assignsIDsDeterministically(t *testing.T) {
	t.Parallel()
	d := designer.Design{Name: "x",
		Relationships:  []designer.Relationship{{From: "A"}, {ID: "r2", From: "B"}, {From: "C"}, {From: "D"}},
		Patterns:       []designer.Pattern{{ID: "ap1"}, {}, {ID: "custom"}, {}},
		Aggregates:     []designer.AggregateAnalysis{{}, {}},
		Consolidations: []designer.ConsolidationReview{{ID: "c7"}, {}},
	}
	got := designer.Normalize(d)
	ids := func(n int, id func(int) string) []string {
		var out []string
		for i := range n {
			out = append(out, id(i))
		}
		return out
	}
	for _, tt := range []struct {
		name      string
		got, want []string
	}{
		{"relationships", ids(4, func(i int) string { return got.Relationships[i].ID }), []string{"r1", "r2", "r3", "r4"}},
		{"patterns", ids(4, func(i int) string { return got.Patterns[i].ID }), []string{"ap1", "ap2", "custom", "ap3"}},
		{"aggregates", ids(2, func(i int) string { return got.Aggregates[i].ID }), []string{"ag1", "ag2"}},
		{"consolidations", ids(2, func(i int) string { return got.Consolidations[i].ID }), []string{"c7", "c1"}},
	} {
		if strings.Join(tt.got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s ids = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if d.Relationships[0].ID != "" || d.Patterns[1].ID != "" {
		t.Errorf("Normalize wrote ids into its argument")
	}
	if again := designer.Normalize(d); string(designertest.MustMarshal(t, again)) != string(designertest.MustMarshal(t, got)) {
		t.Errorf("Normalize is not deterministic")
	}
	if err := designer.Check(got); err != nil {
		t.Errorf("Check: %v", err)
	}
}

func TestNormalize_sharesListsThatHaveIDs(t *testing.T) {
	d := designertest.HRDesign(t)
	got := designer.Normalize(d)
	if &got.Patterns[0] != &d.Patterns[0] || &got.Relationships[0] != &d.Relationships[0] {
		t.Errorf("Normalize copied lists that needed nothing")
	}
	if allocs := testing.AllocsPerRun(10, func() { designer.Normalize(d) }); allocs != 0 {
		t.Errorf("Normalize of a normalized design allocates %v times", allocs)
	}
}

func TestHRExample_hasIDsInListOrder(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	for i, p := range d.Patterns {
		if want := "ap" + strconv.Itoa(i+1); p.ID != want {
			t.Errorf("pattern %d id = %q, want %q", p.Number, p.ID, want)
		}
	}
	if d.Relationships[0].ID != "r1" || d.Aggregates[3].ID != "ag4" || d.Consolidations[2].ID != "c3" {
		t.Errorf("ids: %q %q %q", d.Relationships[0].ID, d.Aggregates[3].ID, d.Consolidations[2].ID)
	}
}

func TestCheck_refusesBadIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, field string
	}{
		{"duplicate pattern id", `{"access_patterns":[{"id":"ap1","number":1},{"id":"ap1","number":2}]}`, "access_patterns/1/id"},
		{"duplicate relationship id", `{"relationships":[{"id":"x"},{},{"id":"x"}]}`, "relationships/2/id"},
		{"duplicate aggregate id", `{"aggregates":[{"id":"a"},{"id":"a"}]}`, "aggregates/1/id"},
		{"duplicate consolidation id", `{"consolidations":[{"id":"c1"},{"id":"c1"}]}`, "consolidations/1/id"},
		{"slash in an id", `{"access_patterns":[{"id":"ap/1"}]}`, "access_patterns/0/id"},
		{"space in an id", `{"relationships":[{"id":"r 1"}]}`, "relationships/0/id"},
		{"over-long id", `{"aggregates":[{"id":"` + strings.Repeat("a", designer.MaxIDLen+1) + `"}]}`, "aggregates/0/id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := designer.ParseJSON([]byte(tt.in))
			designertest.WantValidationError(t, err, tt.field)
		})
	}
	// An id given for one row is kept, and the rows without one are numbered around it.
	d, err := designer.ParseJSON([]byte(`{"access_patterns":[{"number":1},{"id":"ap1","number":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Patterns[0].ID != "ap2" || d.Patterns[1].ID != "ap1" {
		t.Errorf("ids = %q %q", d.Patterns[0].ID, d.Patterns[1].ID)
	}
}

func TestRelationshipCounts(t *testing.T) {
	avg, max := 1.6, int64(12)
	for _, c := range []struct {
		r    designer.Relationship
		want string
	}{
		{designer.Relationship{Kind: designer.OneToMany}, ""},
		{designer.Relationship{Avg: &avg, Max: &max}, "avg 1.6, max 12"},
		{designer.Relationship{Avg: &avg, AvgUnit: "per year"}, "avg 1.6 per year"},
		{designer.Relationship{Max: &max, MaxUnit: "pets"}, "max 12 pets"},
	} {
		if got := c.r.Counts(); got != c.want {
			t.Errorf("Counts() = %q, want %q", got, c.want)
		}
	}
}
