package designer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSetName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		want      string
		wantField string // non-empty: a *ValidationError for this field is expected
	}{
		{name: "plain", in: "Orders", want: "Orders"},
		{name: "trims spaces and tabs", in: "  \tOrders v2 \t ", want: "Orders v2"},
		{name: "non-ASCII", in: "Bestellungen – Ü", want: "Bestellungen – Ü"},
		{name: "exactly the limit", in: strings.Repeat("é", MaxNameLen), want: strings.Repeat("é", MaxNameLen)},
		{name: "empty", in: "", wantField: "name"},
		{name: "only spaces", in: "   ", wantField: "name"},
		{name: "one over the limit", in: strings.Repeat("a", MaxNameLen+1), wantField: "name"},
		{name: "newline inside", in: "Orders\nv2", wantField: "name"},
		{name: "tab inside", in: "Orders\tv2", wantField: "name"},
		{name: "DEL inside", in: "Orders\x7f", wantField: "name"},
		{name: "invalid UTF-8", in: "Orders \xff", wantField: "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := hrDesign(t)
			before := mustMarshal(t, d)
			got, err := SetName{Name: tt.in}.Apply(d)
			assertUnchanged(t, before, d)
			if tt.wantField != "" {
				wantValidationError(t, err, tt.wantField)
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if got.Name != tt.want {
				t.Errorf("Name = %q, want %q", got.Name, tt.want)
			}
			if err := Check(got); err != nil {
				t.Errorf("Check after SetName: %v", err)
			}
		})
	}
}

func TestSetOverviewField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		field     string
		value     string
		want      string
		wantField string
	}{
		{name: "domain", field: "domain", value: "Payroll", want: "Payroll"},
		{name: "key entities", field: "key_entities", value: "Employee, Department", want: "Employee, Department"},
		{name: "business context", field: "business_context", value: "Line 1\n\tLine 2", want: "Line 1\n\tLine 2"},
		{name: "scale", field: "scale", value: "300k employees, 100 RPS", want: "300k employees, 100 RPS"},
		{name: "notes", field: "notes", value: "<b>not HTML</b> & more", want: "<b>not HTML</b> & more"},
		{name: "CRLF becomes LF and trailing space goes", field: "notes", value: "a\r\nb  \n\n", want: "a\nb"},
		{name: "empty clears the field", field: "domain", value: "", want: ""},
		{name: "exactly the limit", field: "scale", value: strings.Repeat("x", MaxTextLen), want: strings.Repeat("x", MaxTextLen)},
		{name: "unknown field", field: "colour", value: "blue", wantField: "field"},
		{name: "name is not an overview field", field: "name", value: "x", wantField: "field"},
		{name: "too long", field: "domain", value: strings.Repeat("x", MaxTextLen+1), wantField: "overview/domain"},
		{name: "NUL", field: "notes", value: "a\x00b", wantField: "overview/notes"},
		{name: "escape", field: "business_context", value: "red \x1b[31m", wantField: "overview/business_context"},
		{name: "lone CR", field: "scale", value: "a\rb", wantField: "overview/scale"},
		{name: "invalid UTF-8", field: "key_entities", value: "\xc3", wantField: "overview/key_entities"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := hrDesign(t)
			before := mustMarshal(t, d)
			got, err := SetOverviewField{Field: tt.field, Value: tt.value}.Apply(d)
			assertUnchanged(t, before, d)
			if tt.wantField != "" {
				wantValidationError(t, err, tt.wantField)
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if v := got.Overview.Field(tt.field); v != tt.want {
				t.Errorf("overview %s = %q, want %q", tt.field, v, tt.want)
			}
			for _, other := range OverviewFields {
				if other.Key != tt.field && got.Overview.Field(other.Key) != d.Overview.Field(other.Key) {
					t.Errorf("overview %s changed too", other.Key)
				}
			}
		})
	}
}

