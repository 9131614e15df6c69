package designer_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func mustOperation(t *testing.T, d designer.Design, id string, i int) designer.Operation {
	t.Helper()
	p := mustPattern(t, d, id)
	if i >= len(p.Mapping.Operations) {
		t.Fatalf("pattern %s has %d operations, want operation %d", id, len(p.Mapping.Operations), i+1)
	}
	return p.Mapping.Operations[i]
}

func TestAddOperation(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "to an outside pattern", Change: designer.AddOperation{Pattern: "ap16", Op: "scan"}, Check: func(t *testing.T, _, after designer.Design) {
			// Four tables: the table is left to choose.
			if got := mustOperation(t, after, "ap16", 0); !reflect.DeepEqual(got, designer.Operation{Op: "Scan"}) {
				t.Errorf("added %+v", got)
			}
		}},
		{Name: "after the others", Change: designer.AddOperation{Pattern: "ap11", Op: "Transact Write Items"}, Check: func(t *testing.T, before, after designer.Design) {
			ops := mustPattern(t, after, "ap11").Mapping.Operations
			if len(ops) != 6 || ops[5].Op != "TransactWriteItems" || !reflect.DeepEqual(ops[:5], mustPattern(t, before, "ap11").Mapping.Operations) {
				t.Errorf("operations = %+v", ops)
			}
		}},
		{Name: "unknown operation", Change: designer.AddOperation{Pattern: "ap1", Op: "Get"}, Field: "op"},
		{Name: "no operation", Change: designer.AddOperation{Pattern: "ap1"}, Field: "op"},
		{Name: "unknown pattern", Change: designer.AddOperation{Pattern: "ap99", Op: "Query"}, Field: "id"},
	})
	_, err := designer.AddOperation{Pattern: "ap1", Op: "Get"}.Apply(designertest.HRDesign(t))
	if err == nil || !strings.Contains(err.Error(), "GetItem, Query, Scan, PutItem") {
		t.Errorf("error = %v, want it to list the operations", err)
	}

	d := designertest.HRDesign(t)
	d.Tables = d.Tables[:1]
	got, err := designer.AddOperation{Pattern: "ap16", Op: "Query"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	if op := mustOperation(t, got, "ap16", 0); op.Table != "Employee" {
		t.Errorf("with one table the operation targets %q, want Employee", op.Table)
	}
}

