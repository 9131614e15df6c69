package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// findingsOf keeps the findings of one code.
func findingsOf(fs []Finding, code string) []Finding {
	return slices.DeleteFunc(slices.Clone(fs), func(f Finding) bool { return f.Code != code })
}

// opOf returns operation i of the pattern numbered n for editing, copying what it touches so that
// the example loaded by other tests is not shared.
func opOf(d *designer.Design, n, i int) *designer.Operation {
	d.Patterns = slices.Clone(d.Patterns)
	p := &d.Patterns[n-1]
	p.Mapping.Operations = slices.Clone(p.Mapping.Operations)
	return &p.Mapping.Operations[i]
}

func editTable(d *designer.Design, name string) *designer.Table {
	d.Tables = slices.Clone(d.Tables)
	for i := range d.Tables {
		if d.Tables[i].Name == name {
			return &d.Tables[i]
		}
	}
	panic("no table " + name)
}

func TestValidate_mappingRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		code   string
		edit   func(d *designer.Design)
		want   []string // findings of the case's code, as "CODE severity path"
		inText string   // a phrase the first finding's message must contain
	}{
		// MAP001
		{name: "MAP001 fires for a pattern without operations", code: "MAP001",
			edit: func(d *designer.Design) { opOf(d, 1, 0); d.Patterns[0].Mapping.Operations = nil },
			want: []string{"MAP001 error access_patterns/1/mapping"}, inText: `Pattern 1 "Open an employee's profile from the intranet directory" has no operation`},
		{name: "MAP001 spares a pattern served outside DynamoDB", code: "MAP001",
			edit: func(d *designer.Design) {
				opOf(d, 1, 0)
				d.Patterns[0].Mapping.Operations, d.Patterns[0].Status = nil, designer.StatusOutside
			}},
		{name: "MAP001 waits for the first table", code: "MAP001",
			edit: func(d *designer.Design) { opOf(d, 1, 0); d.Patterns[0].Mapping.Operations, d.Tables = nil, nil }},

		// MAP013
		{name: "MAP013 fires once for patterns with no table", code: "MAP013",
			edit: func(d *designer.Design) { d.Tables = nil },
			want: []string{"MAP013 warning tables"}, inText: "access patterns and no table yet: nothing serves them"},
		{name: "MAP013 spares a design with a table", code: "MAP013"},
		{name: "MAP013 spares patterns all served outside DynamoDB", code: "MAP013",
			edit: func(d *designer.Design) {
				d.Tables = nil
				d.Patterns = slices.Clone(d.Patterns)
				for i := range d.Patterns {
					d.Patterns[i].Status = designer.StatusOutside
				}
			}},

		// MAP002
		{name: "MAP002 fires for a GetItem without the sort key", code: "MAP002",
			edit: func(d *designer.Design) { opOf(d, 1, 0).KeyCondition = "emp_no = :emp_no" },
			want: []string{"MAP002 error access_patterns/1/mapping/operations/0/key_condition"}, inText: "does not give record_key of Employee's primary key (emp_no, record_key)"},
		{name: "MAP002 fires for a GetItem on an index", code: "MAP002",
			edit: func(d *designer.Design) { opOf(d, 1, 0).Index = "EmployeesByTitle" },
			want: []string{"MAP002 error access_patterns/1/mapping/operations/0/index"}, inText: "use a Query on EmployeesByTitle"},
		{name: "MAP002 fires for a range on a key", code: "MAP002",
			edit: func(d *designer.Design) { opOf(d, 1, 0).KeyCondition = "emp_no = :emp_no AND record_key >= :profile" },
			want: []string{"MAP002 error access_patterns/1/mapping/operations/0/key_condition"}, inText: "compares record_key with >="},
		{name: "MAP002 fires for a non-key attribute", code: "MAP002",
			edit: func(d *designer.Design) {
				opOf(d, 1, 0).KeyCondition = "emp_no = :emp_no AND record_key = :profile AND first_name = :profile"
			},
			want: []string{"MAP002 error access_patterns/1/mapping/operations/0/key_condition"}, inText: "names first_name, which is not part of Employee's primary key"},
		{name: "MAP002 fires for a GetItem without a key", code: "MAP002",
			edit: func(d *designer.Design) { opOf(d, 5, 0).KeyCondition = "" },
			want: []string{"MAP002 error access_patterns/5/mapping/operations/0/key_condition"}, inText: "gives no key; write Department's primary key (dept_no, record_key) with =, as in dept_no = :dept_no AND record_key = :record_key"},
		{name: "MAP002 asks an UpdateItem without a key for its key fields", code: "MAP002",
			edit: func(d *designer.Design) {
				*opOf(d, 5, 0) = designer.Operation{Op: "UpdateItem", Table: "Department", Update: "REMOVE manager_name"}
			},
			want: []string{"MAP002 error access_patterns/5/mapping/operations/0/key_condition"}, inText: "gives no key; fill in its key fields: dept_no and record_key, Department's primary key"},
		{name: "MAP002 fires for a transaction action without its full key", code: "MAP002",
			edit: func(d *designer.Design) { opOf(d, 11, 2).KeyCondition = "emp_no = :emp_no" },
			want: []string{"MAP002 error access_patterns/11/mapping/operations/2/key_condition"}, inText: "operation 3, TransactWriteItems on table SalaryHistory"},
		{name: "MAP002 fires for an unreadable key", code: "MAP002",
			edit: func(d *designer.Design) { opOf(d, 1, 0).KeyCondition = "emp_no = 10001" },
			want: []string{"MAP002 error access_patterns/1/mapping/operations/0/key_condition"}, inText: "cannot be read"},
		{name: "MAP002 takes placeholders, parentheses and either order", code: "MAP002",
			edit: func(d *designer.Design) {
				o := opOf(d, 1, 0)
				o.KeyCondition, o.Names = "(:emp_no = #e) AND (record_key = :profile)", map[string]string{"#e": "emp_no"}
			}},
		{name: "MAP002 leaves an undefined placeholder to MAP012", code: "MAP002",
			edit: func(d *designer.Design) { opOf(d, 1, 0).KeyCondition = "#e = :emp_no AND record_key = :profile" }},

		// MAP003
		{name: "MAP003 fires for a Query without its partition key", code: "MAP003",
			edit: func(d *designer.Design) { opOf(d, 8, 0).KeyCondition = "from_date BETWEEN :start AND :end" },
			want: []string{"MAP003 error access_patterns/8/mapping/operations/0/key_condition"}, inText: "does not give the partition key emp_no of table SalaryHistory"},
		{name: "MAP003 fires for a range on the partition key", code: "MAP003",
			edit: func(d *designer.Design) { opOf(d, 9, 0).KeyCondition = "emp_no > :emp_no" },
			want: []string{"MAP003 error access_patterns/9/mapping/operations/0/key_condition"}, inText: "compares the partition key emp_no with >"},
		{name: "MAP003 fires for a non-key attribute", code: "MAP003",
			edit: func(d *designer.Design) { opOf(d, 9, 0).KeyCondition = "emp_no = :emp_no AND title = :emp_no" },
			want: []string{"MAP003 error access_patterns/9/mapping/operations/0/key_condition"}, inText: "title is not a key attribute of table TitleHistory (emp_no, from_date); move it to the filter"},
		{name: "MAP003 fires for an empty key condition", code: "MAP003",
			edit: func(d *designer.Design) { opOf(d, 3, 0).KeyCondition = " " },
			want: []string{"MAP003 error access_patterns/3/mapping/operations/0/key_condition"}, inText: "has no key condition; a Query needs dept_no = :dept_no"},
		{name: "MAP003 fires for begins_with on a number", code: "MAP003",
			edit: func(d *designer.Design) {
				opOf(d, 3, 0).KeyCondition = "dept_no = :dept AND begins_with(emp_no, :dept)"
			},
			want: []string{"MAP003 error access_patterns/3/mapping/operations/0/key_condition"}, inText: "begins_with on the sort key emp_no, a number"},
		{name: "MAP003 fires for two conditions on the sort key", code: "MAP003",
			edit: func(d *designer.Design) {
				opOf(d, 8, 0).KeyCondition = "emp_no = :emp_no AND from_date >= :start AND from_date <= :end"
			},
			want: []string{"MAP003 error access_patterns/8/mapping/operations/0/key_condition"}, inText: "2 conditions on the sort key from_date"},
		{name: "MAP003 fires for <>", code: "MAP003",
			edit: func(d *designer.Design) { opOf(d, 8, 0).KeyCondition = "emp_no = :emp_no AND from_date <> :start" },
			want: []string{"MAP003 error access_patterns/8/mapping/operations/0/key_condition"}, inText: "with <>"},
		{name: "MAP003 fires for OR", code: "MAP003",
			edit: func(d *designer.Design) { opOf(d, 8, 0).KeyCondition = "emp_no = :emp_no OR from_date = :start" },
			want: []string{"MAP003 error access_patterns/8/mapping/operations/0/key_condition"}, inText: "only with AND"},
		{name: "MAP003 takes the example's conditions", code: "MAP003"},
		{name: "MAP003 fires for a gap in a multi-attribute sort key", code: "MAP003",
			edit: func(d *designer.Design) {
				multiKeyIndex(d)
				opOf(d, 7, 0).KeyCondition = "#title = :title AND dept_no = :title AND emp_no = :title"
			},
			want: []string{"MAP003 error access_patterns/7/mapping/operations/0/key_condition"}, inText: "conditions the sort key attribute emp_no but not hire_date before it"},
		{name: "MAP003 fires for a range before the last sort attribute", code: "MAP003",
			edit: func(d *designer.Design) {
				multiKeyIndex(d)
				opOf(d, 7, 0).KeyCondition = "#title = :title AND dept_no > :title AND hire_date = :title"
			},
			want: []string{"MAP003 error access_patterns/7/mapping/operations/0/key_condition"}, inText: "only the last conditioned sort attribute may use a range"},
		{name: "MAP003 takes sort attributes left to right with the range last", code: "MAP003",
			edit: func(d *designer.Design) {
				multiKeyIndex(d)
				opOf(d, 7, 0).KeyCondition = "#title = :title AND dept_no = :title AND hire_date BETWEEN :title AND :title"
			}},
		{name: "MAP003 fires for a multi-attribute partition key given in part", code: "MAP003",
			edit: func(d *designer.Design) {
				multiKeyIndex(d)
				ix := &editTable(d, "Employee").GSIs[1]
				ix.PartitionKey = append(slices.Clone(ix.PartitionKey), designer.KeyAttribute{Name: "gender", Type: designer.S})
			},
			want: []string{"MAP003 error access_patterns/7/mapping/operations/0/key_condition"}, inText: "does not give the partition key gender"},
		{name: "MAP003 uses the table's partition key for an LSI", code: "MAP003",
			edit: func(d *designer.Design) {
				editTable(d, "SalaryHistory").LSIs = []designer.Index{{Name: "BySalary", SortKey: []designer.KeyAttribute{{Name: "salary", Type: designer.N}}, Projection: designer.Projection{Type: designer.All}}}
				o := opOf(d, 8, 0)
				o.Index, o.KeyCondition = "BySalary", "emp_no = :emp_no AND salary > :start"
			}},

		// MAP004
		{name: "MAP004 fires for a Scan", code: "MAP004",
			edit: func(d *designer.Design) { opOf(d, 7, 0).Op = "Scan" },
			want: []string{"MAP004 warning access_patterns/7/mapping/operations/0"}, inText: "reads every item"},

		// MAP005
		{name: "MAP005 fires for a strongly consistent GSI read", code: "MAP005",
			edit: func(d *designer.Design) { opOf(d, 3, 0).Consistent = true },
			want: []string{"MAP005 error access_patterns/3/mapping/operations/0/consistent"}, inText: "(Query on GSI EmployeesByDepartment on Employee) asks for a strongly consistent read"},
		{name: "MAP005 allows it on the table", code: "MAP005"},

		// MAP006
		{name: "MAP006 fires for an attribute the GSI does not project", code: "MAP006",
			edit: func(d *designer.Design) {
				ix := &editTable(d, "Employee").GSIs[0]
				ix.PatternAttributes = []designer.PatternAttributes{{Pattern: 3, Attributes: []string{"first_name", "hire_date", "gender"}}}
			},
			want: []string{"MAP006 warning access_patterns/3/mapping/operations/0/index"}, inText: "needs hire_date and gender, which GSI EmployeesByDepartment on Employee does not project; DynamoDB cannot return them from a GSI"},
		{name: "MAP006 reads the needs from the projection expression", code: "MAP006",
			edit: func(d *designer.Design) {
				editTable(d, "Employee").GSIs[1].PatternAttributes = nil
				opOf(d, 7, 0).Projection = "#title, current_salary, hire_date"
			},
			want: []string{"MAP006 warning access_patterns/7/mapping/operations/0/index"}, inText: "needs hire_date"},
		{name: "MAP006 reads the needs from the pattern", code: "MAP006",
			edit: func(d *designer.Design) {
				editTable(d, "Employee").GSIs[1].PatternAttributes = nil
				d.Patterns[6].Attributes = []string{"current_title", "current_salary", "last_name"}
			},
			want: []string{"MAP006 warning access_patterns/7/mapping/operations/0/index"}, inText: "needs last_name"},
		{name: "MAP006 is quiet for an ALL projection", code: "MAP006",
			edit: func(d *designer.Design) {
				ix := &editTable(d, "Employee").GSIs[0]
				ix.Projection = designer.Projection{Type: designer.All}
				ix.PatternAttributes = []designer.PatternAttributes{{Pattern: 3, Attributes: []string{"hire_date"}}}
			}},

		// MAP007
		{name: "MAP007 fires for a filter on the index partition key", code: "MAP007",
			edit: func(d *designer.Design) { opOf(d, 3, 0).Filter = "dept_no = :dept" },
			want: []string{"MAP007 error access_patterns/3/mapping/operations/0/filter"}, inText: "filters on dept_no, a key attribute of GSI EmployeesByDepartment on Employee"},
		{name: "MAP007 fires for a filter on the sort key through a placeholder", code: "MAP007",
			edit: func(d *designer.Design) {
				o := opOf(d, 8, 0)
				o.Filter, o.Names = "salary > :start AND #f <> :end", map[string]string{"#f": "from_date"}
			},
			want: []string{"MAP007 error access_patterns/8/mapping/operations/0/filter"}, inText: "filters on from_date"},
		{name: "MAP007 allows the table's key in an index filter", code: "MAP007",
			edit: func(d *designer.Design) {
				opOf(d, 3, 0).Filter = "begins_with(record_key, :dept) AND size(first_name) > :dept"
			}},

		// MAP008
		{name: "MAP008 fires for 26 BatchWriteItem requests", code: "MAP008",
			edit: func(d *designer.Design) { repeatOperation(d, 11, "BatchWriteItem", 26) },
			want: []string{"MAP008 error access_patterns/11/mapping/operations/0"}, inText: "puts 26 requests into one BatchWriteItem, which takes at most 25"},
		{name: "MAP008 allows 25", code: "MAP008",
			edit: func(d *designer.Design) { repeatOperation(d, 11, "BatchWriteItem", 25) }},
		{name: "MAP008 fires for a transaction over 100 items", code: "MAP008",
			edit: func(d *designer.Design) { repeatOperation(d, 11, "TransactWriteItems", 101) },
			want: []string{"MAP008 error access_patterns/11/mapping/operations/0"}},
		{name: "MAP008 fires for over 100 keys", code: "MAP008",
			edit: func(d *designer.Design) { repeatOperation(d, 6, "BatchGetItem", 101) },
			want: []string{"MAP008 error access_patterns/6/mapping/operations/0"}, inText: "at most 100 keys"},

		// MAP009
		{name: "MAP009 fires for an item the Query also returns", code: "MAP009",
			edit: func(d *designer.Design) { o := opOf(d, 4, 0); e := (*o.Expected)[:2]; o.Expected = &e },
			want: []string{"MAP009 warning access_patterns/4/mapping/operations/0/expected"}, inText: "also returns dept_no=d005 · record_key=METADATA"},
		{name: "MAP009 fires for an expected item the GetItem does not return", code: "MAP009",
			edit: func(d *designer.Design) {
				o := opOf(d, 1, 0)
				o.Expected = &[]designer.Item{{"emp_no": designer.Num("10002"), "record_key": designer.Str("PROFILE")}}
			},
			want: []string{"MAP009 warning access_patterns/1/mapping/operations/0/expected"}, inText: "also returns emp_no=10001 · record_key=PROFILE and does not return emp_no=10002 · record_key=PROFILE"},
		{name: "MAP009 is quiet for a Query's expected keys marked in another order", code: "MAP009",
			edit: func(d *designer.Design) {
				o := opOf(d, 9, 0)
				e := slices.Clone(*o.Expected)
				slices.Reverse(e)
				o.Expected = &e
			}},
		{name: "MAP009 fires for an expected key listed twice", code: "MAP009",
			edit: func(d *designer.Design) {
				o := opOf(d, 9, 0)
				e := append(slices.Clone(*o.Expected), (*o.Expected)[0])
				o.Expected = &e
			},
			want: []string{"MAP009 warning access_patterns/9/mapping/operations/0/expected"}, inText: "names one of them more than once"},
		{name: "MAP009 fires when nothing is expected", code: "MAP009",
			edit: func(d *designer.Design) { opOf(d, 5, 0).Expected = &[]designer.Item{} },
			want: []string{"MAP009 warning access_patterns/5/mapping/operations/0/expected"}, inText: "returns dept_no=d003 · record_key=METADATA, but its expected result is that it returns nothing"},
		{name: "MAP009 is quiet without an expected result", code: "MAP009",
			edit: func(d *designer.Design) { o := opOf(d, 4, 0); o.Expected = nil; o.KeyCondition = "dept_no = :nope" }},
		{name: "MAP009 compares keys whatever the projection", code: "MAP009",
			edit: func(d *designer.Design) { opOf(d, 3, 0).Projection = "first_name" }},

		// MAP010
		{name: "MAP010 fires for an unpaged Query over 100 items", code: "MAP010",
			edit: func(d *designer.Design) { opOf(d, 7, 0).Limit = nil },
			want: []string{"MAP010 warning access_patterns/7/mapping/operations/0/limit"}, inText: `its result bound is "up to 115,000 index entries for the largest title"`},
		{name: "MAP010 is quiet with a Limit", code: "MAP010",
			edit: func(d *designer.Design) { opOf(d, 7, 0).Limit = refOf(100) }},
		{name: "MAP010 fires for an unbounded result", code: "MAP010",
			edit: func(d *designer.Design) { d.Patterns[8].ResultBound = "unbounded: grows with every promotion" },
			want: []string{"MAP010 warning access_patterns/9/mapping/operations/0/limit"}},
		{name: "MAP010 is quiet for a small bound", code: "MAP010",
			edit: func(d *designer.Design) { d.Patterns[8].ResultBound = "at most 100 items" }},

		// MAP011
		{name: "MAP011 fires for a read the samples do not exercise", code: "MAP011",
			edit: func(d *designer.Design) {
				opOf(d, 1, 0).Values = map[string]designer.Value{":emp_no": designer.Num("99999"), ":profile": designer.Str("PROFILE")}
			},
			want: []string{"MAP011 warning access_patterns/1/mapping/operations/0"}, inText: "returns no item from the sample data"},
		{name: "MAP011 is quiet when one of the reads returns items", code: "MAP011",
			edit: func(d *designer.Design) {
				first := *opOf(d, 1, 0)
				first.Values = map[string]designer.Value{":emp_no": designer.Num("99999"), ":profile": designer.Str("PROFILE")}
				d.Patterns[0].Mapping.Operations = append([]designer.Operation{first}, d.Patterns[0].Mapping.Operations...)
			}},
		{name: "MAP011 is quiet for a write pattern", code: "MAP011",
			edit: func(d *designer.Design) {
				opOf(d, 11, 0).Values = map[string]designer.Value{":emp_no": designer.Num("99999")}
			}},
		{name: "MAP011 is quiet for an operation that cannot run", code: "MAP011",
			edit: func(d *designer.Design) { opOf(d, 1, 0).Values = nil }},

		// MAP012
		{name: "MAP012 fires for an unknown table", code: "MAP012",
			edit: func(d *designer.Design) { opOf(d, 1, 0).Table = "Employees" },
			want: []string{"MAP012 error access_patterns/1/mapping/operations/0/table"}, inText: "names table Employees, which the design does not have; choose Employee, SalaryHistory, TitleHistory or Department"},
		{name: "MAP012 fires for no table", code: "MAP012",
			edit: func(d *designer.Design) { opOf(d, 1, 0).Table = "" },
			want: []string{"MAP012 error access_patterns/1/mapping/operations/0/table"}, inText: "names no table"},
		{name: "MAP012 fires for an unknown index", code: "MAP012",
			edit: func(d *designer.Design) { opOf(d, 3, 0).Index = "ByDepartment" },
			want: []string{"MAP012 error access_patterns/3/mapping/operations/0/index"}, inText: "names index ByDepartment, which Employee does not have"},
		{name: "MAP012 fires for an unknown attribute in a filter", code: "MAP012",
			edit: func(d *designer.Design) { opOf(d, 8, 0).Filter = "salry > :start" },
			want: []string{"MAP012 error access_patterns/8/mapping/operations/0/filter"}, inText: "filter names salry, which SalaryHistory neither declares nor holds in any sample item"},
		{name: "MAP012 fires for an unknown attribute in a projection", code: "MAP012",
			edit: func(d *designer.Design) { opOf(d, 5, 0).Projection = "dept_no, headcnt" },
			want: []string{"MAP012 error access_patterns/5/mapping/operations/0/projection"}, inText: "headcnt"},
		{name: "MAP012 fires for an undefined placeholder", code: "MAP012",
			edit: func(d *designer.Design) { opOf(d, 7, 0).Names = nil },
			want: []string{"MAP012 error access_patterns/7/mapping/operations/0/key_condition"}, inText: "uses #title, which its names do not define; add #title=<attribute>"},
		{name: "MAP012 knows attributes only sample items hold", code: "MAP012",
			edit: func(d *designer.Design) {
				t := editTable(d, "SalaryHistory")
				t.Attributes = slices.DeleteFunc(slices.Clone(t.Attributes), func(a designer.Attribute) bool { return a.Name == "salary" })
				opOf(d, 8, 0).Filter = "salary > :start"
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := designertest.HRDesign(t)
			if tt.edit != nil {
				tt.edit(&d)
			}
			got := findingsOf(Validate(d), tt.code)
			if keys := findingKeys(got); !slices.Equal(keys, tt.want) && (len(keys) > 0 || len(tt.want) > 0) {
				t.Fatalf("findings = %q, want %q\n%v", keys, tt.want, got)
			}
			if tt.inText != "" && !strings.Contains(got[0].Message, tt.inText) {
				t.Errorf("message = %q, want it to contain %q", got[0].Message, tt.inText)
			}
		})
	}
}

