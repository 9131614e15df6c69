package datamodelmd

import (
	"encoding/json"
	"maps"
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// cellTables are the tables the operation cell tests settle against.
func cellTables() []designer.Table {
	s := func(name string) designer.KeyAttribute { return designer.KeyAttribute{Name: name, Type: designer.S} }
	sk := func(name string, t designer.Type) *designer.KeyAttribute {
		return &designer.KeyAttribute{Name: name, Type: t}
	}
	return []designer.Table{
		{Name: "Orders", PartitionKey: s("order_id"), SortKey: sk("created_at", designer.S),
			GSIs: []designer.Index{{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{s("status")}, SortKey: []designer.KeyAttribute{s("created_at")}}}},
		{Name: "Posts", PartitionKey: s("author_id"), SortKey: sk("created_at", designer.S)},
		{Name: "UserPosts", PartitionKey: s("user_id"), SortKey: sk("sort_key", designer.S)},
		{Name: "Employee", PartitionKey: designer.KeyAttribute{Name: "emp_no", Type: designer.N}, SortKey: sk("record_key", designer.S),
			GSIs: []designer.Index{{Name: "EmployeesByDepartment", PartitionKey: []designer.KeyAttribute{s("dept_no")}}}},
		{Name: "SocialGraph", PartitionKey: s("follower_id"), SortKey: sk("following_id", designer.S),
			GSIs: []designer.Index{{Name: "FollowersByUser", PartitionKey: []designer.KeyAttribute{s("following_id")}}}},
		{Name: "Readings", PartitionKey: s("sensor_id"), SortKey: sk("at", designer.N)},
		{Name: "Order Lines", PartitionKey: s("order_id"), SortKey: sk("line", designer.S),
			LSIs: []designer.Index{{Name: "ByLine", PartitionKey: []designer.KeyAttribute{s("order_id")}, SortKey: []designer.KeyAttribute{s("qty")}}}},
	}
}

func limit(n int) *int { return &n }

func vals(kv ...any) map[string]designer.Value {
	out := map[string]designer.Value{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(designer.Value)
	}
	return out
}

// Every spelling of an operation cell met in data models, and the operations it gives once
// settled with the tables, the Tables/Indexes cell and the row's notes.
func TestOperationCell_everySpelling(t *testing.T) {
	t.Parallel()
	type op = designer.Operation
	tests := []struct {
		cell, targets, notes string
		want                 []op
	}{
		// The three cells that lost their key condition.
		{"Query(order_id, ScanIndexForward=false, Limit=25)", "Orders", "",
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id", Limit: limit(25), Descending: true}}},
		{`Query(author_id, begins_with(created_at, "2026-01"))`, "Posts", "",
			[]op{{Op: "Query", Table: "Posts", KeyCondition: "author_id = :author_id AND begins_with(created_at, :created_at)", Values: vals(":created_at", designer.Str("2026-01"))}}},
		{`Query(user_id, SK begins_with "POST#")`, "UserPosts", "",
			[]op{{Op: "Query", Table: "UserPosts", KeyCondition: "user_id = :user_id AND begins_with(sort_key, :sort_key)", Values: vals(":sort_key", designer.Str("POST#"))}}},
		// Positional key values, a number key among them.
		{`GetItem(emp_no, "PROFILE")`, "Employee", "",
			[]op{{Op: "GetItem", Table: "Employee", KeyCondition: "emp_no = :emp_no AND record_key = :record_key", Values: vals(":record_key", designer.Str("PROFILE"))}}},
		{`GetItem(10001, "PROFILE")`, "Employee", "",
			[]op{{Op: "GetItem", Table: "Employee", KeyCondition: "emp_no = :emp_no AND record_key = :record_key", Values: vals(":emp_no", designer.Num("10001"), ":record_key", designer.Str("PROFILE"))}}},
		// Sort-key conditions in every spelling.
		{"Query(order_id, created_at BETWEEN :from AND :to)", "Orders", "",
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id AND created_at BETWEEN :from AND :to"}}},
		{`Query(sensor_id, at BETWEEN 100 AND 200)`, "Readings", "",
			[]op{{Op: "Query", Table: "Readings", KeyCondition: "sensor_id = :sensor_id AND #at BETWEEN :at_from AND :at_to", Names: map[string]string{"#at": "at"}, Values: vals(":at_from", designer.Num("100"), ":at_to", designer.Num("200"))}}},
		{`Query(sensor_id, at > 1700000000)`, "Readings", "",
			[]op{{Op: "Query", Table: "Readings", KeyCondition: "sensor_id = :sensor_id AND #at > :at", Names: map[string]string{"#at": "at"}, Values: vals(":at", designer.Num("1700000000"))}}},
		{`Query(order_id, created_at <= :cutoff)`, "Orders", "",
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id AND created_at <= :cutoff"}}},
		{`Query(order_id, SK = "2026-05-01")`, "Orders", "",
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id AND created_at = :created_at", Values: vals(":created_at", designer.Str("2026-05-01"))}}},
		{`Query(user_id, SK begins_with("POST#"))`, "UserPosts", "",
			[]op{{Op: "Query", Table: "UserPosts", KeyCondition: "user_id = :user_id AND begins_with(sort_key, :sort_key)", Values: vals(":sort_key", designer.Str("POST#"))}}},
		{"Query(user_id, sort_key starts with POST#<ts>)", "UserPosts", "",
			[]op{{Op: "Query", Table: "UserPosts", KeyCondition: "user_id = :user_id AND begins_with(sort_key, :sort_key)", Values: vals(":sort_key", designer.Str("POST#"))}}},
		{"Query(PK=USER#<id>, SK begins_with ORDER#)", "Orders", "",
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id AND begins_with(created_at, :created_at)", Values: vals(":created_at", designer.Str("ORDER#"))}}},
		// A word in capitals is a constant, unless it names a key attribute.
		{"GetItem(PK=ORDER#<id>, SK=PROFILE)", "Orders", "",
			[]op{{Op: "GetItem", Table: "Orders", KeyCondition: "order_id = :order_id AND created_at = :created_at", Values: vals(":created_at", designer.Str("PROFILE"))}}},
		{"Query(status = ACTIVE)", "ByStatus", "",
			[]op{{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#status = :status", Names: map[string]string{"#status": "status"}, Values: vals(":status", designer.Str("ACTIVE"))}}},
		// DynamoDB's own syntax, after a colon, "where" or in parentheses, kept as written.
		{"Query on Orders where order_id = :id AND begins_with(created_at, :day), Limit 20, ScanIndexForward=false", "", "",
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :id AND begins_with(created_at, :day)", Limit: limit(20), Descending: true}}},
		{"Query ByStatus: status = :s", "", "",
			[]op{{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "status = :s"}}},
		{"Query ByStatus (status = :s)", "", "",
			[]op{{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#status = :s", Names: map[string]string{"#status": "status"}}}},
		{"Query on Orders.ByStatus", "", "", []op{{Op: "Query", Table: "Orders", Index: "ByStatus"}}},
		{"Query on the Orders table using index ByStatus", "", "", []op{{Op: "Query", Table: "Orders", Index: "ByStatus"}}},
		// Named options.
		{"Query(status, IndexName=ByStatus, ConsistentRead=true, ProjectionExpression=order_id, status)", "Orders", "",
			[]op{{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#status = :status", Names: map[string]string{"#status": "status"}, Consistent: true, Projection: "order_id, status"}}},
		{`Query(order_id, ProjectionExpression="order_id, total", Limit=10)`, "Orders", "",
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id", Projection: "order_id, total", Limit: limit(10)}}},
		{"Query(order_id) newest first, Limit 5", "Orders", "",
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id", Descending: true, Limit: limit(5)}}},
		// The export's own line.
		{`Query on "Order Lines" index ByLine: order_id = :o; Filter: qty > :q; Limit 20; ScanIndexForward=false; ConsistentRead=true; Names: #s=status; Values: :q=3; Notes: a; b`, "", "",
			[]op{{Op: "Query", Table: "Order Lines", Index: "ByLine", KeyCondition: "order_id = :o", Filter: "qty > :q", Limit: limit(20), Descending: true, Consistent: true,
				Names: map[string]string{"#s": "status"}, Values: vals(":q", designer.Num("3")), Notes: "a; b"}}},
		// Several operations in a cell, and several tables in the Tables/Indexes cell.
		{"PutItem + UpdateItem", "Posts + UserPosts", "", []op{{Op: "PutItem", Table: "Posts"}, {Op: "UpdateItem", Table: "UserPosts"}}},
		{"PutItem/DeleteItem", "SocialGraph", "", []op{{Op: "PutItem", Table: "SocialGraph"}, {Op: "DeleteItem", Table: "SocialGraph"}}},
		{"Query(user_id) + BatchGetItem", "UserPosts, Posts", "",
			[]op{{Op: "Query", Table: "UserPosts", KeyCondition: "user_id = :user_id"}, {Op: "BatchGetItem", Table: "Posts"}}},
		{"UpdateItem", "Orders, ByStatus", "", []op{{Op: "UpdateItem", Table: "Orders"}}},
		{"BatchGetItem, then Query on Orders", "", "", []op{{Op: "BatchGetItem"}, {Op: "Query", Table: "Orders"}}},
		{"TransactWriteItems (Put Order + Update Employee)", "", "", []op{
			{Op: "TransactWriteItems", Action: "put", Notes: "Put Order"}, {Op: "TransactWriteItems", Action: "update", Notes: "Update Employee"}}},
		{"TransactWriteItems: Put Order, Update Stock and Delete Cart", "", "", []op{
			{Op: "TransactWriteItems", Action: "put", Notes: "Put Order"}, {Op: "TransactWriteItems", Action: "update", Notes: "Update Stock"},
			{Op: "TransactWriteItems", Action: "delete", Notes: "Delete Cart"}}},
		// The index named in the Tables/Indexes column, in its forms.
		{"Query(following_id)", "FollowersByUser GSI", "",
			[]op{{Op: "Query", Table: "SocialGraph", Index: "FollowersByUser", KeyCondition: "following_id = :following_id"}}},
		{"Query(status)", "Orders / ByStatus", "",
			[]op{{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#status = :status", Names: map[string]string{"#status": "status"}}}},
		{"Query(status)", "ByStatus (Orders)", "",
			[]op{{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#status = :status", Names: map[string]string{"#status": "status"}}}},
		{"Query(user_id) or GSI Query", "SocialGraph, FollowersByUser GSI", "",
			[]op{{Op: "Query", Table: "SocialGraph", KeyCondition: "follower_id = :follower_id"}, {Op: "Query", Table: "SocialGraph", Index: "FollowersByUser", KeyCondition: "following_id = :following_id"}}},
		// What the file says, right or wrong: a GetItem on an index keeps its target (MAP002), a
		// strongly consistent read on a GSI stays so (MAP005).
		{"GetItem(status)", "ByStatus", "", []op{{Op: "GetItem", Table: "Orders", Index: "ByStatus", KeyCondition: "#status = :status", Names: map[string]string{"#status": "status"}}}},
		{"Query(status, ConsistentRead=true)", "ByStatus", "",
			[]op{{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#status = :status", Names: map[string]string{"#status": "status"}, Consistent: true}}},
		// Consistency stated in the notes.
		{"GetItem(order_id, :day)", "Orders", "Strongly consistent read after checkout",
			[]op{{Op: "GetItem", Table: "Orders", KeyCondition: "order_id = :order_id AND created_at = :day", Consistent: true}}},
		{"get_item (strongly consistent)", "Orders", "", []op{{Op: "GetItem", Table: "Orders", Consistent: true}}},
		{"Query(dept_no) + app aggregation", "EmployeesByDepartment GSI", "Eventual consistency acceptable",
			[]op{{Op: "Query", Table: "Employee", Index: "EmployeesByDepartment", KeyCondition: "dept_no = :dept_no", Notes: "app aggregation"}}},
		// What cannot be read stays verbatim in the notes.
		{"Query (parent_id = null)", "Orders", "", []op{{Op: "Query", Table: "Orders", Notes: "parent_id = null"}}},
		{"Query (order_id, limit)", "Orders", "", []op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id", Notes: "limit"}}},
		{"PutItem with attribute_not_exists(pk)", "Orders", "", []op{{Op: "PutItem", Table: "Orders", Condition: "attribute_not_exists(pk)"}}},
		{"Scan + FilterExpression", "Orders", "", []op{{Op: "Scan", Table: "Orders", Notes: "FilterExpression"}}},
		{"Query(a, b, c)", "Orders", "", []op{{Op: "Query", Table: "Orders", Notes: "a\nb\nc"}}},
		{"Query(user_id)", "Multiple tables", "", []op{{Op: "Query", Notes: "user_id"}}},
		// No operation at all.
		{"N/A — served by OpenSearch; no scan needed", "", "", nil},
		{"Multiple Queries", "", "", nil},
		{"GetItemsByUser", "", "", nil},
		{"", "", "", nil},
	}
	tables := cellTables()
	for _, tt := range tests {
		got := settleRow(tables, tt.cell, tt.targets, tt.notes).ops
		if !sameOperations(got, tt.want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tt.want)
			t.Errorf("%q with %q:\n got %s\nwant %s", tt.cell, tt.targets, g, w)
		}
	}
}

// A PartiQL SELECT of key conditions is the Query it runs, the statement in its notes; any other
// statement gives no operation, and the row keeps it as written and says so.
func TestOperationCell_partiQLStatement(t *testing.T) {
	t.Parallel()
	type op = designer.Operation
	for _, tt := range []struct {
		cell string
		want []op
	}{
		{`ExecuteStatement: SELECT * FROM "Orders" WHERE order_id = ?`,
			[]op{{Op: "Query", Table: "Orders", KeyCondition: "order_id = :order_id", Notes: `ExecuteStatement: SELECT * FROM "Orders" WHERE order_id = ?`}}},
		{`ExecuteStatement("SELECT order_id, total FROM Orders.ByStatus WHERE status = 'OPEN' AND created_at > ? ORDER BY created_at DESC")`,
			[]op{{Op: "Query", Table: "Orders", Index: "ByStatus", KeyCondition: "#status = :status AND created_at > :created_at", Names: map[string]string{"#status": "status"}, Values: vals(":status", designer.Str("OPEN")),
				Projection: "order_id, total", Descending: true,
				Notes: `ExecuteStatement("SELECT order_id, total FROM Orders.ByStatus WHERE status = 'OPEN' AND created_at > ? ORDER BY created_at DESC")`}}},
	} {
		if got := settleRow(cellTables(), tt.cell, "", "").ops; !sameOperations(got, tt.want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tt.want)
			t.Errorf("%q:\n got %s\nwant %s", tt.cell, g, w)
		}
	}
	for _, stmt := range []string{`ExecuteStatement: UPDATE "Orders" SET total = ? WHERE order_id = ?`, `ExecuteStatement: SELECT * FROM "Orders"`} {
		if row := settleRow(cellTables(), stmt, "Orders", ""); len(row.ops) != 0 || len(row.partiql) != 1 || row.partiql[0] != stmt {
			t.Errorf("%q read as %+v", stmt, row)
		}
	}
}

// What a row's operations do not read is listed per operation, for the import notes.
func TestOperationCell_notReadIsListed(t *testing.T) {
	t.Parallel()
	row := settleRow(cellTables(), "Query(order_id, limit) + app aggregation", "Orders", "")
	if len(row.notRead) != 1 || strings.Join(row.notRead[0], "|") != "limit|app aggregation" {
		t.Errorf("not read: %q", row.notRead)
	}
}

// FuzzOperationCell: reading a cell never panics, gives only DynamoDB's operations, and the
// export's line for each operation read reads back to the same operations.
func FuzzOperationCell(f *testing.F) {
	for _, s := range []string{
		"Query(order_id, ScanIndexForward=false, Limit=25)", `Query(author_id, begins_with(created_at, "2026-01"))`,
		`Query(user_id, SK begins_with "POST#")`, `GetItem(emp_no, "PROFILE")`, "PutItem + UpdateItem", "PutItem/DeleteItem",
		"Query + BatchGetItem", "Query on Orders where order_id = :id AND begins_with(created_at, :day), Limit 20",
		`Query on "Order Lines" index ByLine: order_id = :o; Filter: qty > :q; Limit 20; Notes: a; b`,
		"TransactWriteItems: Put Order, Update Stock and Delete Cart", "Query(", "Scan)", `ExecuteStatement: SELECT * FROM "T"`,
		"Query(sensor_id, at BETWEEN 100 AND 200)", "GetItem(status)\nQuery(PK=USER#<id>, SK begins_with ORDER#)",
		`ExecuteStatement("SELECT a, b FROM Orders.ByStatus WHERE status = 'OPEN' AND created_at > ? ORDER BY created_at DESC")`,
	} {
		f.Add(s)
	}
	tables := cellTables()
	f.Fuzz(func(t *testing.T, cell string) {
		ops := settleRow(tables, cell, "", "").ops
		lines := make([]string, len(ops))
		for i, op := range ops {
			if _, err := designer.ParseOperationName(op.Op); err != nil {
				t.Fatalf("%q gave operation %q", cell, op.Op)
			}
			lines[i] = operationText(op)
		}
		back := settleRow(tables, strings.Join(lines, "\n"), "", "").ops
		if !sameOperations(back, ops) {
			g, _ := json.Marshal(ops)
			b, _ := json.Marshal(back)
			t.Fatalf("%q read as\n%s\nits export\n%s\nreads back as\n%s", cell, g, strings.Join(lines, "\n"), b)
		}
	})
}

// BenchmarkOperationCell reads one line of 1,000 and of 8,000 operations written as people write
// them, and a line of as many colons and "where"s with no condition after them; reading is linear
// when the larger of each takes about 8 times the smaller.
func BenchmarkOperationCell(b *testing.B) {
	tables := cellTables()
	for _, unit := range []struct{ name, text string }{
		{"cells", `Query(user_id, SK begins_with "POST#", Limit=20) + GetItem(emp_no, "PROFILE") or `},
		{"colons", "Query Users: where x with y "},
	} {
		for _, n := range []int{1_000, 8_000} {
			line := strings.Repeat(unit.text, n)
			b.Run(unit.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					settleRow(tables, line, "UserPosts", "")
				}
			})
		}
	}
}

// A key condition the grammar writes from a cell's key arguments runs as written: a key named by a
// reserved word (status, at, rank) is aliased, as DynamoDB refuses it bare.
func TestOperationCell_keysNamedByReservedWordsAreAliased(t *testing.T) {
	t.Parallel()
	tables := cellTables()
	for _, c := range []struct{ cell, targets string }{
		{"Query(status = ACTIVE)", "ByStatus"},
		{"Query(status)", "ByStatus (Orders)"},
		{"Query(sensor_id, at > 1700000000)", "Readings"},
		{`ExecuteStatement("SELECT order_id FROM Orders.ByStatus WHERE status = 'OPEN'")`, ""},
	} {
		ops := settleRow(tables, c.cell, c.targets, "").ops
		if len(ops) != 1 || ops[0].KeyCondition == "" {
			t.Errorf("%q gives %+v, want one operation with a key condition", c.cell, ops)
			continue
		}
		op := ops[0]
		values := maps.Clone(op.Values)
		if values == nil {
			values = map[string]designer.Value{}
		}
		for _, ph := range dynamo.ValuePlaceholders(op.KeyCondition) {
			if _, ok := values[ph]; !ok {
				values[ph] = designer.Str("x")
			}
		}
		if _, _, msg := dynamo.ParseCondition(op.KeyCondition, dynamo.NewExprContext(op.Names, values)); msg != "" {
			t.Errorf("%q: DynamoDB would refuse %q (names %v): %s", c.cell, op.KeyCondition, op.Names, msg)
		}
	}
}