func TestOverviewFields_allAddressable(t *testing.T) {
	t.Parallel()
	var o Overview
	for _, f := range OverviewFields {
		if err := f.set(&Design{}, &o, f.Key, f.Key); err != nil {
			t.Fatalf("OverviewFields cannot set %q: %v", f.Key, err)
		}
	}
	if o.Domain != "domain" || o.KeyEntities != "key_entities" || o.BusinessContext != "business_context" ||
		o.Scale != "scale" || o.Notes != "notes" {
		t.Errorf("OverviewFields point at the wrong members: %+v", o)
	}
}

func TestReplaceDesign_refusesInvalidDesign(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(*Design)
		field string
	}{
		{name: "bad attribute type", field: "entities/2/attributes/1/type", edit: func(d *Design) {
			d.Entities = clone(d.Entities)
			d.Entities[2].Attributes = clone(d.Entities[2].Attributes)
			d.Entities[2].Attributes[1].Type = "STRING"
		}},
		{name: "bad pattern status", field: "access_patterns/4/status", edit: func(d *Design) {
			d.Patterns = clone(d.Patterns)
			d.Patterns[4].Status = "done"
		}},
		{name: "bad pattern type", field: "access_patterns/0/type", edit: func(d *Design) {
			d.Patterns = clone(d.Patterns)
			d.Patterns[0].Type = "query"
		}},
		{name: "bad operation", field: "access_patterns/1/mapping/operations/0/op", edit: func(d *Design) {
			d.Patterns = clone(d.Patterns)
			d.Patterns[1].Mapping.Operations = clone(d.Patterns[1].Mapping.Operations)
			d.Patterns[1].Mapping.Operations[0].Op = "Get"
		}},
		{name: "negative RPS", field: "access_patterns/3/peak_rps", edit: func(d *Design) {
			d.Patterns = clone(d.Patterns)
			minus := -1.0
			d.Patterns[3].PeakRPS = &minus
		}},
		{name: "bad sort key type", field: "tables/1/sort_key/type", edit: func(d *Design) {
			d.Tables = clone(d.Tables)
			d.Tables[1].SortKey = &KeyAttribute{Name: "from_date", Type: "DATE"}
		}},
		{name: "bad projection", field: "tables/0/gsis/1/projection/type", edit: func(d *Design) {
			d.Tables = clone(d.Tables)
			d.Tables[0].GSIs = clone(d.Tables[0].GSIs)
			d.Tables[0].GSIs[1].Projection.Type = "SOME"
		}},
		{name: "percentage over 100", field: "aggregates/0/correlation_pct", edit: func(d *Design) {
			d.Aggregates = clone(d.Aggregates)
			pct := 140.0
			d.Aggregates[0].CorrelationPct = &pct
		}},
		{name: "empty name", field: "name", edit: func(d *Design) { d.Name = " " }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			current := hrDesign(t)
			before := mustMarshal(t, current)
			replacement := hrDesign(t)
			tt.edit(&replacement)
			_, err := ReplaceDesign{Design: replacement}.Apply(current)
			wantValidationError(t, err, tt.field)
			assertUnchanged(t, before, current)
		})
	}
}

func TestReplaceDesign_normalizes(t *testing.T) {
	t.Parallel()
	got, err := ReplaceDesign{Design: Design{Name: "Orders", Tables: []Table{{
		Name:         "Orders",
		PartitionKey: KeyAttribute{Name: "order_id", Type: S},
		GSIs:         []Index{{Name: "ByCustomer", PartitionKey: []KeyAttribute{{Name: "customer_id", Type: S}}}},
	}}}}.Apply(hrDesign(t))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got.Format != Format || got.Tables[0].BillingMode != OnDemand || got.Tables[0].GSIs[0].Projection.Type != All {
		t.Errorf("defaults not filled: format %q, billing %q, projection %q",
			got.Format, got.Tables[0].BillingMode, got.Tables[0].GSIs[0].Projection.Type)
	}
	if got.Entities == nil || got.Patterns == nil {
		t.Errorf("lists left nil")
	}
}