func TestSetOperationField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		field   string
		value   string
		want    func(designer.Operation) any
		wantVal any
	}{
		{"ap7", "op", "scan", func(o designer.Operation) any { return o.Op }, "Scan"},
		{"ap7", "index", "EmployeesByDepartment", func(o designer.Operation) any { return o.Index }, "EmployeesByDepartment"},
		{"ap7", "index", "", func(o designer.Operation) any { return o.Index }, ""},
		{"ap7", "table", "SalaryHistory", func(o designer.Operation) any { return [2]string{o.Table, o.Index} }, [2]string{"SalaryHistory", ""}},
		{"ap7", "table", "Employee", func(o designer.Operation) any { return o.Index }, "EmployeesByTitle"},
		{"ap7", "key_condition", "#title = :title\n", func(o designer.Operation) any { return o.KeyCondition }, "#title = :title"},
		{"ap7", "filter", "current_salary > :min", func(o designer.Operation) any { return o.Filter }, "current_salary > :min"},
		{"ap7", "projection", "current_salary", func(o designer.Operation) any { return o.Projection }, "current_salary"},
		{"ap7", "limit", "1,000", func(o designer.Operation) any { return *o.Limit }, 1000},
		{"ap3", "limit", "", func(o designer.Operation) any { return o.Limit }, (*int)(nil)},
		{"ap7", "direction", "desc", func(o designer.Operation) any { return o.Descending }, true},
		{"ap9", "direction", "Ascending", func(o designer.Operation) any { return o.Descending }, false},
		{"ap1", "consistent", "yes", func(o designer.Operation) any { return o.Consistent }, true},
		{"ap2", "consistent", "eventual", func(o designer.Operation) any { return o.Consistent }, false},
		{"ap7", "names", "#t=current_title, #s = current_salary", func(o designer.Operation) any { return o.Names },
			map[string]string{"#t": "current_title", "#s": "current_salary"}},
		{"ap7", "names", " ", func(o designer.Operation) any { return o.Names }, map[string]string(nil)},
		{"ap7", "values", `:title=Senior Engineer, :min=50000, :id={"S":"10001"}`, func(o designer.Operation) any { return o.Values },
			map[string]designer.Value{":title": designer.Str("Senior Engineer"), ":min": designer.Num("50000"), ":id": designer.Str("10001")}},
		{"ap7", "notes", "Page through.", func(o designer.Operation) any { return o.Notes }, "Page through."},
	}
	var cases []designertest.ChangeCase
	for _, tt := range tests {
		cases = append(cases, designertest.ChangeCase{Name: tt.field + "=" + tt.value, Change: designer.SetOperationField{Pattern: tt.pattern, Field: tt.field, Value: tt.value},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := tt.want(mustOperation(t, after, tt.pattern, 0)); !reflect.DeepEqual(got, tt.wantVal) {
					t.Errorf("%s = %#v, want %#v", tt.field, got, tt.wantVal)
				}
			}})
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "unknown field", Change: designer.SetOperationField{Pattern: "ap7", Field: "key", Value: "x"}, Field: "field"},
		{Name: "no such operation", Change: designer.SetOperationField{Pattern: "ap7", Index: 1, Field: "notes"}, Field: "index"},
		{Name: "negative index", Change: designer.SetOperationField{Pattern: "ap7", Index: -1, Field: "notes"}, Field: "index"},
		{Name: "outside pattern has no operation", Change: designer.SetOperationField{Pattern: "ap16", Field: "notes"}, Field: "index"},
		{Name: "unknown op", Change: designer.SetOperationField{Pattern: "ap7", Field: "op", Value: "Select"}, Field: "op"},
		{Name: "unknown table", Change: designer.SetOperationField{Pattern: "ap7", Field: "table", Value: "Employees"}, Field: "table"},
		{Name: "no table", Change: designer.SetOperationField{Pattern: "ap7", Field: "table", Value: ""}, Field: "table"},
		{Name: "unknown index", Change: designer.SetOperationField{Pattern: "ap7", Field: "index", Value: "ByTitle"}, Field: "index",
			Err: "its indexes are EmployeesByDepartment, EmployeesByTitle"},
		{Name: "index of a table without indexes", Change: designer.SetOperationField{Pattern: "ap8", Field: "index", Value: "ByDate"}, Field: "index"},
		{Name: "zero limit", Change: designer.SetOperationField{Pattern: "ap7", Field: "limit", Value: "0"}, Field: "limit"},
		{Name: "fractional limit", Change: designer.SetOperationField{Pattern: "ap7", Field: "limit", Value: "2.5"}, Field: "limit"},
		{Name: "bad direction", Change: designer.SetOperationField{Pattern: "ap7", Field: "direction", Value: "sideways"}, Field: "direction"},
		{Name: "bad consistency", Change: designer.SetOperationField{Pattern: "ap7", Field: "consistent", Value: "sometimes"}, Field: "consistent"},
		{Name: "name without =", Change: designer.SetOperationField{Pattern: "ap7", Field: "names", Value: "#t"}, Field: "names"},
		{Name: "name without #", Change: designer.SetOperationField{Pattern: "ap7", Field: "names", Value: "t=title"}, Field: "names"},
		{Name: "name twice", Change: designer.SetOperationField{Pattern: "ap7", Field: "names", Value: "#t=a, #t=b"}, Field: "names"},
		{Name: "name of nothing", Change: designer.SetOperationField{Pattern: "ap7", Field: "names", Value: "#t="}, Field: "names"},
		{Name: "value without :", Change: designer.SetOperationField{Pattern: "ap7", Field: "values", Value: "title=x"}, Field: "values"},
		{Name: "value twice", Change: designer.SetOperationField{Pattern: "ap7", Field: "values", Value: ":a=1, :a=2"}, Field: "values"},
		{Name: "control character", Change: designer.SetOperationField{Pattern: "ap7", Field: "filter", Value: "a\x00"}, Field: "filter"},
	})
}

