package designer

import (
	"reflect"
	"testing"
)

func TestParseOperationText(t *testing.T) {
	limit := func(n int) *int { return &n }
	tests := []struct {
		in   string
		want []Operation
	}{
		{"GetItem on Users", []Operation{{Op: "GetItem", Table: "Users"}}},
		{"Query(PK=USER#<id>, SK begins_with ORDER#)", []Operation{{Op: "Query"}}},
		{"Query UserOrdersIndex: user_id = :uid", []Operation{{Op: "Query", Index: "UserOrdersIndex", KeyCondition: "user_id = :uid"}}},
		{"TransactWriteItems (Put Order + Update User)", []Operation{
			{Op: "TransactWriteItems", Notes: "Put Order"}, {Op: "TransactWriteItems", Notes: "Update User"}}},
		{"TransactWriteItems: Put Order, Update Inventory and Delete Cart", []Operation{
			{Op: "TransactWriteItems", Notes: "Put Order"}, {Op: "TransactWriteItems", Notes: "Update Inventory"},
			{Op: "TransactWriteItems", Notes: "Delete Cart"}}},
		{"Query on Orders where customer_id = :cid AND begins_with(sk, :prefix), Limit 20, ScanIndexForward=false",
			[]Operation{{Op: "Query", Table: "Orders", KeyCondition: "customer_id = :cid AND begins_with(sk, :prefix)", Limit: limit(20), Descending: true}}},
		{"Query GSI1 (GSI1PK = :status)", []Operation{{Op: "Query", Index: "GSI1", KeyCondition: "GSI1PK = :status"}}},
		{"Query on Orders.ByStatus", []Operation{{Op: "Query", Table: "Orders", Index: "ByStatus"}}},
		{"Query on the Orders table using index StatusIndex", []Operation{{Op: "Query", Table: "Orders", Index: "StatusIndex"}}},
		{"get_item (strongly consistent)", []Operation{{Op: "GetItem", Consistent: true}}},
		{"BatchGetItem, then Query on Orders", []Operation{{Op: "BatchGetItem"}, {Op: "Query", Table: "Orders"}}},
		{"GetItem+Query", []Operation{{Op: "GetItem"}, {Op: "Query"}}},
		{"PutItem with attribute_not_exists(pk)", []Operation{{Op: "PutItem"}}},
		{"UpdateItem on Users (SET #n = :n)", []Operation{{Op: "UpdateItem", Table: "Users"}}},
		{"Scan Users with filter", []Operation{{Op: "Scan", Table: "Users"}}},
		{"BatchWriteItem (3 puts)", []Operation{{Op: "BatchWriteItem"}}},
		{"N/A — served by OpenSearch; no scan needed", nil},
		{"", nil},
		{"GetItemsByUser", nil},
	}
	for _, tt := range tests {
		if got := ParseOperationText(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseOperationText(%q) =\n%+v\nwant\n%+v", tt.in, got, tt.want)
		}
	}
}

func FuzzParseOperationText(f *testing.F) {
	for _, s := range []string{"GetItem on Users", "Query UserOrdersIndex: user_id = :uid", "TransactWriteItems (Put Order + Update User)", "Query(", "Scan)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, op := range ParseOperationText(s) {
			if _, err := ParseOperationName(op.Op); err != nil {
				t.Errorf("ParseOperationText(%q) gave operation %q", s, op.Op)
			}
		}
	})
}
