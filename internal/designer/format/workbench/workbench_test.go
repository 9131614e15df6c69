package workbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// The models under testdata/workbench were written for these tests, one per format variant:
// v1-facets.json (Version 1.0, no AWSService, facets holding the items, <id> and ${id} aliases),
// v2-dynobase.json (Version 2.0 as Dynobase writes it: ISO dates, a ModelSchema member, "__id": {}
// in every item), v3-include.json (Version 3.0 with every projection type, capacity settings,
// SampleDataFormats and members Workbench does not define) and no-version.json (the 2019 form:
// no AWSService or Version, table-level items, no billing fields). library-design.json is a
// design-json document for the export golden file.

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func mustImport(tb testing.TB, data []byte) (designer.Design, []designer.ImportNote) {
	tb.Helper()
	d, notes, err := Import(data)
	if err != nil {
		tb.Fatalf("Import: %v", err)
	}
	if err := designer.Check(d); err != nil {
		tb.Fatalf("imported design fails Check: %v", err)
	}
	return d, notes
}

func mustExport(tb testing.TB, d designer.Design) []byte {
	tb.Helper()
	out, err := Export(d)
	if err != nil {
		tb.Fatalf("Export: %v", err)
	}
	return out
}

// libraryDesign is the design of the export golden file: facets with matching and unmatched
// items, a table without a sort key, a table without entity types, an entity name used by two
// tables, every projection type, provisioned capacity, an LSI and undeclared attributes.
func libraryDesign(tb testing.TB) designer.Design {
	tb.Helper()
	d, err := designer.ParseJSON(readFixture(tb, "library-design.json"))
	if err != nil {
		tb.Fatalf("ParseJSON(library-design.json): %v", err)
	}
	return d
}

// jsonDoc decodes an exported or written model for assertions.
func jsonDoc(tb testing.TB, data []byte) map[string]any {
	tb.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		tb.Fatalf("not JSON: %v\n%s", err, data)
	}
	return doc
}

// at walks a decoded document by member names and array positions ("DataModel", "0", …).
func at(tb testing.TB, v any, path ...string) any {
	tb.Helper()
	for i, p := range path {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[p]
			if !ok {
				tb.Fatalf("%s: no member %q", strings.Join(path[:i], "/"), p)
			}
			v = next
		case []any:
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || n >= len(x) {
				tb.Fatalf("%s: no element %q in an array of %d", strings.Join(path[:i], "/"), p, len(x))
			}
			v = x[n]
		default:
			tb.Fatalf("%s is %T, not an object or array", strings.Join(path[:i], "/"), v)
		}
	}
	return v
}

func has(v any, member string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, ok = m[member]
	return ok
}

func TestExport_golden(t *testing.T) {
	t.Parallel()
	got := mustExport(t, libraryDesign(t))
	designertest.Golden(t, "testdata/library.golden", got)
}

