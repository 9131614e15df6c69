package datamodelmd

import (
	"reflect"
	"testing"

	"dynaloom/internal/designer"
)

func TestParseOperationText(t *testing.T) {
	t.Parallel()
	limit := func(n int) *int { return &n }
	tests := []struct {
		in   string
		want []designer.Operation
	}{
		{"GetItem on Users", []designer.Operation{{Op: "GetItem", Table: "Users"}}},
		{"Query(PK=USER#<id>, SK begins_with ORDER#)", []designer.Operation{{Op: "Query"}}},
		{"Query UserOrdersIndex: user_id = :uid", []designer.Operation{{Op: "Query", Index: "UserOrdersIndex", KeyCondition: "user_id = :uid"}}},
		{"TransactWriteItems (Put Order + Update User)", []designer.Operation{
			{Op: "TransactWriteItems", Notes: "Put Order"}, {Op: "TransactWriteItems", Notes: "Update User"}}},
		{"TransactWriteItems: Put Order, Update Inventory and Delete Cart", []designer.Operation{
			{Op: "TransactWriteItems", Notes: "Put Order"}, {Op: "TransactWriteItems", Notes: "Update Inventory"},
			{Op: "TransactWriteItems", Notes: "Delete Cart"}}},
		{"Query on Orders where customer_id = :cid AND begins_with(sk, :prefix), Limit 20, ScanIndexForward=false",
			[]designer.Operation{{Op: "Query", Table: "Orders", KeyCondition: "customer_id = :cid AND begins_with(sk, :prefix)", Limit: limit(20), Descending: true}}},
		{"Query GSI1 (GSI1PK = :status)", []designer.Operation{{Op: "Query", Index: "GSI1", KeyCondition: "GSI1PK = :status"}}},
		{"Query on Orders.ByStatus", []designer.Operation{{Op: "Query", Table: "Orders", Index: "ByStatus"}}},
		{"Query on the Orders table using index StatusIndex", []designer.Operation{{Op: "Query", Table: "Orders", Index: "StatusIndex"}}},
		{"get_item (strongly consistent)", []designer.Operation{{Op: "GetItem", Consistent: true}}},
		{"BatchGetItem, then Query on Orders", []designer.Operation{{Op: "BatchGetItem"}, {Op: "Query", Table: "Orders"}}},
		{"GetItem+Query", []designer.Operation{{Op: "GetItem"}, {Op: "Query"}}},
		{"PutItem with attribute_not_exists(pk)", []designer.Operation{{Op: "PutItem"}}},
		{"UpdateItem on Users (SET #n = :n)", []designer.Operation{{Op: "UpdateItem", Table: "Users"}}},
		{"Scan Users with filter", []designer.Operation{{Op: "Scan", Table: "Users"}}},
		{"BatchWriteItem (3 puts)", []designer.Operation{{Op: "BatchWriteItem"}}},
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
			if _, err := designer.ParseOperationName(op.Op); err != nil {
				t.Errorf("ParseOperationText(%q) gave operation %q", s, op.Op)
			}
		}
	})
}
