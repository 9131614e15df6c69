package mcpmodel

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// A write's condition and update reach the command, with exactly the names and values they use.
func TestExport_writesCarryTheirConditionAndUpdate(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	key := map[string]designer.Value{":t": designer.Str("t1"), ":k": designer.Str("ORDER#1")}
	values := func(extra ...any) map[string]designer.Value {
		out := map[string]designer.Value{}
		for k, v := range key {
			out[k] = v
		}
		for i := 0; i < len(extra); i += 2 {
			out[extra[i].(string)] = extra[i+1].(designer.Value)
		}
		return out
	}
	d.Patterns = append(d.Patterns,
		designer.Pattern{ID: "ap90", Number: 90, Description: "Mark paid", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{{
			Op: "UpdateItem", Table: "orders.v2-main", KeyCondition: "tenant_id = :t AND order_key = :k",
			Condition: "attribute_exists(tenant_id) AND #s <> :paid", Update: "SET #s = :paid REMOVE #u",
			Names:  map[string]string{"#s": "status", "#u": "unpaid_since"},
			Values: values(":paid", designer.Str("PAID")),
		}}}},
		designer.Pattern{ID: "ap91", Number: 91, Description: "Pay in a transaction", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{{
			Op: "TransactWriteItems", Table: "orders.v2-main", Action: designer.ActionUpdate, KeyCondition: "tenant_id = :t AND order_key = :k",
			Condition: "attribute_exists(tenant_id)", Update: "ADD #n :one",
			Names:  map[string]string{"#n": "payments"},
			Values: values(":one", designer.Num("1")),
		}, {
			Op: "TransactWriteItems", Table: "orders.v2-main", Action: designer.ActionConditionCheck, KeyCondition: "tenant_id = :t AND order_key = :k",
			Condition: "#s = :open", Names: map[string]string{"#s": "status"}, Values: values(":open", designer.Str("open")),
		}}}},
	)
	_, m := exportMCP(t, d)
	byID := map[string]string{}
	for _, p := range m.AccessPatterns {
		byID[p.Pattern] = p.Implementation
	}
	for id, want := range map[string][]string{
		"90": {`--update-expression 'SET #s = :paid REMOVE #u'`, `--condition-expression 'attribute_exists(tenant_id) AND #s <> :paid'`,
			`--expression-attribute-names '{"#s":"status","#u":"unpaid_since"}'`, `--expression-attribute-values '{":paid":{"S":"PAID"}}'`},
		"91": {`"Update":{"TableName":"orders.v2-main","Key":{"order_key":{"S":"ORDER#1"},"tenant_id":{"S":"t1"}},"UpdateExpression":"ADD #n :one","ConditionExpression":"attribute_exists(tenant_id)","ExpressionAttributeNames":{"#n":"payments"},"ExpressionAttributeValues":{":one":{"N":"1"}}}`,
			`"ConditionCheck":{"TableName":"orders.v2-main","Key":{"order_key":{"S":"ORDER#1"},"tenant_id":{"S":"t1"}},"ConditionExpression":"#s = :open","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":open":{"S":"open"}}}`},
	} {
		for _, part := range want {
			if !strings.Contains(byID[id], part) {
				t.Errorf("pattern %s: %s\nlacks %s", id, byID[id], part)
			}
		}
	}
	if strings.Contains(byID["90"], `":t"`) || strings.Contains(byID["90"], `":k"`) {
		t.Errorf("pattern 90 carries its key's placeholders: %s", byID["90"])
	}
}