func TestOperationValues_roundTrip(t *testing.T) {
	t.Parallel()
	values := map[string]designer.Value{
		":s": designer.Str("USER#1"), ":n": designer.Num("5"), ":digits": designer.Str("10001"), ":t": designer.Str("true"), ":b": designer.Boolean(true),
		":empty": designer.Str(""), ":spaced": designer.Str(" x "), ":comma": designer.Str("a, :b=c"), ":ss": {Type: designer.SS, SS: []string{"a", "b"}},
		":m": designer.Map(map[string]designer.Value{"k": designer.Num("1")}), ":null": designer.Null(), ":date": designer.Str("2024-03-04"),
	}
	text := designer.FormatOperationValues(designer.Operation{Values: values})
	got, err := designer.ParseOperationValues(text)
	if err != nil {
		t.Fatalf("ParseOperationValues(%q): %v", text, err)
	}
	for k, v := range values {
		if !got[k].Identical(v) {
			t.Errorf("%s: %q read back as %#v, want %#v", k, text, got[k], v)
		}
	}
	if len(got) != len(values) {
		t.Errorf("read %d values from %q, want %d", len(got), text, len(values))
	}
	if !strings.Contains(text, ":s=USER#1") || !strings.Contains(text, `:digits={"S":"10001"}`) || !strings.Contains(text, ":n=5") {
		t.Errorf("text = %q, want plain cells where they read back, DynamoDB JSON where not", text)
	}
	if got := designer.FormatOperationNames(designer.Operation{Names: map[string]string{"#s": "status", "#n": "name"}}); got != "#n=name, #s=status" {
		t.Errorf("FormatOperationNames = %q", got)
	}
}

func TestParseOperationValues_keepsCommasInsideValues(t *testing.T) {
	t.Parallel()
	got, err := designer.ParseOperationValues(`:tags=["a","b"], :pk = USER#1,:n=5`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]designer.Value{":tags": {Type: designer.SS, SS: []string{"a", "b"}}, ":pk": designer.Str("USER#1"), ":n": designer.Num("5")}
	for k, v := range want {
		if !got[k].Identical(v) {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}
}

func TestDeleteOperation(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "one of several", Change: designer.DeleteOperation{Pattern: "ap11", Index: 1}, Check: func(t *testing.T, before, after designer.Design) {
			was, now := mustPattern(t, before, "ap11").Mapping.Operations, mustPattern(t, after, "ap11").Mapping.Operations
			if len(now) != 4 || now[1].Table != was[2].Table || now[0].KeyCondition != was[0].KeyCondition {
				t.Errorf("operations = %+v", now)
			}
		}},
		{Name: "the only one", Change: designer.DeleteOperation{Pattern: "ap1", Index: 0}, Check: func(t *testing.T, _, after designer.Design) {
			if ops := mustPattern(t, after, "ap1").Mapping.Operations; ops != nil {
				t.Errorf("operations = %+v, want none", ops)
			}
		}},
		{Name: "past the end", Change: designer.DeleteOperation{Pattern: "ap1", Index: 1}, Field: "index"},
	})
}

func TestToggleExpected(t *testing.T) {
	t.Parallel()
	metadata := designer.Item{"dept_no": designer.Str("d005"), "record_key": designer.Str("METADATA")}
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "adds a key, keeping only the key", Change: designer.ToggleExpected{Pattern: "ap5", Key: designer.Item{"dept_no": designer.Str("d005"), "record_key": designer.Str("METADATA"), "headcount": designer.Num("3")}},
			Check: func(t *testing.T, _, after designer.Design) {
				got := *mustOperation(t, after, "ap5", 0).Expected
				want := []designer.Item{{"dept_no": designer.Str("d003"), "record_key": designer.Str("METADATA")}, metadata}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("expected = %v, want %v", got, want)
				}
			}},
		{Name: "removes a key, leaving returns nothing", Change: designer.ToggleExpected{Pattern: "ap1", Key: designer.Item{"emp_no": designer.Num("10001"), "record_key": designer.Str("PROFILE")}},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := mustOperation(t, after, "ap1", 0).Expected; got == nil || len(*got) != 0 {
					t.Errorf("expected = %v, want an empty list", got)
				}
			}},
		{Name: "removes a key written another way", Change: designer.ToggleExpected{Pattern: "ap1", Key: designer.Item{"emp_no": designer.Num("10001.0"), "record_key": designer.Str("PROFILE")}},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := mustOperation(t, after, "ap1", 0).Expected; len(*got) != 0 {
					t.Errorf("expected = %v, want an empty list", got)
				}
			}},
		{Name: "creates the list", Change: designer.ToggleExpected{Pattern: "ap6", Key: designer.Item{"dept_no": designer.Str("d003"), "record_key": designer.Str("METADATA")}},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := mustOperation(t, after, "ap6", 0).Expected; got == nil || len(*got) != 1 {
					t.Errorf("expected = %v, want one key", got)
				}
			}},
		{Name: "key without the sort key", Change: designer.ToggleExpected{Pattern: "ap5", Key: designer.Item{"dept_no": designer.Str("d005")}}, Field: "key"},
		{Name: "no such operation", Change: designer.ToggleExpected{Pattern: "ap16", Key: metadata}, Field: "index"},
	})
}