func TestExport_writesWhatWorkbenchReads(t *testing.T) {
	t.Parallel()
	d := libraryDesign(t)
	out := mustExport(t, d)
	for range 3 {
		if again := mustExport(t, d); !bytes.Equal(out, again) {
			t.Fatalf("two exports of one design differ:\n%s", designertest.FirstDifference(out, again))
		}
	}
	if !bytes.HasSuffix(out, []byte("}\n")) || bytes.HasSuffix(out, []byte("\n\n")) {
		t.Errorf("export does not end with one newline")
	}
	if !bytes.Contains(out, []byte("\n  \"ModelMetadata\": {\n")) {
		t.Errorf("export is not indented by two spaces")
	}
	if !bytes.Contains(out, []byte("<on time>")) || bytes.Contains(out, []byte(`\u003c`)) {
		t.Errorf("text with < and & is escaped for HTML; Workbench shows it as written")
	}
	doc := jsonDoc(t, out)
	if got := at(t, doc, "ModelName"); got != "Lending library" {
		t.Errorf("ModelName = %v", got)
	}
	meta := at(t, doc, "ModelMetadata")
	if at(t, meta, "AWSService") != "Amazon DynamoDB" || at(t, meta, "Version") != "3.0" {
		t.Errorf("ModelMetadata = %v, want AWSService Amazon DynamoDB and Version 3.0", meta)
	}
	if got := at(t, meta, "Description"); got != d.Overview.BusinessContext {
		t.Errorf("Description = %v, want the business context", got)
	}
	if got := len(at(t, doc, "DataModel").([]any)); got != len(d.Tables) {
		t.Fatalf("DataModel has %d tables, want %d", got, len(d.Tables))
	}

	library := at(t, doc, "DataModel", "0")
	if got := at(t, library, "KeyAttributes", "SortKey", "AttributeName"); got != "sk" {
		t.Errorf("Library sort key = %v", got)
	}
	facetNames := func(table any) []string {
		var names []string
		for _, f := range at(t, table, "TableFacets").([]any) {
			names = append(names, at(t, f, "FacetName").(string))
		}
		return names
	}
	if got := facetNames(library); !slices.Equal(got, []string{"Member", "Loan"}) {
		t.Errorf("Library facets = %v", got)
	}
	itemKeys := func(items any) []string {
		var keys []string
		for _, it := range items.([]any) {
			keys = append(keys, at(t, it, "sk", "S").(string))
		}
		return keys
	}
	if got := itemKeys(at(t, library, "TableFacets", "0", "TableData")); !slices.Equal(got, []string{"PROFILE", "PROFILE"}) {
		t.Errorf("Member facet items = %v", got)
	}
	if got := itemKeys(at(t, library, "TableFacets", "1", "TableData")); !slices.Equal(got, []string{"LOAN#2026-03-01#b42", "LOAN#2026-02-11#b7"}) {
		t.Errorf("Loan facet items = %v", got)
	}
	if got := itemKeys(at(t, library, "TableData")); !slices.Equal(got, []string{"2026-03"}) {
		t.Errorf("table-level items = %v, want only the item no template matches", got)
	}
	if got := at(t, library, "TableFacets", "1", "KeyAttributeAlias", "SortKeyAlias"); got != "LOAN#{loaned_at}#{book_id}" {
		t.Errorf("Loan SortKeyAlias = %v", got)
	}
	if got := at(t, library, "TableFacets", "0", "NonKeyAttributes"); !reflect.DeepEqual(got, []any{"member_id", "name", "email", "card", "fines", "prefs"}) {
		t.Errorf("Member facet NonKeyAttributes = %v, want its items' attributes, declared ones first", got)
	}
	var nonKey []string
	for _, a := range at(t, library, "NonKeyAttributes").([]any) {
		nonKey = append(nonKey, at(t, a, "AttributeName").(string)+":"+at(t, a, "AttributeType").(string))
	}
	want := []string{"member_id:S", "name:S", "email:S", "book_id:S", "loaned_at:S", "due_at:S", "status:S", "renewals:N", "expires_at:N",
		"card:B", "fines:NS", "prefs:M", "reminders:L"}
	if !slices.Equal(nonKey, want) {
		t.Errorf("Library NonKeyAttributes = %v\nwant %v", nonKey, want)
	}
	projections := map[string]any{}
	for _, ix := range at(t, library, "GlobalSecondaryIndexes").([]any) {
		projections[at(t, ix, "IndexName").(string)] = at(t, ix, "Projection")
	}
	wantProj := map[string]any{
		"LoansByBook":    map[string]any{"ProjectionType": "INCLUDE", "NonKeyAttributes": []any{"member_id", "due_at"}},
		"MembersByEmail": map[string]any{"ProjectionType": "KEYS_ONLY"},
		"LoansByStatus":  map[string]any{"ProjectionType": "ALL"},
	}
	if !reflect.DeepEqual(projections, wantProj) {
		t.Errorf("GSI projections = %v\nwant %v", projections, wantProj)
	}
	if at(t, library, "BillingMode") != designer.Provisioned ||
		!reflect.DeepEqual(at(t, library, "ProvisionedCapacitySettings", "ProvisionedThroughput"), map[string]any{"ReadCapacityUnits": 10.0, "WriteCapacityUnits": 5.0}) {
		t.Errorf("Library capacity = %v %v", at(t, library, "BillingMode"), at(t, library, "ProvisionedCapacitySettings"))
	}
	if bytes.Contains(out, []byte("LocalSecondaryIndexes")) || bytes.Contains(out, []byte("ByDueDate")) {
		t.Errorf("export writes the LSI, which Workbench has no place for")
	}

	counters := at(t, doc, "DataModel", "1")
	if has(at(t, counters, "KeyAttributes"), "SortKey") || has(counters, "ProvisionedCapacitySettings") || has(counters, "TableData") {
		t.Errorf("Counters table = %v; want no sort key, no capacity settings and no table-level items", counters)
	}
	if got := at(t, counters, "TableFacets", "0", "KeyAttributeAlias"); !reflect.DeepEqual(got, map[string]any{"PartitionKeyAlias": "COUNTER#{name}"}) {
		t.Errorf("Counter alias = %v", got)
	}
	if got := facetNames(at(t, doc, "DataModel", "2")); !slices.Equal(got, []string{"Loan 2"}) {
		t.Errorf("LoanArchive facets = %v; facet names must be unique in a model", got)
	}
	plain := at(t, doc, "DataModel", "3")
	if has(plain, "TableFacets") || has(plain, "GlobalSecondaryIndexes") || !reflect.DeepEqual(at(t, plain, "TableData"), []any{}) {
		t.Errorf("Plain table = %v; want empty TableData and no facets or GSIs", plain)
	}
	if !reflect.DeepEqual(at(t, plain, "DataAccess"), map[string]any{"MySql": map[string]any{}}) {
		t.Errorf("Plain DataAccess = %v", at(t, plain, "DataAccess"))
	}
}

