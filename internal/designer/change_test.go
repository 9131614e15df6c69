package designer_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
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
		{name: "exactly the limit", in: strings.Repeat("é", designer.MaxNameLen), want: strings.Repeat("é", designer.MaxNameLen)},
		{name: "empty", in: "", wantField: "name"},
		{name: "only spaces", in: "   ", wantField: "name"},
		{name: "one over the limit", in: strings.Repeat("a", designer.MaxNameLen+1), wantField: "name"},
		{name: "newline inside", in: "Orders\nv2", wantField: "name"},
		{name: "tab inside", in: "Orders\tv2", wantField: "name"},
		{name: "DEL inside", in: "Orders\x7f", wantField: "name"},
		{name: "invalid UTF-8", in: "Orders \xff", wantField: "name"},
	}
	var cases []designertest.ChangeCase
	for _, tt := range tests {
		cases = append(cases, designertest.ChangeCase{Name: tt.name, Change: designer.SetName{Name: tt.in}, Field: tt.wantField,
			Check: func(t *testing.T, _, after designer.Design) {
				if after.Name != tt.want {
					t.Errorf("Name = %q, want %q", after.Name, tt.want)
				}
			}})
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
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
		{name: "exactly the limit", field: "scale", value: strings.Repeat("x", designer.MaxTextLen), want: strings.Repeat("x", designer.MaxTextLen)},
		{name: "unknown field", field: "colour", value: "blue", wantField: "field"},
		{name: "name is not an overview field", field: "name", value: "x", wantField: "field"},
		{name: "too long", field: "domain", value: strings.Repeat("x", designer.MaxTextLen+1), wantField: "overview/domain"},
		{name: "NUL", field: "notes", value: "a\x00b", wantField: "overview/notes"},
		{name: "escape", field: "business_context", value: "red \x1b[31m", wantField: "overview/business_context"},
		{name: "lone CR", field: "scale", value: "a\rb", wantField: "overview/scale"},
		{name: "invalid UTF-8", field: "key_entities", value: "\xc3", wantField: "overview/key_entities"},
	}
	var cases []designertest.ChangeCase
	for _, tt := range tests {
		cases = append(cases, designertest.ChangeCase{Name: tt.name, Change: designer.SetOverviewField{Field: tt.field, Value: tt.value}, Field: tt.wantField,
			Check: func(t *testing.T, before, after designer.Design) {
				if v := after.Overview.Field(tt.field); v != tt.want {
					t.Errorf("overview %s = %q, want %q", tt.field, v, tt.want)
				}
				for _, other := range designer.OverviewFields {
					if other.Key != tt.field && after.Overview.Field(other.Key) != before.Overview.Field(other.Key) {
						t.Errorf("overview %s changed too", other.Key)
					}
				}
			}})
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
}

func TestReplaceDesign_refusesInvalidDesign(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(*designer.Design)
		field string
	}{
		{name: "bad attribute type", field: "entities/2/attributes/1/type", edit: func(d *designer.Design) {
			d.Entities = clone(d.Entities)
			d.Entities[2].Attributes = clone(d.Entities[2].Attributes)
			d.Entities[2].Attributes[1].Type = "STRING"
		}},
		{name: "bad pattern status", field: "access_patterns/4/status", edit: func(d *designer.Design) {
			d.Patterns = clone(d.Patterns)
			d.Patterns[4].Status = "done"
		}},
		{name: "bad pattern type", field: "access_patterns/0/type", edit: func(d *designer.Design) {
			d.Patterns = clone(d.Patterns)
			d.Patterns[0].Type = "query"
		}},
		{name: "bad operation", field: "access_patterns/1/mapping/operations/0/op", edit: func(d *designer.Design) {
			d.Patterns = clone(d.Patterns)
			d.Patterns[1].Mapping.Operations = clone(d.Patterns[1].Mapping.Operations)
			d.Patterns[1].Mapping.Operations[0].Op = "Get"
		}},
		{name: "negative RPS", field: "access_patterns/3/peak_rps", edit: func(d *designer.Design) {
			d.Patterns = clone(d.Patterns)
			minus := -1.0
			d.Patterns[3].PeakRPS = &minus
		}},
		{name: "bad sort key type", field: "tables/1/sort_key/type", edit: func(d *designer.Design) {
			d.Tables = clone(d.Tables)
			d.Tables[1].SortKey = &designer.KeyAttribute{Name: "from_date", Type: "DATE"}
		}},
		{name: "bad projection", field: "tables/0/gsis/1/projection/type", edit: func(d *designer.Design) {
			d.Tables = clone(d.Tables)
			d.Tables[0].GSIs = clone(d.Tables[0].GSIs)
			d.Tables[0].GSIs[1].Projection.Type = "SOME"
		}},
		{name: "percentage over 100", field: "aggregates/0/correlation_pct", edit: func(d *designer.Design) {
			d.Aggregates = clone(d.Aggregates)
			pct := 140.0
			d.Aggregates[0].CorrelationPct = &pct
		}},
		{name: "empty name", field: "name", edit: func(d *designer.Design) { d.Name = " " }},
	}
	var cases []designertest.ChangeCase
	for _, tt := range tests {
		replacement := designertest.HRDesign(t)
		tt.edit(&replacement)
		cases = append(cases, designertest.ChangeCase{Name: tt.name, Change: designer.ReplaceDesign{Design: replacement}, Field: tt.field})
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
}

