package designer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readDMFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "dmmd", name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func importDM(t *testing.T, data []byte) (Design, []ImportNote) {
	t.Helper()
	d, notes, err := ImportDataModelMD(data)
	if err != nil {
		t.Fatalf("ImportDataModelMD: %v", err)
	}
	return d, notes
}

func tableNamed(t *testing.T, d Design, name string) Table {
	t.Helper()
	for _, tb := range d.Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %s in %d tables", name, len(d.Tables))
	return Table{}
}

func TestImportDataModelMD_fixtures(t *testing.T) {
	tests := []struct {
		file  string
		check func(t *testing.T, d Design, notes []ImportNote)
	}{
		{"template-style.md", func(t *testing.T, d Design, notes []ImportNote) {
			if d.Name != "Marketplace" {
				t.Errorf("name = %q", d.Name)
			}
			orders := tableNamed(t, d, "Orders")
			if orders.PartitionKey != (KeyAttribute{"customer_id", S}) || orders.SortKey == nil || *orders.SortKey != (KeyAttribute{"sk", S}) {
				t.Errorf("keys = %+v %+v", orders.PartitionKey, orders.SortKey)
			}
			if len(orders.Items) != 5 {
				t.Fatalf("items = %d, want 5 (the index sample makes none)", len(orders.Items))
			}
			first, second := orders.Items[0].Item, orders.Items[1].Item
			if _, ok := first["status"]; ok {
				t.Errorf("an empty cell must leave the attribute out: %+v", first)
			}
			if v := second["total"]; v.Type != N || v.S != "42.50" {
				t.Errorf("total = %+v, want N 42.50 from the Attributes bullet", v)
			}
			if v := second["tags"]; v.Type != SS || len(v.SS) != 2 {
				t.Errorf("tags = %+v, want a string set", v)
			}
			if v := first["address"]; v.Type != M || v.M["city"].S != "Lyon" {
				t.Errorf("address = %+v, want a map", v)
			}
			if v := orders.Items[3].Item["address"]; v.Type != S || v.S != "null" {
				t.Errorf("null cell = %+v, want the text kept", v)
			}
			if !hasNote(notes, "hold the text null") {
				t.Errorf("no note about the null cell: %v", notes)
			}
			if orders.TTLAttribute != "expires_at" {
				t.Errorf("TTL = %q", orders.TTLAttribute)
			}
			if len(orders.EntityTypes) != 2 || orders.EntityTypes[1].SKTemplate != "ORDER#{created_at}#{order_id}" || orders.EntityTypes[1].Entity != "Order" {
				t.Errorf("SK taxonomy = %+v", orders.EntityTypes)
			}
			if !strings.Contains(orders.Capacity, "Access patterns served: Pattern #1, #2, #4") {
				t.Errorf("capacity = %q", orders.Capacity)
			}
			if len(orders.GSIs) != 1 || len(orders.LSIs) != 1 {
				t.Fatalf("indexes = %+v / %+v", orders.GSIs, orders.LSIs)
			}
			g := orders.GSIs[0]
			if g.Name != "OpenOrdersByTenant" || !g.Sparse || len(g.PartitionKey) != 2 || g.PartitionKey[1].Name != "region" || g.SortKey[0].Name != "status" {
				t.Errorf("GSI = %+v", g)
			}
			if g.Projection.Type != Include || !slices.Equal(g.Projection.Attributes, []string{"total", "status"}) {
				t.Errorf("projection = %+v", g.Projection)
			}
			if len(g.PatternAttributes) != 1 || g.PatternAttributes[0].Pattern != 4 {
				t.Errorf("pattern attributes = %+v", g.PatternAttributes)
			}
			if l := orders.LSIs[0]; l.Name != "ByTotal" || l.Projection.Type != KeysOnly || l.SortKey[0] != (KeyAttribute{"total", N}) {
				t.Errorf("LSI = %+v", l)
			}
			products := tableNamed(t, d, "Products")
			if products.SortKey != nil || products.SortKeyWhy != "a product is one item" {
				t.Errorf("Sort Key: None gave %+v %q", products.SortKey, products.SortKeyWhy)
			}
			if v := products.Items[0].Item["price"]; v.Type != N {
				t.Errorf("price = %+v, want N inferred from an all-numeric column", v)
			}
			if len(d.Patterns) != 4 || d.Patterns[1].Mapping.Source != `Query(customer_id, begins_with(sk, "ORDER#"))` {
				t.Errorf("patterns = %+v", d.Patterns)
			}
			if !strings.Contains(d.Prose.DesignPhilosophy, "Orders live") || !strings.Contains(d.Prose.AggregateDecisions, "Customer Aggregate") ||
				!strings.Contains(d.Prose.HotPartitions, "300 RPS") || !strings.Contains(d.Prose.TradeOffs, "Sparse GSI") {
				t.Errorf("prose = %+v", d.Prose)
			}
			if !slices.ContainsFunc(d.Prose.Sections, func(s Section) bool { return s.Title == "Cost Estimates" }) {
				t.Errorf("Cost Estimates not kept: %+v", d.Prose.Sections)
			}
			if !hasNote(notes, "Validation Results are not read") || !hasNote(notes, "sample table of index OpenOrdersByTenant") {
				t.Errorf("notes = %v", notes)
			}
		}},
		{"wild-workshop.md", func(t *testing.T, d Design, notes []ImportNote) {
			accounts := tableNamed(t, d, "Accounts")
			if accounts.PartitionKey.Name != "PK" || accounts.SortKey == nil || accounts.SortKey.Name != "SK" {
				t.Errorf("keys = %+v %+v", accounts.PartitionKey, accounts.SortKey)
			}
			if len(accounts.EntityTypes) != 2 || accounts.EntityTypes[1] != (EntityType{Entity: "Session", PKTemplate: "{account_email}", SKTemplate: "SESSION#{session_id}"}) {
				t.Errorf("entity types = %+v", accounts.EntityTypes)
			}
			if i := slices.IndexFunc(accounts.Attributes, func(a Attribute) bool { return a.Name == "flags" }); i < 0 || accounts.Attributes[i].Type != SS {
				t.Errorf("attributes = %+v, want flags as SS", accounts.Attributes)
			}
			if g := accounts.GSIs[0]; g.Name != "GSI1" || g.Projection.Type != KeysOnly || g.Sparse || !strings.HasPrefix(g.Purpose, "Legacy Id Lookup (Migration Only)") {
				t.Errorf("GSI1 = %+v", g)
			}
			devices := tableNamed(t, d, "Devices")
			if devices.PartitionKey != (KeyAttribute{"device_id", N}) || devices.SortKey != nil || len(devices.Items) != 3 {
				t.Errorf("devices = %+v", devices)
			}
			if g := devices.GSIs[0]; g.Name != "DeviceByOwner" || g.PartitionKey[0] != (KeyAttribute{"owner", S}) || g.SortKey[0] != (KeyAttribute{"device_id", N}) || g.Projection.Type != All {
				t.Errorf("DeviceByOwner = %+v", g)
			}
			p4, _, ok := d.PatternByNumber(4)
			if !ok || p4.PeakRPS == nil || *p4.PeakRPS != 12 || p4.Type != Read || p4.ResultBound != "5" || !strings.Contains(p4.Mapping.Notes, "Tables/Indexes: Accounts") {
				t.Errorf("pattern 4 = %+v", p4)
			}
			if len(d.Patterns) != 2 || !hasNote(notes, `mapping row "x"`) {
				t.Errorf("patterns = %d, notes = %v", len(d.Patterns), notes)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			d, notes := importDM(t, readDMFixture(t, tt.file))
			if err := Check(d); err != nil {
				t.Fatalf("Check: %v", err)
			}
			if got := Recognise(readDMFixture(t, tt.file)); got != KindDataModelMD {
				t.Errorf("Recognise = %q", got)
			}
			tt.check(t, d, notes)
		})
	}
}

func TestImportDataModelMD_refusesWhatIsNotADocument(t *testing.T) {
	for _, in := range []string{"", "   ", "\x00\x01binary", "just a shopping list\n- eggs\n"} {
		_, _, err := ImportDataModelMD([]byte(in))
		wantValidationError(t, err, "file")
	}
}

func TestRecognise_dataModelDoesNotStealRequirements(t *testing.T) {
	for _, name := range []string{"template-style.md", "wild-single-rps.md", "wild-aggregates.md", "golden.md"} {
		data, err := os.ReadFile(filepath.Join("testdata", "reqmd", name))
		if err != nil {
			t.Fatal(err)
		}
		if got := Recognise(data); got != KindRequirementsMD {
			t.Errorf("%s: Recognise = %q", name, got)
		}
	}
}

func TestImport_requirementsAndDataModelMakeOneDesign(t *testing.T) {
	req, err := os.ReadFile(filepath.Join("testdata", "reqmd", "template-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	model := readDMFixture(t, "template-style.md")
	rd, _, err := ImportRequirementsMD(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]File{
		{{Name: "dynamodb_requirement.md", Data: req}, {Name: "dynamodb_data_model.md", Data: model}},
		{{Name: "dynamodb_data_model.md", Data: model}, {Name: "dynamodb_requirement.md", Data: req}},
	} {
		d, notes, err := Import(order)
		if err != nil {
			t.Fatalf("Import: %v", err)
		}
		if d.Name != rd.Name || len(d.Entities) != len(rd.Entities) || len(d.Tables) != 2 {
			t.Errorf("merged: name %q, %d entities, %d tables", d.Name, len(d.Entities), len(d.Tables))
		}
		for _, rp := range rd.Patterns {
			p, _, ok := d.PatternByNumber(rp.Number)
			if !ok || p.Description != rp.Description {
				t.Errorf("pattern %d lost its requirement: %+v", rp.Number, p)
			}
		}
		if p, _, _ := d.PatternByNumber(2); p.Mapping.Source == "" {
			t.Errorf("pattern 2 has no mapping source: %+v", p)
		}
		if d.Prose.DesignPhilosophy == "" {
			t.Errorf("prose lost")
		}
		if len(notes) > 0 && !strings.HasPrefix(notes[0].Message, "dynamodb_") {
			t.Errorf("notes do not name their file: %v", notes[0])
		}
	}
	_, _, err = Import([]File{{Name: "a.md", Data: model}, {Name: "b.md", Data: model}})
	wantValidationError(t, err, "file")
}

// TestImportDataModelMD_sharedSeeds reads the real data models under /work/shared when they are
// there; the counts were checked by reading each document.
func TestImportDataModelMD_sharedSeeds(t *testing.T) {
	glob := func(pattern string) string {
		m, _ := filepath.Glob(pattern)
		if len(m) == 0 {
			return ""
		}
		return m[0]
	}
	tests := []struct {
		path                          string
		tables, gsis, items, patterns int
	}{
		{glob("/work/shared/seeds/000_*.txt"), 3, 3, 14, 15},
		{glob("/work/shared/seeds/002_*.txt"), 8, 2, 28, 22},
		{glob("/work/shared/seeds/003_*.txt"), 0, 0, 0, 0},
		{glob("/work/shared/seeds/004_*.txt"), 1, 5, 0, 0},
		{"/work/shared/fixtures/aws-dynamodb-examples/modernizer-stage-02-dynamodb_data_model.md", 3, 6, 0, 44},
	}
	for _, tt := range tests {
		data, err := os.ReadFile(tt.path)
		if tt.path == "" || err != nil {
			t.Logf("skipping %q: the shared seeds are not here (%v)", tt.path, err)
			continue
		}
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			if got := Recognise(data); got != KindDataModelMD {
				t.Errorf("Recognise = %q", got)
			}
			d, _, err := Import([]File{{Name: filepath.Base(tt.path), Data: data}})
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			gsis, items := 0, 0
			for _, tb := range d.Tables {
				gsis += len(tb.GSIs)
				items += len(tb.Items)
			}
			if len(d.Tables) != tt.tables || gsis != tt.gsis || items != tt.items || len(d.Patterns) != tt.patterns {
				t.Errorf("tables %d, GSIs %d, items %d, patterns %d; want %d, %d, %d, %d",
					len(d.Tables), gsis, items, len(d.Patterns), tt.tables, tt.gsis, tt.items, tt.patterns)
			}
		})
	}
}

func FuzzImportDataModelMD(f *testing.F) {
	for _, name := range []string{"template-style.md", "wild-workshop.md"} {
		f.Add(readDMFixture(f, name))
	}
	for _, s := range []string{
		"# DynamoDB Data Model\n",
		"### T Table\n| a | b |\n|---|---|\n| 1 | x |\n- **Sort Key**: None\n",
		"### T Table\n- **Partition Key**: a + b + c\n| x |\n|-|\n| null |\n### G GSI\n- **Projection**: INCLUDE (\n",
		"### GSI1: x\n- **Partition Key**: `= <>`\n| Pattern | DynamoDB Operations |\n|-|-|\n| AP3-1 | q |\n",
		"## Access Pattern Mapping\n| Pattern | Description |\n|--|--|\n| AP1-999999 | x |\n| 0 | y |\n",
		"### T Table\n- **Attributes**: a (Map), b (StringSet), c (N)\n| a | b | c |\n|-|-|-|\n| {\"x\": [1e999]} | [] | 1e200 |\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, err := ImportDataModelMD(data)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != "file" {
				t.Fatalf("error other than a refused file: %v", err)
			}
			return
		}
		if err := Check(d); err != nil {
			t.Fatalf("import gave a design Check refuses: %v", err)
		}
	})
}

func BenchmarkImportDataModelMD_10Tables50Items(b *testing.B) {
	var doc strings.Builder
	doc.WriteString("# DynamoDB Data Model\n\n## Table Designs\n\n")
	for t := range 10 {
		fmt.Fprintf(&doc, "### T%d Table\n\n| pk | sk | name | qty | tags |\n|---|---|---|---|---|\n", t)
		for i := range 50 {
			fmt.Fprintf(&doc, "| USER#%d | ORDER#%04d | item %d | %d | [\"a\", \"b\"] |\n", i%7, i, i, i*3)
		}
		doc.WriteString("\n- **Purpose**: orders\n- **Partition Key**: pk - users\n- **Sort Key**: sk - orders\n")
		doc.WriteString("- **Attributes**: pk (String), sk (String), name (String), qty (Number)\n\n")
		fmt.Fprintf(&doc, "### ByName%d GSI\n- **Partition Key**: name - names\n- **Projection**: KEYS_ONLY - ids only\n\n", t)
	}
	data := []byte(doc.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ImportDataModelMD(data); err != nil {
			b.Fatal(err)
		}
	}
}