func TestDated_fillsOnlyTheDatesAModelLacks(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 3, 5, 9, 7, 0, 0, time.UTC)
	modified := time.Date(2026, 11, 21, 16, 45, 0, 0, time.FixedZone("CET", 3600))
	d := libraryDesign(t)
	d.Workbench = nil
	out, err := Export(Dated(d, created, modified))
	if err != nil {
		t.Fatal(err)
	}
	meta := at(t, jsonDoc(t, out), "ModelMetadata")
	// Workbench's own layout, in UTC: 16:45 CET is 03:45 PM UTC.
	if at(t, meta, "DateCreated") != "Mar 05, 2026, 09:07 AM" || at(t, meta, "DateLastModified") != "Nov 21, 2026, 03:45 PM" {
		t.Errorf("dates = %v, %v", at(t, meta, "DateCreated"), at(t, meta, "DateLastModified"))
	}
	if d.Workbench != nil {
		t.Error("Dated changed the design it was given")
	}
	if again, _ := Export(Dated(d, created, modified)); !bytes.Equal(out, again) {
		t.Error("the same design and times give different bytes")
	}

	// A model imported from Workbench keeps its own dates; an empty one is filled.
	imported, _, err := Import([]byte(`{"ModelName":"M","ModelMetadata":{"Author":"Ana",
		"DateCreated":"Jan 12, 2023, 10:14 AM","DateLastModified":"","AWSService":"Amazon DynamoDB","Version":"3.0"},
		"DataModel":[{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"S"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err = Export(Dated(imported, created, modified))
	if err != nil {
		t.Fatal(err)
	}
	meta = at(t, jsonDoc(t, out), "ModelMetadata")
	if at(t, meta, "DateCreated") != "Jan 12, 2023, 10:14 AM" || at(t, meta, "DateLastModified") != "Nov 21, 2026, 03:45 PM" || at(t, meta, "Author") != "Ana" {
		t.Errorf("metadata = %v", meta)
	}

}

func TestImport_versions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file  string
		check func(t *testing.T, d designer.Design, notes []designer.ImportNote)
	}{
		{"v1-facets.json", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			if d.Name != "Bike shop" || d.Overview.BusinessContext != "Customers and their repair tickets" {
				t.Errorf("name %q, business context %q", d.Name, d.Overview.BusinessContext)
			}
			tb := mustTable(t, d, "BikeShop")
			want := []designer.EntityType{
				{Entity: "Customer", PKTemplate: "CUST#{customerId}", SKTemplate: "PROFILE"},
				{Entity: "Ticket", PKTemplate: "CUST#{customerId}", SKTemplate: "TICKET#{ticketId}"},
			}
			if !reflect.DeepEqual(tb.EntityTypes, want) {
				t.Errorf("entity types = %+v\nwant %+v", tb.EntityTypes, want)
			}
			if got := itemSortKeys(tb); !slices.Equal(got, []string{"PROFILE", "PROFILE", "TICKET#17", "TICKET#18", "T-19"}) {
				t.Errorf("items = %v, want the facets' items in order", got)
			}
			if got := tb.Items[2].Item["quote"]; got.Type != designer.N || got.S != "45.50" {
				t.Errorf("quote = %+v, want the number as written", got)
			}
			if len(tb.GSIs) != 1 || tb.GSIs[0].Name != "TicketsByStatus" || tb.GSIs[0].Projection.Type != designer.All {
				t.Errorf("GSIs = %+v", tb.GSIs)
			}
			if tb.BillingMode != designer.OnDemand || tb.ReadUnits != nil {
				t.Errorf("billing = %s %v, want the default", tb.BillingMode, tb.ReadUnits)
			}
			ex := d.Workbench.Tables["BikeShop"]
			if !reflect.DeepEqual(ex.ItemFacets, map[string]string{tb.Items[4].ID: "Ticket"}) {
				t.Errorf("item facets = %v, want only the ticket its keys do not place", ex.ItemFacets)
			}
			if len(ex.Facets) != 0 || len(ex.Members) != 0 {
				t.Errorf("kept %v %v; the facets' lists and DataAccess are the defaults", ex.Facets, ex.Members)
			}
			if got := string(d.Workbench.Metadata["Author"]); got != `"r.okoye"` {
				t.Errorf("Author kept as %s", got)
			}
			if len(notes) != 0 {
				t.Errorf("notes = %v", notes)
			}
		}},
		{"v2-dynobase.json", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			tb := mustTable(t, d, "Fares")
			if len(tb.Items) != 3 || len(tb.EntityTypes) != 0 {
				t.Fatalf("items %d, entity types %d", len(tb.Items), len(tb.EntityTypes))
			}
			for _, it := range tb.Items {
				if _, ok := it.Item["__id"]; ok {
					t.Errorf("item %s keeps __id, which is not DynamoDB JSON", it.ID)
				}
			}
			if got := tb.Items[1].Item["price"]; got.Type != designer.N || got.S != "389.99" {
				t.Errorf("price = %+v", tb.Items[1].Item["price"])
			}
			if len(notes) != 1 || !strings.Contains(notes[0].Message, "__id") || !strings.Contains(notes[0].Message, "3 items") {
				t.Errorf("notes = %v, want one note on __id in 3 items", notes)
			}
			if len(tb.GSIs) != 1 || tb.GSIs[0].Projection.Type != designer.KeysOnly || len(tb.GSIs[0].SortKey) != 0 {
				t.Errorf("GSIs = %+v", tb.GSIs)
			}
			if tb.BillingMode != designer.OnDemand {
				t.Errorf("billing = %s", tb.BillingMode)
			}
			if _, ok := d.Workbench.Model["ModelSchema"]; !ok {
				t.Errorf("ModelSchema was not kept")
			}
		}},
		{"v3-include.json", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			tb := mustTable(t, d, "Tasks")
			want := map[string]designer.Projection{
				"TasksByAssignee": {Type: designer.Include, Attributes: []string{"points", "done"}},
				"TasksByDueDate":  {Type: designer.KeysOnly},
				"TeamsByName":     {Type: designer.All},
			}
			got := map[string]designer.Projection{}
			for _, ix := range tb.GSIs {
				got[ix.Name] = ix.Projection
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("projections = %+v\nwant %+v", got, want)
			}
			if tb.BillingMode != designer.Provisioned || tb.ReadUnits == nil || *tb.ReadUnits != 8 || tb.WriteUnits == nil || *tb.WriteUnits != 4 {
				t.Errorf("capacity = %s %v %v", tb.BillingMode, tb.ReadUnits, tb.WriteUnits)
			}
			if got := itemSortKeys(tb); !slices.Equal(got, []string{"TASK#42", "TASK#43", "METADATA", "2026-01-06"}) {
				t.Errorf("items = %v", got)
			}
			task := tb.Items[0].Item
			wantTypes := map[string]designer.Type{"PK": designer.S, "SK": designer.S, "GSI1PK": designer.S, "dueAt": designer.S, "points": designer.N, "done": designer.BOOL, "meta": designer.M, "tags": designer.SS, "sprints": designer.NS, "history": designer.L}
			for name, typ := range wantTypes {
				if task[name].Type != typ {
					t.Errorf("attribute %s has type %q, want %s", name, task[name].Type, typ)
				}
			}
			if got := tb.Items[2].Item["avatar"]; got.Type != designer.B || string(got.B) != "hello" {
				t.Errorf("avatar = %+v, want the base64 decoded", got)
			}
			if tb.Items[1].Item["archivedAt"].Type != designer.NULL {
				t.Errorf("archivedAt = %+v", tb.Items[1].Item["archivedAt"])
			}
			if d.Overview.BusinessContext != "Tasks per team, <assigned> & tracked" {
				t.Errorf("business context = %q", d.Overview.BusinessContext)
			}
			ex := d.Workbench.Tables["Tasks"]
			for _, k := range []string{"SampleDataFormats", "DataAccess", "DeletionProtection", "ProvisionedCapacitySettings"} {
				if _, ok := ex.Members[k]; !ok {
					t.Errorf("table member %s was not kept", k)
				}
			}
			if _, ok := ex.Indexes["TasksByAssignee"]["WarmThroughput"]; !ok {
				t.Errorf("GSI member WarmThroughput was not kept")
			}
			if _, ok := ex.Facets["Task"]["Colour"]; !ok {
				t.Errorf("facet member Colour was not kept")
			}
			if _, ok := ex.Facets["Task"]["NonKeyAttributes"]; !ok {
				t.Errorf("Task lists avatar, which its items lack; its list was not kept")
			}
			if _, ok := ex.Facets["Team"]; ok {
				t.Errorf("Team facet kept %v; its list is what its items hold", ex.Facets["Team"])
			}
			if len(ex.ItemFacets) != 0 {
				t.Errorf("item facets = %v; every item's keys place it", ex.ItemFacets)
			}
			if len(notes) != 0 {
				t.Errorf("notes = %v", notes)
			}
		}},
		{"no-version.json", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			if len(d.Tables) != 2 {
				t.Fatalf("%d tables", len(d.Tables))
			}
			club := mustTable(t, d, "Club")
			if club.SortKey != nil || len(club.Items) != 2 || len(club.EntityTypes) != 0 {
				t.Errorf("Club = %+v", club)
			}
			meeting := mustTable(t, d, "Meeting")
			if len(meeting.Items) != 3 || len(meeting.GSIs) != 1 || meeting.GSIs[0].SortKey[0].Name != "HeldOn" {
				t.Errorf("Meeting = %+v", meeting)
			}
			if !strings.Contains(d.Overview.BusinessContext, "\n2. List the meetings") {
				t.Errorf("business context = %q", d.Overview.BusinessContext)
			}
			if len(notes) != 0 {
				t.Errorf("notes = %v", notes)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data := readFixture(t, tt.file)
			if !Looks(data) {
				t.Error("Looks = false")
			}
			d, notes := mustImport(t, data)
			tt.check(t, d, notes)
		})
	}
}

func mustTable(tb testing.TB, d designer.Design, name string) designer.Table {
	tb.Helper()
	t, _, ok := d.TableByName(name)
	if !ok {
		tb.Fatalf("no table %s", name)
	}
	return t
}

func itemSortKeys(t designer.Table) []string {
	var keys []string
	for _, it := range t.Items {
		keys = append(keys, designer.FormatCell(it.Item[t.SortKey.Name]))
	}
	return keys
}

func TestImport_keptMembersAreWrittenBack(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"v2-dynobase.json", "v3-include.json"} {
		t.Run(file, func(t *testing.T) {
			data := readFixture(t, file)
			d, _ := mustImport(t, data)
			// The kept members must also survive storage as design-json.
			stored, err := designer.ParseJSON(designertest.MustMarshal(t, d))
			if err != nil {
				t.Fatalf("ParseJSON of the imported design: %v", err)
			}
			out := mustExport(t, stored)
			if !bytes.Equal(out, mustExport(t, d)) {
				t.Fatalf("the design read back from design-json exports differently")
			}
			orig, got := jsonDoc(t, data), jsonDoc(t, out)
			same := func(path ...string) {
				t.Helper()
				if a, b := at(t, orig, path...), at(t, got, path...); !reflect.DeepEqual(a, b) {
					t.Errorf("%s = %v, want %v as the model wrote it", strings.Join(path, "/"), b, a)
				}
			}
			for _, m := range []string{"Author", "DateCreated", "DateLastModified", "Description"} {
				same("ModelMetadata", m)
			}
			same("DataModel", "0", "NonKeyAttributes")
			same("DataModel", "0", "GlobalSecondaryIndexes")
			same("DataModel", "0", "DataAccess")
			same("DataModel", "0", "BillingMode")
			switch file {
			case "v2-dynobase.json":
				same("ModelSchema")
			case "v3-include.json":
				same("DataModel", "0", "SampleDataFormats")
				same("DataModel", "0", "ProvisionedCapacitySettings")
				same("DataModel", "0", "DeletionProtection")
				same("DataModel", "0", "TableData")
				for _, f := range []string{"0", "1"} {
					for _, m := range []string{"FacetName", "TableData", "NonKeyAttributes", "DataAccess"} {
						same("DataModel", "0", "TableFacets", f, m)
					}
				}
				same("DataModel", "0", "TableFacets", "0", "Colour")
			}
		})
	}
}

// TestExportImport_roundTripIsAFixedPoint checks export → import → export gives the same bytes,
// and that reading an export needs no notes.
func TestExportImport_roundTripIsAFixedPoint(t *testing.T) {
	t.Parallel()
	designs := map[string]designer.Design{"hr-employees": designertest.HRDesign(t), "library-design.json": libraryDesign(t)}
	for _, file := range []string{"v1-facets.json", "v2-dynobase.json", "v3-include.json", "no-version.json"} {
		designs[file], _ = mustImport(t, readFixture(t, file))
	}
	for name, d := range designs {
		t.Run(name, func(t *testing.T) {
			first := mustExport(t, d)
			back, notes := mustImport(t, first)
			if len(notes) != 0 {
				t.Errorf("reading an export gave notes: %v", notes)
			}
			if second := mustExport(t, back); !bytes.Equal(first, second) {
				t.Fatalf("export → import → export changed the model:\n%s", designertest.FirstDifference(first, second))
			}
		})
	}
}

// tableShape is what a Workbench round trip must keep of a table.
func tableShape(tb testing.TB, t designer.Table) string {
	tb.Helper()
	items := make([]string, len(t.Items))
	for i, it := range t.Items {
		b, err := json.Marshal(it.Item)
		if err != nil {
			tb.Fatal(err)
		}
		items[i] = string(b)
	}
	slices.Sort(items)
	var ixs []string
	for _, ix := range t.GSIs {
		ixs = append(ixs, fmt.Sprintf("%s %v %v %v", ix.Name, ix.PartitionKey, ix.SortKey, ix.Projection))
	}
	units := func(u *int64) string {
		if u == nil {
			return "-"
		}
		return strconv.FormatInt(*u, 10)
	}
	return fmt.Sprintf("%s pk=%v sk=%v billing=%s %s/%s\ngsis=%v\nitems=%v", t.Name, t.PartitionKey, t.SortKey, t.BillingMode,
		units(t.ReadUnits), units(t.WriteUnits), ixs, items)
}

func TestExportImport_importOfExportKeepsTheModel(t *testing.T) {
	t.Parallel()
	for _, d := range []designer.Design{designertest.HRDesign(t), libraryDesign(t)} {
		t.Run(d.Name, func(t *testing.T) {
			back, _ := mustImport(t, mustExport(t, d))
			if back.Name != d.Name || back.Overview.BusinessContext != d.Overview.BusinessContext {
				t.Errorf("name %q / %q, business context %q / %q", back.Name, d.Name, back.Overview.BusinessContext, d.Overview.BusinessContext)
			}
			if len(back.Tables) != len(d.Tables) {
				t.Fatalf("%d tables, want %d", len(back.Tables), len(d.Tables))
			}
			for i, want := range d.Tables {
				got := back.Tables[i]
				if a, b := tableShape(t, want), tableShape(t, got); a != b {
					t.Errorf("table %d changed:\n got %s\nwant %s", i, b, a)
				}
				for _, a := range want.Attributes {
					if g, _, ok := got.AttributeByName(a.Name); !ok || g.Type != a.Type {
						t.Errorf("table %s lost attribute %s (%s)", want.Name, a.Name, a.Type)
					}
				}
				if len(got.EntityTypes) != len(want.EntityTypes) {
					t.Fatalf("table %s has %d entity types, want %d", want.Name, len(got.EntityTypes), len(want.EntityTypes))
				}
				for j, et := range want.EntityTypes {
					g := got.EntityTypes[j]
					if g.PKTemplate != et.PKTemplate || g.SKTemplate != et.SKTemplate || (g.Entity != et.Entity && g.Entity != et.Entity+" 2") {
						t.Errorf("entity type %+v came back as %+v", et, g)
					}
				}
			}
		})
	}
}

func TestImport_notesWhatItLeavesOut(t *testing.T) {
	t.Parallel()
	data := []byte(`{
  "ModelName": "Odd\tmodel",
  "ModelMetadata": {"Version": "4.1", "Description": "bell \u0007 here"},
  "DataModel": [{
    "TableName": "T",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}, "Extra": 1},
    "NonKeyAttributes": [
      {"AttributeName": "a", "AttributeType": "STRINGY"},
      {"AttributeName": "b", "AttributeType": "n"},
      {"AttributeName": "b", "AttributeType": "S"}
    ],
    "GlobalSecondaryIndexes": [
      {"IndexName": "NoKey", "Projection": {"ProjectionType": "ALL"}},
      {"IndexName": "Odd", "KeyAttributes": {"PartitionKey": {"AttributeName": "b", "AttributeType": "N"}}, "Projection": {"ProjectionType": "SOME"}},
      {"IndexName": "Odd", "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}}}
    ],
    "TableData": [{"id": {"S": "1"}, "b": {"N": "x"}}, {"id": {"S": "2"}, "b": {"N": "y"}}],
    "BillingMode": "FREE",
    "ProvisionedCapacitySettings": {"ProvisionedThroughput": {"ReadCapacityUnits": -1, "WriteCapacityUnits": 2}}
  }]
}`)
	d, notes := mustImport(t, data)
	wantNotes := []string{
		`ModelName was shortened or cleaned to "Odd model"`,
		`"4.1"`,
		"Description could not be the overview's business context",
		"KeyAttributes/Extra is not a member",
		`"STRINGY"`,
		"declares attribute b twice",
		"NoKey",
		"GSI Odd of table T has projection type \"SOME\"; ALL was assumed",
		"IndexName: is Odd, the name of an earlier GSI",
		"attribute b was left out of 2 items",
		`billing mode "FREE"`,
		"ReadCapacityUnits of table T is -1",
	}
	all := fmt.Sprint(notes)
	for _, w := range wantNotes {
		if !strings.Contains(all, w) {
			t.Errorf("no note says %q; notes:\n%s", w, all)
		}
	}
	if len(notes) != len(wantNotes) {
		t.Errorf("%d notes, want %d:\n%s", len(notes), len(wantNotes), all)
	}
	if d.Name != "Odd model" {
		t.Errorf("name = %q, want the tab made a space", d.Name)
	}
	tb := d.Tables[0]
	if got := fmt.Sprint(tb.Attributes); got != "[{id S  <nil>} {b N  <nil>}]" {
		t.Errorf("attributes = %s", got)
	}
	if len(tb.GSIs) != 1 || tb.GSIs[0].Name != "Odd" || tb.GSIs[0].Projection.Type != designer.All {
		t.Errorf("GSIs = %+v", tb.GSIs)
	}
	if len(tb.Items) != 2 || len(tb.Items[0].Item) != 1 {
		t.Errorf("items = %+v, want both kept without b", tb.Items)
	}
	if tb.ReadUnits != nil || tb.WriteUnits == nil || *tb.WriteUnits != 2 {
		t.Errorf("units = %v %v", tb.ReadUnits, tb.WriteUnits)
	}
	out := jsonDoc(t, mustExport(t, d))
	if got := at(t, out, "ModelMetadata", "Description"); got != "bell \a here" {
		t.Errorf("Description exported as %q, want it as the model wrote it", got)
	}
}

func TestImport_refusesWhatItCannotRead(t *testing.T) {
	t.Parallel()
	table := func(members string) string {
		return `{"ModelName": "M", "DataModel": [{` + members + `}]}`
	}
	const keys = `"KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}}`
	tests := []struct {
		name, data, field string
	}{
		{"not JSON", `{"ModelName": `, "file"},
		{"an array", `[{"ModelName": "M"}]`, "file"},
		{"null", `null`, "file"},
		{"no Workbench member", `{"name": "M", "tables": []}`, "file"},
		{"name not a string", `{"ModelName": 7}`, "ModelName"},
		{"metadata not an object", `{"ModelName": "M", "ModelMetadata": []}`, "ModelMetadata"},
		{"version not a string", `{"ModelMetadata": {"Version": 3}}`, "ModelMetadata/Version"},
		{"another service", `{"ModelMetadata": {"AWSService": "Amazon Keyspaces", "Version": "3.0"}}`, "ModelMetadata/AWSService"},
		{"tables not an array", `{"ModelName": "M", "DataModel": {}}`, "DataModel"},
		{"table not an object", `{"ModelName": "M", "DataModel": [3]}`, "DataModel/0"},
		{"table without a name", table(keys), "DataModel/0/TableName"},
		{"table name of spaces", table(`"TableName": "  ", ` + keys), "DataModel/0/TableName"},
		{"no key attributes", table(`"TableName": "T"`), "DataModel/0/KeyAttributes"},
		{"no partition key", table(`"TableName": "T", "KeyAttributes": {"SortKey": {"AttributeName": "sk", "AttributeType": "S"}}`), "DataModel/0/KeyAttributes/PartitionKey"},
		{"partition key without a name", table(`"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeType": "S"}}`), "DataModel/0/KeyAttributes/PartitionKey/AttributeName"},
		{"unknown key type", table(`"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "STRING"}}`), "DataModel/0/KeyAttributes/PartitionKey/AttributeType"},
		{"facets not an array", table(`"TableName": "T", ` + keys + `, "TableFacets": {}`), "DataModel/0/TableFacets"},
		{"facet alias not a string", table(`"TableName": "T", ` + keys + `, "TableFacets": [{"FacetName": "F", "KeyAttributeAlias": {"PartitionKeyAlias": 1}}]`), "DataModel/0/TableFacets/0/KeyAttributeAlias/PartitionKeyAlias"},
		{"items not an array", table(`"TableName": "T", ` + keys + `, "TableData": "x"`), "DataModel/0/TableData"},
		{"item not an object", table(`"TableName": "T", ` + keys + `, "TableData": [[]]`), "DataModel/0/TableData/0"},
		{"facet item not an object", table(`"TableName": "T", ` + keys + `, "TableFacets": [{"FacetName": "F", "TableData": [1]}]`), "DataModel/0/TableFacets/0/TableData/0"},
		{"GSIs not an array", table(`"TableName": "T", ` + keys + `, "GlobalSecondaryIndexes": {}`), "DataModel/0/GlobalSecondaryIndexes"},
		{"billing mode not a string", table(`"TableName": "T", ` + keys + `, "BillingMode": true`), "DataModel/0/BillingMode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Import([]byte(tt.data))
			designertest.WantValidationError(t, err, tt.field)
		})
	}
}

