package designer

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func mustOperation(t *testing.T, d Design, id string, i int) Operation {
	t.Helper()
	p := mustPattern(t, d, id)
	if i >= len(p.Mapping.Operations) {
		t.Fatalf("pattern %s has %d operations, want operation %d", id, len(p.Mapping.Operations), i+1)
	}
	return p.Mapping.Operations[i]
}

func TestAddOperation(t *testing.T) {
	t.Parallel()
	runChangeCases(t, []changeCase{
		{name: "to an outside pattern", change: AddOperation{Pattern: "ap16", Op: "scan"}, check: func(t *testing.T, _, after Design) {
			// Four tables: the table is left to choose.
			if got := mustOperation(t, after, "ap16", 0); !reflect.DeepEqual(got, Operation{Op: "Scan"}) {
				t.Errorf("added %+v", got)
			}
		}},
		{name: "after the others", change: AddOperation{Pattern: "ap11", Op: "Transact Write Items"}, check: func(t *testing.T, before, after Design) {
			ops := mustPattern(t, after, "ap11").Mapping.Operations
			if len(ops) != 6 || ops[5].Op != "TransactWriteItems" || !reflect.DeepEqual(ops[:5], mustPattern(t, before, "ap11").Mapping.Operations) {
				t.Errorf("operations = %+v", ops)
			}
		}},
		{name: "unknown operation", change: AddOperation{Pattern: "ap1", Op: "Get"}, field: "op"},
		{name: "no operation", change: AddOperation{Pattern: "ap1"}, field: "op"},
		{name: "unknown pattern", change: AddOperation{Pattern: "ap99", Op: "Query"}, field: "id"},
	})
	_, err := AddOperation{Pattern: "ap1", Op: "Get"}.Apply(hrDesign(t))
	if err == nil || !strings.Contains(err.Error(), "GetItem, Query, Scan, PutItem") {
		t.Errorf("error = %v, want it to list the operations", err)
	}

	d := hrDesign(t)
	d.Tables = d.Tables[:1]
	got, err := AddOperation{Pattern: "ap16", Op: "Query"}.Apply(d)
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
		want    func(Operation) any
		wantVal any
	}{
		{"ap7", "op", "scan", func(o Operation) any { return o.Op }, "Scan"},
		{"ap7", "index", "EmployeesByDepartment", func(o Operation) any { return o.Index }, "EmployeesByDepartment"},
		{"ap7", "index", "", func(o Operation) any { return o.Index }, ""},
		{"ap7", "table", "SalaryHistory", func(o Operation) any { return [2]string{o.Table, o.Index} }, [2]string{"SalaryHistory", ""}},
		{"ap7", "table", "Employee", func(o Operation) any { return o.Index }, "EmployeesByTitle"},
		{"ap7", "key_condition", "#title = :title\n", func(o Operation) any { return o.KeyCondition }, "#title = :title"},
		{"ap7", "filter", "current_salary > :min", func(o Operation) any { return o.Filter }, "current_salary > :min"},
		{"ap7", "projection", "current_salary", func(o Operation) any { return o.Projection }, "current_salary"},
		{"ap7", "limit", "1,000", func(o Operation) any { return *o.Limit }, 1000},
		{"ap3", "limit", "", func(o Operation) any { return o.Limit }, (*int)(nil)},
		{"ap7", "direction", "desc", func(o Operation) any { return o.Descending }, true},
		{"ap9", "direction", "Ascending", func(o Operation) any { return o.Descending }, false},
		{"ap1", "consistent", "yes", func(o Operation) any { return o.Consistent }, true},
		{"ap2", "consistent", "eventual", func(o Operation) any { return o.Consistent }, false},
		{"ap7", "names", "#t=current_title, #s = current_salary", func(o Operation) any { return o.Names },
			map[string]string{"#t": "current_title", "#s": "current_salary"}},
		{"ap7", "names", " ", func(o Operation) any { return o.Names }, map[string]string(nil)},
		{"ap7", "values", `:title=Senior Engineer, :min=50000, :id={"S":"10001"}`, func(o Operation) any { return o.Values },
			map[string]Value{":title": Str("Senior Engineer"), ":min": Num("50000"), ":id": Str("10001")}},
		{"ap7", "notes", "Page through.", func(o Operation) any { return o.Notes }, "Page through."},
	}
	for _, tt := range tests {
		t.Run(tt.field+"="+tt.value, func(t *testing.T) {
			runChangeCases(t, []changeCase{{name: "set", change: SetOperationField{Pattern: tt.pattern, Field: tt.field, Value: tt.value},
				check: func(t *testing.T, _, after Design) {
					if got := tt.want(mustOperation(t, after, tt.pattern, 0)); !reflect.DeepEqual(got, tt.wantVal) {
						t.Errorf("%s = %#v, want %#v", tt.field, got, tt.wantVal)
					}
				}}})
		})
	}
	runChangeCases(t, []changeCase{
		{name: "unknown field", change: SetOperationField{Pattern: "ap7", Field: "key", Value: "x"}, field: "field"},
		{name: "no such operation", change: SetOperationField{Pattern: "ap7", Index: 1, Field: "notes"}, field: "index"},
		{name: "negative index", change: SetOperationField{Pattern: "ap7", Index: -1, Field: "notes"}, field: "index"},
		{name: "outside pattern has no operation", change: SetOperationField{Pattern: "ap16", Field: "notes"}, field: "index"},
		{name: "unknown op", change: SetOperationField{Pattern: "ap7", Field: "op", Value: "Select"}, field: "op"},
		{name: "unknown table", change: SetOperationField{Pattern: "ap7", Field: "table", Value: "Employees"}, field: "table"},
		{name: "no table", change: SetOperationField{Pattern: "ap7", Field: "table", Value: ""}, field: "table"},
		{name: "unknown index", change: SetOperationField{Pattern: "ap7", Field: "index", Value: "ByTitle"}, field: "index"},
		{name: "index of a table without indexes", change: SetOperationField{Pattern: "ap8", Field: "index", Value: "ByDate"}, field: "index"},
		{name: "zero limit", change: SetOperationField{Pattern: "ap7", Field: "limit", Value: "0"}, field: "limit"},
		{name: "fractional limit", change: SetOperationField{Pattern: "ap7", Field: "limit", Value: "2.5"}, field: "limit"},
		{name: "bad direction", change: SetOperationField{Pattern: "ap7", Field: "direction", Value: "sideways"}, field: "direction"},
		{name: "bad consistency", change: SetOperationField{Pattern: "ap7", Field: "consistent", Value: "sometimes"}, field: "consistent"},
		{name: "name without =", change: SetOperationField{Pattern: "ap7", Field: "names", Value: "#t"}, field: "names"},
		{name: "name without #", change: SetOperationField{Pattern: "ap7", Field: "names", Value: "t=title"}, field: "names"},
		{name: "name twice", change: SetOperationField{Pattern: "ap7", Field: "names", Value: "#t=a, #t=b"}, field: "names"},
		{name: "name of nothing", change: SetOperationField{Pattern: "ap7", Field: "names", Value: "#t="}, field: "names"},
		{name: "value without :", change: SetOperationField{Pattern: "ap7", Field: "values", Value: "title=x"}, field: "values"},
		{name: "value twice", change: SetOperationField{Pattern: "ap7", Field: "values", Value: ":a=1, :a=2"}, field: "values"},
		{name: "control character", change: SetOperationField{Pattern: "ap7", Field: "filter", Value: "a\x00"}, field: "filter"},
	})
	_, err := SetOperationField{Pattern: "ap7", Field: "index", Value: "ByTitle"}.Apply(hrDesign(t))
	if err == nil || !strings.Contains(err.Error(), "its indexes are EmployeesByDepartment, EmployeesByTitle") {
		t.Errorf("error = %v, want it to list the indexes", err)
	}
}