func TestToggleExpected_queryKeysAreKeptInTheOrderMarked(t *testing.T) {
	t.Parallel()
	// Pattern 9 reads TitleHistory newest first; the keys are marked oldest first.
	d, err := designer.ClearExpected{Pattern: "ap9"}.Apply(designertest.HRDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, date := range []string{"1986-10-20", "1997-01-06"} {
		d, err = designer.ToggleExpected{Pattern: "ap9", Key: designer.Item{"emp_no": designer.Num("10004"), "from_date": designer.Str(date)}}.Apply(d)
		if err != nil {
			t.Fatal(err)
		}
	}
	var dates []string
	for _, k := range *mustOperation(t, d, "ap9", 0).Expected {
		dates = append(dates, k["from_date"].S)
	}
	if !slices.Equal(dates, []string{"1986-10-20", "1997-01-06"}) {
		t.Errorf("expected dates = %q, want the order they were marked in", dates)
	}
}

func TestClearExpected(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "back to not stated", Change: designer.ClearExpected{Pattern: "ap4"}, Check: func(t *testing.T, _, after designer.Design) {
			if got := mustOperation(t, after, "ap4", 0).Expected; got != nil {
				t.Errorf("expected = %v, want nil", got)
			}
		}},
		{Name: "no such operation", Change: designer.ClearExpected{Pattern: "ap4", Index: 3}, Field: "index"},
	})
}

func TestSetMappingNotes(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "set", Change: designer.SetMappingNotes{Pattern: "ap3", Notes: "Page by 50.\n\n"}, Check: func(t *testing.T, _, after designer.Design) {
			if got := mustPattern(t, after, "ap3").Mapping.Notes; got != "Page by 50." {
				t.Errorf("notes = %q", got)
			}
		}},
		{Name: "bad text", Change: designer.SetMappingNotes{Pattern: "ap3", Notes: "\x07"}, Field: "notes"},
		{Name: "unknown pattern", Change: designer.SetMappingNotes{Pattern: "ap0"}, Field: "id"},
	})
}

func TestMappingChanges_describe(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	tests := []struct {
		change designer.Change
		want   string
	}{
		{designer.AddOperation{Pattern: "ap16", Op: "query"}, "Added a Query to pattern 16"},
		{designer.SetOperationField{Pattern: "ap7", Field: "limit", Value: "100"}, "Set the limit of pattern 7's operation 1 to 100"},
		{designer.SetOperationField{Pattern: "ap7", Field: "filter", Value: ""}, "Cleared the filter of pattern 7's operation 1"},
		{designer.SetOperationField{Pattern: "ap7", Field: "notes", Value: "x"}, "Edited the notes of pattern 7's operation 1"},
		{designer.DeleteOperation{Pattern: "ap11", Index: 2}, "Deleted pattern 11's operation 3"},
		{designer.ToggleExpected{Pattern: "ap1", Key: designer.Item{"emp_no": designer.Num("10001"), "record_key": designer.Str("PROFILE")}},
			"Removed emp_no=10001 · record_key=PROFILE from the expected result of pattern 1's operation 1"},
		{designer.ToggleExpected{Pattern: "ap1", Key: designer.Item{"emp_no": designer.Num("10002"), "record_key": designer.Str("PROFILE")}},
			"Added emp_no=10002 · record_key=PROFILE to the expected result of pattern 1's operation 1"},
		{designer.ClearExpected{Pattern: "ap1"}, "Cleared the expected result of pattern 1's operation 1"},
		{designer.SetMappingNotes{Pattern: "ap16", Notes: "Athena"}, "Edited pattern 16's mapping notes"},
	}
	for _, tt := range tests {
		if got := designer.Describe(tt.change, d); got != tt.want {
			t.Errorf("Describe(%T) = %q, want %q", tt.change, got, tt.want)
		}
	}
}