func TestChange_roundTrip(t *testing.T) {
	t.Parallel()
	changes := []Change{
		SetName{Name: "Payroll ✓"},
		SetOverviewField{Field: "business_context", Value: "line one\nline <two> & three"},
		ReplaceDesign{Design: hrDesign(t), Note: "Restored revision 4"},
		ReplaceDesign{Design: Design{Name: "Bare"}},
		PatchDesign{Ops: []PatchOp{{Op: "replace", Path: "/name", Value: json.RawMessage(`"Payroll"`)}, {Op: "remove", Path: "/access_patterns/0"}}},
		UndoChange{Before: hrDesign(t), Revision: 5, Undone: "Set pattern 4's peak RPS to 500", Touched: []string{"access_patterns/ap4"}},

		AddEntity{Name: "Office"},
		RenameEntity{Entity: "Employee", To: "Staff member"},
		SetEntityDescription{Entity: "Department", Description: "A unit <of> the company\nsecond line"},
		DeleteEntity{Entity: "TitleRecord"},
		MoveEntity{Entity: "Department", To: 3},
		SetEntityGap{Entity: "Department", Gap: GapNoRead, Accepted: true},
		AddAttribute{Entity: "Department", Name: "budget", Type: N},
		RenameAttribute{Entity: "Department", Attribute: "dept_name", To: "name"},
		SetAttributeType{Entity: "Department", Attribute: "dept_no", Type: N},
		DeleteAttribute{Entity: "Department", Attribute: "locations"},
		MoveAttribute{Entity: "Department", Attribute: "locations", To: 0},
		AddRelationship{From: "Employee", To: "Department", RelationshipKind: "one-to-many"},
		SetRelationshipField{ID: "r2", Field: "max_count", Value: "1,200"},
		DeleteRelationship{ID: "r3"},
		AddPattern{After: "ap3", Type: "Read", Description: "List offices", Entities: []string{"Department"}},
		AddPattern{},
		SetPatternField{ID: "ap4", Field: "peak_rps", Value: "500 RPS"},
		DeletePattern{ID: "ap2"},
		MovePattern{ID: "ap16", To: 0},
		RenumberPatterns{},
		AddAggregate{EntityA: "Department", EntityB: "Employee"},
		SetAggregateField{ID: "ag1", Field: "decision", Value: "Item Collection"},
		DeleteAggregate{ID: "ag2"},
		AddConsolidation{Parent: "Employee", Child: "TitleRecord"},
		SetConsolidationField{ID: "c1", Field: "overlap_pct", Value: "45%"},
		DeleteConsolidation{ID: "c3"},
		SetConsideration{Field: "hot_partitions", Value: "Development holds 30 % of employees."},

		AddTable{Name: "Offices", PartitionKey: "office_id", PartitionKeyType: "N"},
		RenameTable{Table: "Employee", To: "Staff"},
		SetTableField{Table: "Employee", Field: "billing_mode", Value: "provisioned"},
		SetTableKey{Table: "SalaryHistory", Which: "sort", Name: "valid_from"},
		DeleteTable{Table: "TitleHistory"},
		MoveTable{Table: "Department", To: 0},
		AddTableAttribute{Table: "Department", Name: "budget", Type: N},
		RenameTableAttribute{Table: "Employee", Attribute: "dept_no", To: "department_no"},
		SetTableAttributeType{Table: "Department", Attribute: "headcount", Type: S},
		DeleteTableAttribute{Table: "SalaryHistory", Attribute: "change_reason"},
		SetAttributeGenerator{Table: "SalaryHistory", Attribute: "change_reason", Generator: &Generator{Kind: "one_of", Values: []string{"hire", "raise"}}},
		AddEntityType{Table: "Department", Entity: "Budget", PKTemplate: "{dept_no}", SKTemplate: "BUDGET#{year}"},
		SetEntityTypeField{Table: "Department", Index: 1, Field: "sk_template", Value: "MGR#{from_date}"},
		DeleteEntityType{Table: "Employee", Index: 1},
		AddIndex{Table: "SalaryHistory", Name: "BySalary", PartitionKey: []KeyAttribute{{Name: "salary", Type: N}}},
		RenameIndex{Table: "Employee", Index: "EmployeesByTitle", To: "ByTitle"},
		SetIndexKey{Table: "Employee", Index: "EmployeesByTitle", PartitionKey: []KeyAttribute{{Name: "current_title"}}, SortKey: []KeyAttribute{{Name: "hire_date"}}},
		SetIndexProjection{Table: "Employee", Index: "EmployeesByTitle", Type: "INCLUDE", Attributes: []string{"first_name"}},
		SetIndexField{Table: "Employee", Index: "EmployeesByTitle", Field: "sparse", Value: "yes"},
		SetIndexPatternAttributes{Table: "Employee", Index: "EmployeesByTitle", Pattern: 7, Attributes: []string{"current_salary", "first_name"}},
		SetIndexPatternList{Table: "Employee", Index: "EmployeesByTitle", Text: "7: current_salary, first_name"},
		DeleteIndex{Table: "Employee", Index: "EmployeesByDepartment"},
		AddItem{Table: "TitleHistory", Item: Item{"emp_no": Num("10009"), "from_date": Str("2001-01-01")}, After: "t10001a"},
		DuplicateItem{Table: "TitleHistory", ID: "t10001a"},
		DeleteItems{Table: "TitleHistory", IDs: []string{"t10001a", "t10001b"}},
		SetItemCell{Table: "SalaryHistory", ID: "s10001a", Attribute: "salary", Text: "19.99"},
		PasteItems{Table: "TitleHistory", Text: "emp_no\tfrom_date\ttitle\n10042\t2020-01-01\tEngineer\n", After: "t10001a"},
		AddItemColumn{Table: "TitleHistory", Attribute: "grade", Type: N},
		FillKeyFromTemplate{Table: "Department", ID: "d005m1"},
		GenerateSampleItems{Table: "TitleHistory", Count: 3, Seed: 42},
		AddOperation{Pattern: "ap16", Op: "Scan"},
		SetOperationField{Pattern: "ap3", Index: 0, Field: "values", Value: `:dept=d005, :n={"S":"5"}`},
		DeleteOperation{Pattern: "ap11", Index: 4},
		ToggleExpected{Pattern: "ap4", Index: 0, Key: Item{"dept_no": Str("d005"), "record_key": Str("METADATA")}},
		ClearExpected{Pattern: "ap1", Index: 0},
		SetMappingNotes{Pattern: "ap16", Notes: "Athena over the S3 export."},
		AddComment{Target: "tables/Employee/indexes/EmployeesByTitle", Body: "Is <this> sparse?", Author: "Ada", At: "2025-03-01T09:30:00+01:00"},
		ResolveComment{ID: "cm1", Target: "access_patterns/ap4", Resolved: true},
		DeleteComment{ID: "cm1", Target: "access_patterns/ap4"},
	}
	seen := map[string]bool{}
	for i, c := range changes {
		t.Run(fmt.Sprintf("%d_%s", i, c.Kind()), func(t *testing.T) {
			data, err := MarshalChange(c)
			if err != nil {
				t.Fatalf("MarshalChange: %v", err)
			}
			got, err := UnmarshalChange(data)
			if err != nil {
				t.Fatalf("UnmarshalChange(%s): %v", data, err)
			}
			if reflect.TypeOf(got) != reflect.TypeOf(c) {
				t.Fatalf("decoded %T, want %T", got, c)
			}
			again, err := MarshalChange(got)
			if err != nil {
				t.Fatalf("MarshalChange again: %v", err)
			}
			if string(again) != string(data) {
				t.Errorf("re-encoded change differs:\n%s\n%s", data, again)
			}
			if got.Summary() != c.Summary() || !reflect.DeepEqual(got.Paths(), c.Paths()) {
				t.Errorf("summary or paths changed: %q %v", got.Summary(), got.Paths())
			}
			// Applying the decoded change must give the same design as applying the original.
			base := hrDesign(t)
			want, errWant := c.Apply(base)
			have, errHave := got.Apply(base)
			if (errWant == nil) != (errHave == nil) {
				t.Fatalf("Apply errors differ: %v vs %v", errWant, errHave)
			}
			if errWant == nil && string(mustMarshal(t, want)) != string(mustMarshal(t, have)) {
				t.Errorf("decoded change applies differently")
			}
		})
		seen[c.Kind()] = true
	}
	for kind := range changeKinds {
		if !seen[kind] {
			t.Errorf("change kind %q has no round-trip case", kind)
		}
	}
}