func TestReplaceDesign_normalizes(t *testing.T) {
	t.Parallel()
	got, err := designer.ReplaceDesign{Design: designer.Design{Name: "Orders", Tables: []designer.Table{{
		Name:         "Orders",
		PartitionKey: designer.KeyAttribute{Name: "order_id", Type: designer.S},
		GSIs:         []designer.Index{{Name: "ByCustomer", PartitionKey: []designer.KeyAttribute{{Name: "customer_id", Type: designer.S}}}},
	}}}}.Apply(designertest.HRDesign(t))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got.Format != designer.Format || got.Tables[0].BillingMode != designer.OnDemand || got.Tables[0].GSIs[0].Projection.Type != designer.All {
		t.Errorf("defaults not filled: format %q, billing %q, projection %q",
			got.Format, got.Tables[0].BillingMode, got.Tables[0].GSIs[0].Projection.Type)
	}
	if got.Entities == nil || got.Patterns == nil {
		t.Errorf("lists left nil")
	}
}

func TestChange_roundTrip(t *testing.T) {
	t.Parallel()
	changes := []designer.Change{
		designer.SetName{Name: "Payroll ✓"},
		designer.SetOverviewField{Field: "business_context", Value: "line one\nline <two> & three"},
		designer.SetCapacityField{Field: "target_utilization", Value: "55 %"},
		designer.ReplaceDesign{Design: designertest.HRDesign(t), Note: "Restored revision 4"},
		designer.ReplaceDesign{Design: designer.Design{Name: "Bare"}},
		designer.PatchDesign{Ops: []designer.PatchOp{{Op: "replace", Path: "/name", Value: json.RawMessage(`"Payroll"`)}, {Op: "remove", Path: "/access_patterns/0"}}},
		designer.UndoChange{Before: designertest.HRDesign(t), Revision: 5, Undone: "Set pattern 4's peak RPS to 500", Touched: []designer.Path{"access_patterns/ap4"}},

		designer.AddEntity{Name: "Office"},
		designer.RenameEntity{Entity: "Employee", To: "Staff member"},
		designer.SetEntityDescription{Entity: "Department", Description: "A unit <of> the company\nsecond line"},
		designer.SetEntityField{Entity: "Department", Field: "count", Value: "1,200"},
		designer.DeleteEntity{Entity: "TitleRecord"},
		designer.MoveEntity{Entity: "Department", To: 3},
		designer.SetEntityGap{Entity: "Department", Gap: designer.GapNoRead, Accepted: true},
		designer.AddAttribute{Entity: "Department", Name: "budget", Type: designer.N},
		designer.RenameAttribute{Entity: "Department", Attribute: "dept_name", To: "name"},
		designer.SetAttributeType{Entity: "Department", Attribute: "dept_no", Type: designer.N},
		designer.DeleteAttribute{Entity: "Department", Attribute: "locations"},
		designer.MoveAttribute{Entity: "Department", Attribute: "locations", To: 0},
		designer.AddRelationship{From: "Employee", To: "Department", RelationshipKind: "one-to-many"},
		designer.SetRelationshipField{ID: "r2", Field: "max_count", Value: "1,200"},
		designer.DeleteRelationship{ID: "r3"},
		designer.AddPattern{After: "ap3", Type: "Read", Description: "List offices", Entities: []string{"Department"}},
		designer.AddPattern{},
		designer.SetPatternField{ID: "ap4", Field: "peak_rps", Value: "500 RPS"},
		designer.DeletePattern{ID: "ap2"},
		designer.MovePattern{ID: "ap16", To: 0},
		designer.RenumberPatterns{},
		designer.AddAggregate{EntityA: "Department", EntityB: "Employee", Fill: map[string]string{"correlation_pct": "40"}},
		designer.FillAggregates{Pairs: []designer.AddAggregate{{EntityA: "Department", EntityB: "Employee", Fill: map[string]string{"bounded": "yes"}}}, Replace: true},
		designer.SetAggregateField{ID: "ag1", Field: "decision", Value: "Item Collection"},
		designer.DeleteAggregate{ID: "ag2"},
		designer.AddConsolidation{Parent: "Employee", Child: "TitleRecord"},
		designer.SetConsolidationField{ID: "c1", Field: "overlap_pct", Value: "45%"},
		designer.DeleteConsolidation{ID: "c3"},
		designer.SetConsideration{Field: "hot_partitions", Value: "Development holds 30 % of employees."},
		designer.SetProse{Field: "trade_offs", Value: "Salary history is kept apart: it is read by HR alone."},

		designer.AddTable{Name: "Offices", PartitionKey: "office_id", PartitionKeyType: "N"},
		designer.RenameTable{Table: "Employee", To: "Staff"},
		designer.SetTableField{Table: "Employee", Field: "billing_mode", Value: "provisioned"},
		designer.SetTableKey{Table: "SalaryHistory", Which: "sort", Name: "valid_from"},
		designer.DeleteTable{Table: "TitleHistory"},
		designer.MoveTable{Table: "Department", To: 0},
		designer.AddTableAttribute{Table: "Department", Name: "budget", Type: designer.N},
		designer.RenameTableAttribute{Table: "Employee", Attribute: "dept_no", To: "department_no"},
		designer.SetTableAttributeType{Table: "Department", Attribute: "headcount", Type: designer.S},
		designer.DeleteTableAttribute{Table: "SalaryHistory", Attribute: "change_reason"},
		designer.SetAttributeGenerator{Table: "SalaryHistory", Attribute: "change_reason", Generator: &designer.Generator{Kind: "one_of", Values: []string{"hire", "raise"}}},
		designer.AddEntityType{Table: "Department", Entity: "Budget", PKTemplate: "{dept_no}", SKTemplate: "BUDGET#{year}"},
		designer.SetEntityTypeField{Table: "Department", Index: 1, Field: "sk_template", Value: "MGR#{from_date}"},
		designer.DeleteEntityType{Table: "Employee", Index: 1},
		designer.AddIndex{Table: "SalaryHistory", Name: "BySalary", PartitionKey: []designer.KeyAttribute{{Name: "salary", Type: designer.N}}},
		designer.RenameIndex{Table: "Employee", Index: "EmployeesByTitle", To: "ByTitle"},
		designer.SetIndexKey{Table: "Employee", Index: "EmployeesByTitle", PartitionKey: []designer.KeyAttribute{{Name: "current_title"}}, SortKey: []designer.KeyAttribute{{Name: "hire_date"}}},
		designer.SetIndexProjection{Table: "Employee", Index: "EmployeesByTitle", Type: "INCLUDE", Attributes: []string{"first_name"}},
		designer.SetIndexField{Table: "Employee", Index: "EmployeesByTitle", Field: "sparse", Value: "yes"},
		designer.SetIndexPatternAttributes{Table: "Employee", Index: "EmployeesByTitle", Pattern: 7, Attributes: []string{"current_salary", "first_name"}},
		designer.SetIndexPatternList{Table: "Employee", Index: "EmployeesByTitle", Text: "7: current_salary, first_name"},
		designer.DeleteIndex{Table: "Employee", Index: "EmployeesByDepartment"},
		designer.AddItem{Table: "TitleHistory", Item: designer.Item{"emp_no": designer.Num("10009"), "from_date": designer.Str("2001-01-01")}, After: "t10001a"},
		designer.DuplicateItem{Table: "TitleHistory", ID: "t10001a"},
		designer.DeleteItems{Table: "TitleHistory", IDs: []string{"t10001a", "t10001b"}},
		designer.SetItemCell{Table: "SalaryHistory", ID: "s10001a", Attribute: "salary", Text: "19.99"},
		designer.PasteItems{Table: "TitleHistory", Text: "emp_no\tfrom_date\ttitle\n10042\t2020-01-01\tEngineer\n", After: "t10001a"},
		designer.AddItemColumn{Table: "TitleHistory", Attribute: "grade", Type: designer.N},
		designer.FillKeyFromTemplate{Table: "Department", ID: "d005m1"},
		designer.GenerateSampleItems{Table: "TitleHistory", Count: 3, Seed: 42},
		designer.AddOperation{Pattern: "ap16", Op: "Scan"},
		designer.SetOperationField{Pattern: "ap3", Index: 0, Field: "values", Value: `:dept=d005, :n={"S":"5"}`},
		designer.SetOperationKey{Pattern: "ap12", Index: 0, Attribute: "from_date", Text: "2002-12-01"},
		designer.AddUpdateClause{Pattern: "ap12", Index: 0, Action: "REMOVE", Attribute: "change_reason"},
		designer.AddConditionClause{Pattern: "ap12", Index: 0, Function: "attribute_exists", Attribute: "emp_no"},
		designer.DeleteOperation{Pattern: "ap11", Index: 4},
		designer.ToggleExpected{Pattern: "ap4", Index: 0, Key: designer.Item{"dept_no": designer.Str("d005"), "record_key": designer.Str("METADATA")}},
		designer.ClearExpected{Pattern: "ap1", Index: 0},
		designer.SetMappingNotes{Pattern: "ap16", Notes: "Athena over the S3 export."},
		designer.AddComment{Target: "tables/Employee/indexes/EmployeesByTitle", Body: "Is <this> sparse?", Author: "Ada", At: "2025-03-01T09:30:00+01:00"},
		designer.ResolveComment{ID: "cm1", Target: "access_patterns/ap4", Resolved: true},
		designer.DeleteComment{ID: "cm1", Target: "access_patterns/ap4"},
		designer.AddInBulk{Entities: []designer.BulkEntity{{Name: "Office", Attributes: []designer.BulkAttribute{{Name: "office_id", Type: designer.S}}}},
			Relationships: []map[string]string{{"from": "Office", "to": "Employee", "kind": "1:M"}},
			Patterns:      []map[string]string{{"description": "List an office's staff", "type": "read", "peak_rps": "20"}}},
		designer.ScaffoldAggregate{Aggregate: "ag1", Tables: []designer.ScaffoldTable{{Name: "Office", PartitionKey: designer.KeyAttribute{Name: "office_id", Type: designer.S},
			EntityTypes: []designer.EntityType{{Entity: "Office", PKTemplate: "{office_id}"}}, Attributes: []designer.Attribute{{Name: "city", Type: designer.S}}}}},
		designer.AddTableAttributes{Table: "Department", Attributes: []designer.BulkAttribute{{Name: "budget", Type: designer.N}, {Name: "floor"}}},
		designer.MoveDiagramNode{Diagram: designer.EntityDiagram, Node: "entity:Employee", X: 120.5, Y: -40},
		designer.ResetDiagramLayout{Diagram: designer.ModelMap},
	}
	seen := map[string]bool{}
	for i, c := range changes {
		t.Run(fmt.Sprintf("%d_%s", i, c.Kind()), func(t *testing.T) {
			data, err := designer.MarshalChange(c)
			if err != nil {
				t.Fatalf("MarshalChange: %v", err)
			}
			got, err := designer.UnmarshalChange(data)
			if err != nil {
				t.Fatalf("UnmarshalChange(%s): %v", data, err)
			}
			if reflect.TypeOf(got) != reflect.TypeOf(c) {
				t.Fatalf("decoded %T, want %T", got, c)
			}
			again, err := designer.MarshalChange(got)
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
			base := designertest.HRDesign(t)
			want, errWant := c.Apply(base)
			have, errHave := got.Apply(base)
			if (errWant == nil) != (errHave == nil) {
				t.Fatalf("Apply errors differ: %v vs %v", errWant, errHave)
			}
			if errWant == nil && string(designertest.MustMarshal(t, want)) != string(designertest.MustMarshal(t, have)) {
				t.Errorf("decoded change applies differently")
			}
		})
		seen[c.Kind()] = true
	}
	for kind := range designer.ChangeRegistry {
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
		if c, err := designer.UnmarshalChange([]byte(in)); err == nil {
			t.Errorf("UnmarshalChange(%s) = %#v, want an error", in, c)
		}
	}
}