func TestTemplate_readsWorkbenchPlaceholders(t *testing.T) {
	t.Parallel()
	tests := []struct{ alias, want string }{
		{"USER#<id>", "USER#{id}"},
		{"TICKET#${ticketId}", "TICKET#{ticketId}"},
		{"A<b>C<d>", "A{b}C{d}"},
		{"{already}", "{already}"},
		{"SubId#SKU", "SubId#SKU"},
		{"<>", "<>"},
		{"${}", "${}"},
		{"a<b", "a<b"},
		{"x<a{b>", "x<a{b>"},
		{"$5 <x", "$5 <x"},
		{"<<id>>", "<{id}>"},
	}
	for _, tt := range tests {
		if got := template(tt.alias); got != tt.want {
			t.Errorf("template(%q) = %q, want %q", tt.alias, got, tt.want)
		}
	}
}

// TestImport_sharedFixtures reads the real Workbench exports under /work/shared when
// they are there; the names and counts were read from the files.
func TestImport_sharedFixtures(t *testing.T) {
	t.Parallel()
	const dir = "/work/shared/fixtures/aws-dynamodb-examples"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("the shared fixtures are not here (" + dir + "); this test reads real Workbench exports when they are")
	}
	tests := []struct {
		file, model, table string
		items              int
		gsis               []string
		facets             []string
		// exact says the export is the file byte for byte, apart from the trailing newline; it is
		// not when an item holds a map, whose members export writes sorted.
		exact bool
	}{
		{"workbench-RecurringPaymentsSchema.json", "Payments System", "ReoccuringPayments", 2, []string{"GSI-1", "GSI-2"}, []string{"Subscription", "Receipts"}, false},
		{"workbench-SessionManagementSchema.json", "Session management step by step", "session_store", 6, []string{"GSI1_inverse"}, nil, true},
		{"workbench-SocialNetworkSchema.json", "FFiitt", "SNS", 17, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !Looks(data) {
				t.Error("Looks = false")
			}
			d, notes, err := Import(data)
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			if len(notes) != 0 {
				t.Errorf("notes = %v", notes)
			}
			if d.Name != tt.model || len(d.Tables) != 1 {
				t.Fatalf("model %q with %d tables", d.Name, len(d.Tables))
			}
			tb := d.Tables[0]
			if tb.Name != tt.table || len(tb.Items) != tt.items {
				t.Errorf("table %s with %d items, want %s with %d", tb.Name, len(tb.Items), tt.table, tt.items)
			}
			var gsis, facets []string
			for _, ix := range tb.GSIs {
				gsis = append(gsis, ix.Name)
			}
			for _, et := range tb.EntityTypes {
				facets = append(facets, et.Entity)
			}
			if !slices.Equal(gsis, tt.gsis) || !slices.Equal(facets, tt.facets) {
				t.Errorf("GSIs %v and facets %v, want %v and %v", gsis, facets, tt.gsis, tt.facets)
			}
			if tb.BillingMode != designer.Provisioned || tb.ReadUnits == nil || *tb.ReadUnits != 5 {
				t.Errorf("capacity = %s %v", tb.BillingMode, tb.ReadUnits)
			}
			out := mustExport(t, d)
			var want, got any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("export is not the model that was read:\n%s", designertest.FirstDifference(data, out))
			}
			if tt.exact && !bytes.Equal(append(bytes.TrimSpace(data), '\n'), out) {
				t.Errorf("export is not the file as Workbench wrote it:\n%s", designertest.FirstDifference(data, out))
			}
		})
	}
	d, _, err := Import(mustReadFile(t, filepath.Join(dir, "workbench-RecurringPaymentsSchema.json")))
	if err != nil {
		t.Fatal(err)
	}
	include := d.Tables[0].GSIs[1].Projection
	if include.Type != designer.Include || !slices.Equal(include.Attributes, []string{"PK", "SK", "Email", "PaymentDay", "PaymentAmount", "SKU", "PaymentDetails"}) {
		t.Errorf("GSI-2 projection = %+v", include)
	}
}