func TestUnmarshalChange_refuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		``,
		`[]`,
		`{"kind":"set_colour","change":{}}`,
		`{"kind":"set_name","change":"Orders"}`,
		`{"kind":"set_name"}`,
	} {
		if c, err := UnmarshalChange([]byte(in)); err == nil {
			t.Errorf("UnmarshalChange(%s) = %#v, want an error", in, c)
		}
	}
}

func TestChange_kindsAreStable(t *testing.T) {
	t.Parallel()
	// Kinds are stored in history; renaming one would orphan every stored change of that kind.
	want := map[string]Change{
		"set_name":                SetName{},
		"set_overview_field":      SetOverviewField{},
		"replace_design":          ReplaceDesign{},
		"patch_design":            PatchDesign{},
		"undo_change":             UndoChange{},
		"add_entity":              AddEntity{},
		"rename_entity":           RenameEntity{},
		"set_entity_description":  SetEntityDescription{},
		"delete_entity":           DeleteEntity{},
		"move_entity":             MoveEntity{},
		"set_entity_gap":          SetEntityGap{},
		"add_attribute":           AddAttribute{},
		"rename_attribute":        RenameAttribute{},
		"set_attribute_type":      SetAttributeType{},
		"delete_attribute":        DeleteAttribute{},
		"move_attribute":          MoveAttribute{},
		"add_relationship":        AddRelationship{},
		"set_relationship_field":  SetRelationshipField{},
		"delete_relationship":     DeleteRelationship{},
		"add_pattern":             AddPattern{},
		"set_pattern_field":       SetPatternField{},
		"delete_pattern":          DeletePattern{},
		"move_pattern":            MovePattern{},
		"renumber_patterns":       RenumberPatterns{},
		"add_aggregate":           AddAggregate{},
		"set_aggregate_field":     SetAggregateField{},
		"delete_aggregate":        DeleteAggregate{},
		"add_consolidation":       AddConsolidation{},
		"set_consolidation_field": SetConsolidationField{},
		"delete_consolidation":    DeleteConsolidation{},
		"set_consideration":       SetConsideration{},

		"add_table":                    AddTable{},
		"rename_table":                 RenameTable{},
		"set_table_field":              SetTableField{},
		"set_table_key":                SetTableKey{},
		"delete_table":                 DeleteTable{},
		"move_table":                   MoveTable{},
		"add_table_attribute":          AddTableAttribute{},
		"rename_table_attribute":       RenameTableAttribute{},
		"set_table_attribute_type":     SetTableAttributeType{},
		"delete_table_attribute":       DeleteTableAttribute{},
		"set_attribute_generator":      SetAttributeGenerator{},
		"add_entity_type":              AddEntityType{},
		"set_entity_type_field":        SetEntityTypeField{},
		"delete_entity_type":           DeleteEntityType{},
		"add_index":                    AddIndex{},
		"rename_index":                 RenameIndex{},
		"set_index_key":                SetIndexKey{},
		"set_index_projection":         SetIndexProjection{},
		"set_index_field":              SetIndexField{},
		"set_index_pattern_attributes": SetIndexPatternAttributes{},
		"set_index_pattern_list":       SetIndexPatternList{},
		"delete_index":                 DeleteIndex{},
		"add_item":                     AddItem{},
		"duplicate_item":               DuplicateItem{},
		"delete_items":                 DeleteItems{},
		"set_item_cell":                SetItemCell{},
		"paste_items":                  PasteItems{},
		"add_item_column":              AddItemColumn{},
		"fill_key_from_template":       FillKeyFromTemplate{},
		"generate_items":               GenerateSampleItems{},
		"add_operation":                AddOperation{},
		"set_operation_field":          SetOperationField{},
		"delete_operation":             DeleteOperation{},
		"toggle_expected":              ToggleExpected{},
		"clear_expected":               ClearExpected{},
		"set_mapping_notes":            SetMappingNotes{},
		"add_comment":                  AddComment{},
		"resolve_comment":              ResolveComment{},
		"delete_comment":               DeleteComment{},
	}
	if len(want) != len(changeKinds) {
		t.Errorf("%d kinds registered, %d pinned here; pin every new kind", len(changeKinds), len(want))
	}
	for kind, c := range want {
		if c.Kind() != kind {
			t.Errorf("%T.Kind() = %q, want %q", c, c.Kind(), kind)
		}
		if _, ok := changeKinds[kind]; !ok {
			t.Errorf("kind %q is not registered in changeKinds", kind)
		}
	}
}