func TestOperationValues_roundTrip(t *testing.T) {
	t.Parallel()
	values := map[string]Value{
		":s": Str("USER#1"), ":n": Num("5"), ":digits": Str("10001"), ":t": Str("true"), ":b": Boolean(true),
		":empty": Str(""), ":spaced": Str(" x "), ":comma": Str("a, :b=c"), ":ss": {Type: SS, SS: []string{"a", "b"}},
		":m": Map(map[string]Value{"k": Num("1")}), ":null": Null(), ":date": Str("2024-03-04"),
	}
	text := FormatOperationValues(Operation{Values: values})
	got, err := ParseOperationValues(text)
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
	if got := FormatOperationNames(Operation{Names: map[string]string{"#s": "status", "#n": "name"}}); got != "#n=name, #s=status" {
		t.Errorf("FormatOperationNames = %q", got)
	}
}

func TestParseOperationValues_keepsCommasInsideValues(t *testing.T) {
	t.Parallel()
	got, err := ParseOperationValues(`:tags=["a","b"], :pk = USER#1,:n=5`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Value{":tags": {Type: SS, SS: []string{"a", "b"}}, ":pk": Str("USER#1"), ":n": Num("5")}
	for k, v := range want {
		if !got[k].Identical(v) {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}
}

func TestDeleteOperation(t *testing.T) {
	t.Parallel()
	runChangeCases(t, []changeCase{
		{name: "one of several", change: DeleteOperation{Pattern: "ap11", Index: 1}, check: func(t *testing.T, before, after Design) {
			was, now := mustPattern(t, before, "ap11").Mapping.Operations, mustPattern(t, after, "ap11").Mapping.Operations
			if len(now) != 4 || now[1].Table != was[2].Table || now[0].KeyCondition != was[0].KeyCondition {
				t.Errorf("operations = %+v", now)
			}
		}},
		{name: "the only one", change: DeleteOperation{Pattern: "ap1", Index: 0}, check: func(t *testing.T, _, after Design) {
			if ops := mustPattern(t, after, "ap1").Mapping.Operations; ops != nil {
				t.Errorf("operations = %+v, want none", ops)
			}
		}},
		{name: "past the end", change: DeleteOperation{Pattern: "ap1", Index: 1}, field: "index"},
	})
}

func TestToggleExpected(t *testing.T) {
	t.Parallel()
	metadata := Item{"dept_no": Str("d005"), "record_key": Str("METADATA")}
	runChangeCases(t, []changeCase{
		{name: "adds a key, keeping only the key", change: ToggleExpected{Pattern: "ap5", Key: Item{"dept_no": Str("d005"), "record_key": Str("METADATA"), "headcount": Num("3")}},
			check: func(t *testing.T, _, after Design) {
				got := *mustOperation(t, after, "ap5", 0).Expected
				want := []Item{{"dept_no": Str("d003"), "record_key": Str("METADATA")}, metadata}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("expected = %v, want %v", got, want)
				}
			}},
		{name: "removes a key, leaving returns nothing", change: ToggleExpected{Pattern: "ap1", Key: Item{"emp_no": Num("10001"), "record_key": Str("PROFILE")}},
			check: func(t *testing.T, _, after Design) {
				if got := mustOperation(t, after, "ap1", 0).Expected; got == nil || len(*got) != 0 {
					t.Errorf("expected = %v, want an empty list", got)
				}
			}},
		{name: "removes a key written another way", change: ToggleExpected{Pattern: "ap1", Key: Item{"emp_no": Num("10001.0"), "record_key": Str("PROFILE")}},
			check: func(t *testing.T, _, after Design) {
				if got := mustOperation(t, after, "ap1", 0).Expected; len(*got) != 0 {
					t.Errorf("expected = %v, want an empty list", got)
				}
			}},
		{name: "creates the list", change: ToggleExpected{Pattern: "ap6", Key: Item{"dept_no": Str("d003"), "record_key": Str("METADATA")}},
			check: func(t *testing.T, _, after Design) {
				if got := mustOperation(t, after, "ap6", 0).Expected; got == nil || len(*got) != 1 {
					t.Errorf("expected = %v, want one key", got)
				}
			}},
		{name: "key without the sort key", change: ToggleExpected{Pattern: "ap5", Key: Item{"dept_no": Str("d005")}}, field: "key"},
		{name: "no such operation", change: ToggleExpected{Pattern: "ap16", Key: metadata}, field: "index"},
	})
}

func TestToggleExpected_queryKeysAreKeptInTheOrderMarked(t *testing.T) {
	t.Parallel()
	// Pattern 9 reads TitleHistory newest first; the keys are marked oldest first.
	d, err := ClearExpected{Pattern: "ap9"}.Apply(hrDesign(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, date := range []string{"1986-10-20", "1997-01-06"} {
		d, err = ToggleExpected{Pattern: "ap9", Key: Item{"emp_no": Num("10004"), "from_date": Str(date)}}.Apply(d)
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
	runChangeCases(t, []changeCase{
		{name: "back to not stated", change: ClearExpected{Pattern: "ap4"}, check: func(t *testing.T, _, after Design) {
			if got := mustOperation(t, after, "ap4", 0).Expected; got != nil {
				t.Errorf("expected = %v, want nil", got)
			}
		}},
		{name: "no such operation", change: ClearExpected{Pattern: "ap4", Index: 3}, field: "index"},
	})
}

func TestSetMappingNotes(t *testing.T) {
	t.Parallel()
	runChangeCases(t, []changeCase{
		{name: "set", change: SetMappingNotes{Pattern: "ap3", Notes: "Page by 50.\n\n"}, check: func(t *testing.T, _, after Design) {
			if got := mustPattern(t, after, "ap3").Mapping.Notes; got != "Page by 50." {
				t.Errorf("notes = %q", got)
			}
		}},
		{name: "bad text", change: SetMappingNotes{Pattern: "ap3", Notes: "\x07"}, field: "notes"},
		{name: "unknown pattern", change: SetMappingNotes{Pattern: "ap0"}, field: "id"},
	})
}

func TestMappingChanges_describe(t *testing.T) {
	t.Parallel()
	d := hrDesign(t)
	tests := []struct {
		change Change
		want   string
	}{
		{AddOperation{Pattern: "ap16", Op: "query"}, "Added a Query to pattern 16"},
		{SetOperationField{Pattern: "ap7", Field: "limit", Value: "100"}, "Set the limit of pattern 7's operation 1 to 100"},
		{SetOperationField{Pattern: "ap7", Field: "filter", Value: ""}, "Cleared the filter of pattern 7's operation 1"},
		{SetOperationField{Pattern: "ap7", Field: "notes", Value: "x"}, "Edited the notes of pattern 7's operation 1"},
		{DeleteOperation{Pattern: "ap11", Index: 2}, "Deleted pattern 11's operation 3"},
		{ToggleExpected{Pattern: "ap1", Key: Item{"emp_no": Num("10001"), "record_key": Str("PROFILE")}},
			"Removed emp_no=10001 · record_key=PROFILE from the expected result of pattern 1's operation 1"},
		{ToggleExpected{Pattern: "ap1", Key: Item{"emp_no": Num("10002"), "record_key": Str("PROFILE")}},
			"Added emp_no=10002 · record_key=PROFILE to the expected result of pattern 1's operation 1"},
		{ClearExpected{Pattern: "ap1"}, "Cleared the expected result of pattern 1's operation 1"},
		{SetMappingNotes{Pattern: "ap16", Notes: "Athena"}, "Edited pattern 16's mapping notes"},
	}
	for _, tt := range tests {
		if got := Describe(tt.change, d); got != tt.want {
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
		values, err := ParseOperationValues(s)
		if err != nil {
			return
		}
		text := FormatOperationValues(Operation{Values: values})
		again, err := ParseOperationValues(text)
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
	action := func(o Operation) any { return o.Action }
	for _, tt := range []struct {
		pattern, value, want string
	}{
		{"ap11", "update", ActionUpdate},
		{"ap11", "Condition Check", ActionConditionCheck},
		{"ap11", "ConditionCheck", ActionConditionCheck},
		{"ap11", " PUT ", ActionPut},
		{"ap11", "delete", ActionDelete},
		{"ap11", "", ""},
	} {
		t.Run(tt.value, func(t *testing.T) {
			runChangeCases(t, []changeCase{{name: "set", change: SetOperationField{Pattern: tt.pattern, Field: "action", Value: tt.value},
				check: func(t *testing.T, _, after Design) {
					if got := action(mustOperation(t, after, tt.pattern, 0)); got != tt.want {
						t.Errorf("action = %q, want %q", got, tt.want)
					}
				}}})
		})
	}
	runChangeCases(t, []changeCase{
		{name: "unknown action", change: SetOperationField{Pattern: "ap11", Field: "action", Value: "upsert"}, field: "action"},
		{name: "action of a read", change: SetOperationField{Pattern: "ap7", Field: "action", Value: "put"}, field: "action"},
	})
	// A BatchWriteItem has no update; the error lists what it takes.
	d := hrDesign(t)
	d, err := SetOperationField{Pattern: "ap11", Field: "op", Value: "BatchWriteItem"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	_, err = SetOperationField{Pattern: "ap11", Field: "action", Value: "update"}.Apply(d)
	wantValidationError(t, err, "action")
	if err == nil || !strings.Contains(err.Error(), "use put, delete") {
		t.Errorf("error = %v, want it to list put, delete", err)
	}
	// Changing the operation clears an action the new one cannot take, and keeps one it can.
	for _, c := range []struct {
		action, op, want string
	}{{"update", "BatchWriteItem", ""}, {"delete", "BatchWriteItem", ActionDelete}, {"put", "Query", ""}} {
		d := hrDesign(t)
		d, err := SetOperationField{Pattern: "ap11", Field: "action", Value: c.action}.Apply(d)
		if err == nil {
			d, err = SetOperationField{Pattern: "ap11", Field: "op", Value: c.op}.Apply(d)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := mustOperation(t, d, "ap11", 0).Action; got != c.want {
			t.Errorf("%s, then op %s: action = %q, want %q", c.action, c.op, got, c.want)
		}
		if err := Check(d); err != nil {
			t.Errorf("%s, then op %s: Check: %v", c.action, c.op, err)
		}
	}
}
