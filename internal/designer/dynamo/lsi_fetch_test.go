package dynamo

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// The LSI guide's example: four items of about 300 bytes read through an LSI that projects about
// 200 bytes of each, with Select ALL_ATTRIBUTES. The entries are summed and rounded once (4 KB);
// each item fetched from the table is charged whole and rounded by itself (4 × 4 KB).
func TestQuery_lsiReadThatFetchesItemsChargesEachItemWhole(t *testing.T) {
	sk := designer.KeyAttribute{Name: "sk", Type: designer.S}
	tb := designer.Table{Name: "Events", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}, SortKey: &sk,
		LSIs: []designer.Index{{Name: "ByRank", SortKey: []designer.KeyAttribute{{Name: "rank", Type: designer.N}},
			Projection: designer.Projection{Type: designer.Include, Attributes: []string{"summary"}}}}}
	for i := range 4 {
		tb.Items = append(tb.Items, designer.SampleItem{ID: fmt.Sprint(i), Item: designer.Item{
			"pk": designer.Str("P"), "sk": designer.Str(fmt.Sprintf("E#%d", i)), "rank": designer.Num(fmt.Sprint(i)),
			"summary": designer.Str(strings.Repeat("s", 180)), "body": designer.Str(strings.Repeat("b", 100))}})
	}
	d := designer.Design{Tables: []designer.Table{tb}}
	for _, c := range []struct {
		name       string
		body       string
		table, lsi float64
	}{
		{"every attribute, strong", `"Select":"ALL_ATTRIBUTES","ConsistentRead":true`, 4, 1},
		{"every attribute, eventual", `"Select":"ALL_ATTRIBUTES"`, 2, 0.5},
		{"every attribute, a filter returns none", `"Select":"ALL_ATTRIBUTES","ConsistentRead":true,"FilterExpression":"attribute_exists(nothing)"`, 4, 1},
		{"the projected attributes only", `"ConsistentRead":true`, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw, err := EvaluateJSON(d, "Query", []byte(`{"TableName":"Events","IndexName":"ByRank","KeyConditionExpression":"pk = :p",
				"ExpressionAttributeValues":{":p":{"S":"P"}},"ReturnConsumedCapacity":"INDEXES",`+c.body+`}`))
			if err != nil {
				t.Fatal(err)
			}
			var resp struct {
				ConsumedCapacity struct {
					CapacityUnits         float64
					Table                 struct{ CapacityUnits float64 }
					LocalSecondaryIndexes map[string]struct{ CapacityUnits float64 }
				}
			}
			if err := json.Unmarshal(raw, &resp); err != nil {
				t.Fatal(err)
			}
			cc := resp.ConsumedCapacity
			if cc.Table.CapacityUnits != c.table || cc.LocalSecondaryIndexes["ByRank"].CapacityUnits != c.lsi || cc.CapacityUnits != c.table+c.lsi {
				t.Errorf("consumed %s; want table %v + LSI %v", raw[strings.Index(string(raw), `"ConsumedCapacity"`):], c.table, c.lsi)
			}
		})
	}
}