func mustReadFile(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// FuzzImport checks that Import never panics, refuses only with a
// *ValidationError, and that what it accepts passes Check, exports, and reads back.
func FuzzImport(f *testing.F) {
	for _, name := range []string{"v1-facets.json", "v2-dynobase.json", "v3-include.json", "no-version.json"} {
		f.Add(readFixture(f, name))
	}
	for _, seed := range []string{
		`{}`,
		`{"ModelName": ""}`,
		`{"DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "N"}}, "TableData": [{"id": {"N": "1e5"}, "x": {"L": []}}]}]}`,
		`{"DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}, "SortKey": {"AttributeName": "id", "AttributeType": "S"}}, "TableFacets": [{"FacetName": "A", "KeyAttributeAlias": {"PartitionKeyAlias": "<x>"}, "TableData": [{"id": {"S": "a"}}]}, {"FacetName": "A"}]}]}`,
		`{"ModelMetadata": {"Description": "\r\n"}, "DataModel": [null]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, err := Import(data)
		if err != nil {
			var ve *designer.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v (%T) is not a *ValidationError", err, err)
			}
			return
		}
		if err := designer.Check(d); err != nil {
			t.Fatalf("accepted design fails Check: %v", err)
		}
		out, err := Export(d)
		if err != nil {
			t.Fatalf("Export of an accepted design: %v", err)
		}
		if _, _, err := Import(out); err != nil {
			t.Fatalf("Import refused what Export wrote: %v\n%s", err, out)
		}
	})
}

// BenchmarkExport exports 10 tables of 100 items, each with two GSIs.
func BenchmarkExport(b *testing.B) {
	d := designertest.Large(designertest.Size{Tables: 10, Items: 1000, GSIs: 20})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Export(d); err != nil {
			b.Fatal(err)
		}
	}
}

// Renaming a table, an index or an entity keeps what the imported model held of it: renamed
// there and back, the design exports the model it was imported as, capacity settings, kept
// facet members and index members included.
func TestExport_renamesKeepTheModelsExtras(t *testing.T) {
	t.Parallel()
	d, _ := mustImport(t, readFixture(t, "v3-include.json"))
	want := mustExport(t, d)
	there := []designer.Change{
		designer.RenameTable{Table: "Tasks", To: "Work"},
		designer.RenameIndex{Table: "Work", Index: "TasksByAssignee", To: "WorkByAssignee"},
		designer.SetEntityTypeField{Table: "Work", Index: 0, Field: "entity", Value: "Job"},
	}
	back := []designer.Change{
		designer.SetEntityTypeField{Table: "Work", Index: 0, Field: "entity", Value: "Task"},
		designer.RenameIndex{Table: "Work", Index: "WorkByAssignee", To: "TasksByAssignee"},
		designer.RenameTable{Table: "Work", To: "Tasks"},
	}
	renamed := d
	for _, c := range there {
		var err error
		if renamed, err = c.Apply(renamed); err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
	}
	mid := jsonDoc(t, mustExport(t, renamed))
	orig := jsonDoc(t, want)
	for _, m := range []string{"ProvisionedCapacitySettings", "SampleDataFormats", "DeletionProtection"} {
		if a, b := at(t, orig, "DataModel", "0", m), at(t, mid, "DataModel", "0", m); !reflect.DeepEqual(a, b) {
			t.Errorf("after rename_table %s = %v, want %v", m, b, a)
		}
	}
	if a, b := at(t, orig, "DataModel", "0", "TableFacets", "0", "Colour"), at(t, mid, "DataModel", "0", "TableFacets", "0", "Colour"); !reflect.DeepEqual(a, b) {
		t.Errorf("after renaming its entity type the facet's Colour = %v, want %v", b, a)
	}
	for _, c := range back {
		var err error
		if renamed, err = c.Apply(renamed); err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
	}
	if got := mustExport(t, renamed); !bytes.Equal(got, want) {
		t.Fatalf("renamed there and back, the model differs:\n%s", designertest.FirstDifference(want, got))
	}
	if d2, _ := mustImport(t, readFixture(t, "v3-include.json")); !bytes.Equal(mustExport(t, d2), want) {
		t.Fatal("renaming changed the design it was applied to")
	}
}

// What a Workbench model cannot hold is named, and the key attributes it cannot put in an
// index key stay declared.
func TestLeftOut_namesWhatWorkbenchCannotHold(t *testing.T) {
	t.Parallel()
	d := designer.Design{Name: "Games", Tables: []designer.Table{{
		Name: "Scores", BillingMode: designer.OnDemand, TTLAttribute: "expires_at", TableClass: designer.StandardIAClass,
		PartitionKey: designer.KeyAttribute{Name: "player", Type: "S"}, SortKey: &designer.KeyAttribute{Name: "game", Type: "S"},
		GSIs: []designer.Index{{Name: "ByTournament", Projection: designer.Projection{Type: designer.All},
			PartitionKey: []designer.KeyAttribute{{Name: "tournament", Type: "S"}, {Name: "region", Type: "S"}},
			SortKey:      []designer.KeyAttribute{{Name: "score", Type: "N"}, {Name: "round", Type: "N"}, {Name: "at", Type: "S"}}}},
		LSIs: []designer.Index{{Name: "ByDate", Projection: designer.Projection{Type: designer.KeysOnly},
			PartitionKey: []designer.KeyAttribute{{Name: "player", Type: "S"}}, SortKey: []designer.KeyAttribute{{Name: "played_at", Type: "S"}}}},
	}}}
	got := strings.Join(LeftOut(d), "\n")
	for _, want := range []string{"1 local secondary index", "the TTL attribute of 1 table", "the table class of 1 table",
		"GSI ByTournament of table Scores keeps only the first attribute of each key: region, round, at stay declared attributes"} {
		if !strings.Contains(got, want) {
			t.Errorf("LeftOut lacks %q:\n%s", want, got)
		}
	}
	model := jsonDoc(t, mustExport(t, d))
	declared := map[string]bool{}
	for _, a := range at(t, model, "DataModel", "0", "NonKeyAttributes").([]any) {
		declared[a.(map[string]any)["AttributeName"].(string)] = true
	}
	for _, name := range []string{"tournament", "region", "score", "round", "at", "played_at"} {
		if !declared[name] {
			t.Errorf("key attribute %s is not declared in the model", name)
		}
	}
	if n := len(LeftOut(designer.Design{Name: "Empty"})); n != 0 {
		t.Errorf("an empty design leaves out %d things", n)
	}
}