func TestChange_kindsAreStable(t *testing.T) {
	t.Parallel()
	// Kinds are stored in history; renaming one would orphan every stored change of that kind.
	// These are the kinds of the first stored histories; docs/changes.md, whose sections a server
	// test matches to the registry, pins every kind since, so a new kind needs no line here.
	want := map[string]designer.Change{
		"set_name":                designer.SetName{},
		"set_overview_field":      designer.SetOverviewField{},
		"set_capacity_field":      designer.SetCapacityField{},
		"set_entity_field":        designer.SetEntityField{},
		"replace_design":          designer.ReplaceDesign{},
		"patch_design":            designer.PatchDesign{},
		"undo_change":             designer.UndoChange{},
		"move_diagram_node":       designer.MoveDiagramNode{},
		"reset_diagram_layout":    designer.ResetDiagramLayout{},
		"add_entity":              designer.AddEntity{},
		"rename_entity":           designer.RenameEntity{},
		"set_entity_description":  designer.SetEntityDescription{},
		"delete_entity":           designer.DeleteEntity{},
		"move_entity":             designer.MoveEntity{},
		"set_entity_gap":          designer.SetEntityGap{},
		"add_attribute":           designer.AddAttribute{},
		"rename_attribute":        designer.RenameAttribute{},
		"set_attribute_type":      designer.SetAttributeType{},
		"delete_attribute":        designer.DeleteAttribute{},
		"move_attribute":          designer.MoveAttribute{},
		"add_relationship":        designer.AddRelationship{},
		"set_relationship_field":  designer.SetRelationshipField{},
		"delete_relationship":     designer.DeleteRelationship{},
		"add_pattern":             designer.AddPattern{},
		"set_pattern_field":       designer.SetPatternField{},
		"delete_pattern":          designer.DeletePattern{},
		"move_pattern":            designer.MovePattern{},
		"renumber_patterns":       designer.RenumberPatterns{},
		"add_aggregate":           designer.AddAggregate{},
		"set_aggregate_field":     designer.SetAggregateField{},
		"delete_aggregate":        designer.DeleteAggregate{},
		"add_consolidation":       designer.AddConsolidation{},
		"set_consolidation_field": designer.SetConsolidationField{},
		"delete_consolidation":    designer.DeleteConsolidation{},
		"set_consideration":       designer.SetConsideration{},
		"set_prose":               designer.SetProse{},

		"add_table":                    designer.AddTable{},
		"rename_table":                 designer.RenameTable{},
		"set_table_field":              designer.SetTableField{},
		"set_table_key":                designer.SetTableKey{},
		"delete_table":                 designer.DeleteTable{},
		"move_table":                   designer.MoveTable{},
		"add_table_attribute":          designer.AddTableAttribute{},
		"rename_table_attribute":       designer.RenameTableAttribute{},
		"set_table_attribute_type":     designer.SetTableAttributeType{},
		"delete_table_attribute":       designer.DeleteTableAttribute{},
		"set_attribute_generator":      designer.SetAttributeGenerator{},
		"add_entity_type":              designer.AddEntityType{},
		"set_entity_type_field":        designer.SetEntityTypeField{},
		"delete_entity_type":           designer.DeleteEntityType{},
		"add_index":                    designer.AddIndex{},
		"rename_index":                 designer.RenameIndex{},
		"set_index_key":                designer.SetIndexKey{},
		"set_index_projection":         designer.SetIndexProjection{},
		"set_index_field":              designer.SetIndexField{},
		"set_index_pattern_attributes": designer.SetIndexPatternAttributes{},
		"set_index_pattern_list":       designer.SetIndexPatternList{},
		"delete_index":                 designer.DeleteIndex{},
		"add_item":                     designer.AddItem{},
		"duplicate_item":               designer.DuplicateItem{},
		"delete_items":                 designer.DeleteItems{},
		"set_item_cell":                designer.SetItemCell{},
		"paste_items":                  designer.PasteItems{},
		"add_item_column":              designer.AddItemColumn{},
		"fill_key_from_template":       designer.FillKeyFromTemplate{},
		"generate_items":               designer.GenerateSampleItems{},
		"add_operation":                designer.AddOperation{},
		"set_operation_field":          designer.SetOperationField{},
		"set_operation_key":            designer.SetOperationKey{},
		"add_update_clause":            designer.AddUpdateClause{},
		"add_condition_clause":         designer.AddConditionClause{},
		"delete_operation":             designer.DeleteOperation{},
		"toggle_expected":              designer.ToggleExpected{},
		"clear_expected":               designer.ClearExpected{},
		"set_mapping_notes":            designer.SetMappingNotes{},
		"add_comment":                  designer.AddComment{},
		"resolve_comment":              designer.ResolveComment{},
		"delete_comment":               designer.DeleteComment{},
		"add_in_bulk":                  designer.AddInBulk{},
		"scaffold_aggregate":           designer.ScaffoldAggregate{},
		"add_table_attributes":         designer.AddTableAttributes{},
	}
	for kind, c := range want {
		if c.Kind() != kind {
			t.Errorf("%T.Kind() = %q, want %q", c, c.Kind(), kind)
		}
		if _, ok := designer.ChangeRegistry[kind]; !ok {
			t.Errorf("kind %q is not registered in changeKinds", kind)
		}
	}
}