// FuzzOperationValues checks that what ParseOperationValues reads, FormatOperationValues writes back
// so that it reads the same.
func FuzzOperationValues(f *testing.F) {
	for _, s := range []string{`:pk=USER#1, :n=5`, `:id={"S":"10001"}, :tags=["a","b"]`, `:a=, :b= x `, `:m={"k":{"N":"1"}}`, `:s={"S":"a, :b=c"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		values, err := designer.ParseOperationValues(s)
		if err != nil {
			return
		}
		text := designer.FormatOperationValues(designer.Operation{Values: values})
		again, err := designer.ParseOperationValues(text)
		if err != nil {
			t.Fatalf("%q formatted as %q, which does not read back: %v", s, text, err)
		}
		if len(again) != len(values) {
			t.Fatalf("%q formatted as %q reads back %d values, want %d", s, text, len(again), len(values))
		}
		for k, v := range values {
			if !again[k].Identical(v) {
				t.Fatalf("%q formatted as %q reads %s back as %#v, want %#v", s, text, k, again[k], v)
			}
		}
	})
}

func TestSetOperationField_action(t *testing.T) {
	t.Parallel()
	action := func(o designer.Operation) any { return o.Action }
	cases := []designertest.ChangeCase{
		{Name: "unknown action", Change: designer.SetOperationField{Pattern: "ap11", Field: "action", Value: "upsert"}, Field: "action"},
		{Name: "action of a read", Change: designer.SetOperationField{Pattern: "ap7", Field: "action", Value: "put"}, Field: "action"},
	}
	for _, tt := range []struct {
		pattern, value, want string
	}{
		{"ap11", "update", designer.ActionUpdate},
		{"ap11", "Condition Check", designer.ActionConditionCheck},
		{"ap11", "ConditionCheck", designer.ActionConditionCheck},
		{"ap11", " PUT ", designer.ActionPut},
		{"ap11", "delete", designer.ActionDelete},
		{"ap11", "", ""},
	} {
		cases = append(cases, designertest.ChangeCase{Name: tt.value, Change: designer.SetOperationField{Pattern: tt.pattern, Field: "action", Value: tt.value},
			Check: func(t *testing.T, _, after designer.Design) {
				if got := action(mustOperation(t, after, tt.pattern, 0)); got != tt.want {
					t.Errorf("action = %q, want %q", got, tt.want)
				}
			}})
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
	// A BatchWriteItem has no update; the error lists what it takes.
	batch := designertest.ApplyAll(t, designertest.HRDesign(t), designer.SetOperationField{Pattern: "ap11", Field: "op", Value: "BatchWriteItem"})
	designertest.RunChangeCases(t, batch, []designertest.ChangeCase{
		{Name: "update in a batch", Change: designer.SetOperationField{Pattern: "ap11", Field: "action", Value: "update"}, Field: "action", Err: "use put, delete"},
	})
	// Changing the operation clears an action the new one cannot take, and keeps one it can.
	for _, c := range []struct {
		action, op, want string
	}{{"update", "BatchWriteItem", ""}, {"delete", "BatchWriteItem", designer.ActionDelete}, {"put", "Query", ""}} {
		d := designertest.HRDesign(t)
		d, err := designer.SetOperationField{Pattern: "ap11", Field: "action", Value: c.action}.Apply(d)
		if err == nil {
			d, err = designer.SetOperationField{Pattern: "ap11", Field: "op", Value: c.op}.Apply(d)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := mustOperation(t, d, "ap11", 0).Action; got != c.want {
			t.Errorf("%s, then op %s: action = %q, want %q", c.action, c.op, got, c.want)
		}
		if err := designer.Check(d); err != nil {
			t.Errorf("%s, then op %s: Check: %v", c.action, c.op, err)
		}
	}
}