// TestMAP002_takesINWhereTheEvaluatorTakesSeveralKeys holds MAP002 to what the evaluator runs: a
// batch or a transaction may name several keys with IN, a single-item operation may not, and IN
// never stands in for a key attribute left out.
func TestMAP002_takesINWhereTheEvaluatorTakesSeveralKeys(t *testing.T) {
	t.Parallel()
	cases := []struct {
		op, action, key string
		refused         bool
		inText          string
	}{
		{op: "BatchWriteItem", action: "delete", key: "dept_no IN (:dept, :other) AND record_key = :meta"},
		{op: "BatchWriteItem", action: "delete", key: "dept_no = :dept AND record_key IN (:meta, :manager)"},
		{op: "TransactWriteItems", action: "delete", key: "(dept_no IN (:dept, :other)) AND record_key = :meta"},
		{op: "BatchGetItem", key: "dept_no IN (:dept, :other) AND record_key = :meta"},
		{op: "TransactGetItems", key: "record_key = :meta AND dept_no IN (:dept, :other)"},
		{op: "BatchWriteItem", action: "delete", key: "dept_no IN (:dept, :other)", refused: true, inText: "does not give record_key of Department's primary key"},
		{op: "BatchWriteItem", action: "delete", key: "dept_no IN (:dept, :other) AND salary_total IN (:meta)", refused: true, inText: "names salary_total, which is not part of"},
		{op: "GetItem", key: "dept_no IN (:dept, :other) AND record_key = :meta", refused: true, inText: "not IN"},
		{op: "DeleteItem", key: "dept_no IN (:dept, :other) AND record_key = :meta", refused: true, inText: "not IN"},
	}
	for _, c := range cases {
		t.Run(c.op+" "+c.key, func(t *testing.T) {
			t.Parallel()
			d := designertest.HRDesign(t)
			op := opOf(&d, 6, 0)
			*op = designer.Operation{Op: c.op, Table: "Department", Action: c.action, KeyCondition: c.key, Values: map[string]designer.Value{
				":dept": designer.Str("d005"), ":other": designer.Str("d001"), ":meta": designer.Str("METADATA"), ":manager": designer.Str("MANAGER#1985-01-01"),
			}}
			got := findingsOf(Validate(d), "MAP002")
			ran := dynamo.RunOperation(d, *op)
			switch {
			case !c.refused && len(got) > 0:
				t.Fatalf("MAP002 refuses what the evaluator runs: %v (evaluator error %q)", got, ran.Error)
			case !c.refused && ran.Error != "":
				t.Fatalf("the evaluator refuses it: %s", ran.Error)
			case c.refused && len(got) != 1:
				t.Fatalf("MAP002 findings = %v, want one", got)
			case c.refused && ran.Error == "":
				t.Fatalf("MAP002 refuses what the evaluator runs: %s", got[0].Message)
			case c.refused && !strings.Contains(got[0].Message, c.inText):
				t.Errorf("message = %q, want it to contain %q", got[0].Message, c.inText)
			}
		})
	}
}