func clone[T any](s []T) []T { return append([]T(nil), s...) }

func BenchmarkApplySetOverviewField(b *testing.B) {
	d := designertest.HRDesign(b)
	c := designer.SetOverviewField{Field: "scale", Value: "About 320,000 employees and 120 requests per second at peak."}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Apply(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplySetName(b *testing.B) {
	d := designertest.HRDesign(b)
	c := designer.SetName{Name: "  HR employees (2025 review)  "}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Apply(d); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseChange_readsTheEnvelopeTheHistoryStores(t *testing.T) {
	t.Parallel()
	want := designer.SetItemCell{Table: "Orders", ID: "i7", Attribute: "status", Text: "SHIPPED"}
	stored, err := designer.MarshalChange(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := designer.ParseChange(stored)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("designer.ParseChange(%s) = %#v, %v; want %#v", stored, got, err, want)
	}
	if got, err := designer.ParseChange([]byte(`{"kind": "renumber_patterns", "change": {}}`)); err != nil || got != (designer.RenumberPatterns{}) {
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
		c, err := designer.ParseChange([]byte(tc.in))
		if err == nil {
			t.Errorf("designer.ParseChange(%s) = %#v, want a refusal of %s", tc.in, c, tc.field)
			continue
		}
		designertest.WantValidationError(t, err, tc.field)
	}
}

func TestChangeKinds_listsEveryRegisteredKindOnce(t *testing.T) {
	t.Parallel()
	kinds := designer.ChangeKinds()
	if len(kinds) != len(designer.ChangeRegistry) || !slices.IsSorted(kinds) {
		t.Fatalf("ChangeKinds() = %v: want the %d registered kinds, sorted", kinds, len(designer.ChangeRegistry))
	}
	for _, k := range kinds {
		if designer.ChangeRegistry[k] == nil {
			t.Errorf("ChangeKinds() lists %q, which is not registered", k)
		}
	}
}