func clone[T any](s []T) []T { return append([]T(nil), s...) }

func BenchmarkApplySetOverviewField(b *testing.B) {
	d := hrDesign(b)
	c := SetOverviewField{Field: "scale", Value: "About 320,000 employees and 120 requests per second at peak."}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Apply(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplySetName(b *testing.B) {
	d := hrDesign(b)
	c := SetName{Name: "  HR employees (2025 review)  "}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Apply(d); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseChange_readsTheEnvelopeTheHistoryStores(t *testing.T) {
	t.Parallel()
	want := SetItemCell{Table: "Orders", ID: "i7", Attribute: "status", Text: "SHIPPED"}
	stored, err := MarshalChange(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseChange(stored)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseChange(%s) = %#v, %v; want %#v", stored, got, err, want)
	}
	if got, err := ParseChange([]byte(`{"kind": "renumber_patterns", "change": {}}`)); err != nil || got != (RenumberPatterns{}) {
		t.Fatalf("a change without members: %#v, %v", got, err)
	}
}

// A script's mistake is named by the member at fault, never read as nothing.
func TestParseChange_refusalsNameTheMember(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, field string }{
		{``, "body"},
		{`{"kind": "set_name", "change": {"name": "x"}`, "body"},
		{`[]`, "body"},
		{`{"change": {"name": "Orders"}}`, "kind"},
		{`{"kind": "set_colour", "change": {}}`, "kind"},
		{`{"kind": 7, "change": {}}`, "kind"},
		{`{"kind": "set_name"}`, "change"},
		{`{"kind": "set_name", "change": null}`, "change"},
		{`{"kind": "set_name", "change": "Orders"}`, "change"},
		{`{"kind": "set_name", "change": {"nmae": "Orders"}}`, "change/nmae"},
		{`{"kind": "set_item_cell", "change": {"table": "Orders", "id": "i7", "attribute": "status", "text": 5}}`, "change/text"},
		{`{"kind": "move_entity", "change": {"entity": "Order", "to": "first"}}`, "change/to"},
		{`{"kind": "set_name", "change": {"name": "Orders"}, "author": "Mallory"}`, "author"},
		{`{"kind": "set_name", "change": {"name": "Orders"}} {}`, "body"},
	} {
		c, err := ParseChange([]byte(tc.in))
		if err == nil {
			t.Errorf("ParseChange(%s) = %#v, want a refusal of %s", tc.in, c, tc.field)
			continue
		}
		wantValidationError(t, err, tc.field)
	}
}

func TestChangeKinds_listsEveryRegisteredKindOnce(t *testing.T) {
	t.Parallel()
	kinds := ChangeKinds()
	if len(kinds) != len(changeKinds) || !slices.IsSorted(kinds) {
		t.Fatalf("ChangeKinds() = %v: want the %d registered kinds, sorted", kinds, len(changeKinds))
	}
	for _, k := range kinds {
		if changeKinds[k] == nil {
			t.Errorf("ChangeKinds() lists %q, which is not registered", k)
		}
	}
}