// multiKeyIndex gives GSI EmployeesByTitle the sort key dept_no, hire_date, emp_no.
func multiKeyIndex(d *designer.Design) {
	t := editTable(d, "Employee")
	t.GSIs = slices.Clone(t.GSIs)
	t.GSIs[1].SortKey = []designer.KeyAttribute{{Name: "dept_no", Type: designer.S}, {Name: "hire_date", Type: designer.S}, {Name: "emp_no", Type: designer.N}}
}

// repeatOperation makes the pattern numbered n run count copies of its first operation as kind.
func repeatOperation(d *designer.Design, n int, kind string, count int) {
	first := *opOf(d, n, 0)
	first.Op = kind
	ops := make([]designer.Operation, count)
	for i := range ops {
		ops[i] = first
	}
	d.Patterns[n-1].Mapping.Operations = ops
}

func TestValidate_exampleHasNoMappingErrors(t *testing.T) {
	t.Parallel()
	for _, f := range Validate(designertest.HRDesign(t)) {
		if strings.HasPrefix(f.Code, "MAP") && f.Severity != SeverityInfo {
			t.Errorf("hr-employees: %s %s %s: %s", f.Severity, f.Code, f.Path, f.Message)
		}
	}
}

func TestParseResultBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in        string
		n         float64
		unbounded bool
		known     bool
	}{
		{"1 item", 1, false, true},
		{"at most 6 items", 6, false, true},
		{"50 items per page; up to 62,000 in total", 62000, false, true},
		{"up to 115,000 index entries for the largest title", 115000, false, true},
		{"10k", 10000, false, true},
		{"3 million rows", 3e6, false, true},
		{"1-20", 20, false, true},
		{"unbounded", 0, true, true},
		{"all orders of a user", 0, true, true},
		{"thousands per day", 0, true, true},
		{"", 0, false, false},
		{"small", 0, false, false},
	}
	for _, tt := range tests {
		n, unbounded, known := parseResultBound(tt.in)
		if n != tt.n || unbounded != tt.unbounded || known != tt.known {
			t.Errorf("parseResultBound(%q) = %v, %v, %v; want %v, %v, %v", tt.in, n, unbounded, known, tt.n, tt.unbounded, tt.known)
		}
	}
}

// BenchmarkValidateMapping validates the HR example with 40 more read patterns, each a Query over
// a table of 500 sample items, to show what evaluating mapped reads on every edit costs.
func BenchmarkValidateMapping(b *testing.B) {
	d := designertest.HRDesign(b)
	t := editTable(&d, "TitleHistory")
	t.Items = slices.Clone(t.Items)
	for i := range 500 {
		t.Items = append(t.Items, designer.SampleItem{ID: fmt.Sprintf("tb%d", i), Item: designer.Item{
			"emp_no": designer.Num(fmt.Sprint(20000 + i/5)), "from_date": designer.Str(fmt.Sprintf("2000-01-%02d", i%5+1)), "title": designer.Str("Engineer"),
		}})
	}
	for n := 17; n <= 56; n++ {
		p := d.Patterns[8]
		p.ID, p.Number = fmt.Sprintf("ap%d", n), n
		d.Patterns = append(d.Patterns, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		Validate(d)
	}
}
