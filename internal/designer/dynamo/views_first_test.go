package dynamo

import (
	"fmt"
	"reflect"
	"testing"

	"dynaloom/internal/designer"
)

func TestIndexItemsFirst_buildsOnlyTheFirstEntriesOfTheSameOrder(t *testing.T) {
	t.Parallel()
	tbl := designer.Table{
		Name:         "Orders",
		PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
		GSIs: []designer.Index{{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}},
			Projection: designer.Projection{Type: designer.Include, Attributes: []string{"total"}}}},
	}
	for i := 0; i < 30; i++ {
		it := designer.Item{"pk": designer.Str(fmt.Sprintf("P%02d", i)), "total": designer.Num(fmt.Sprint(i))}
		if i%4 != 0 {
			it["status"] = designer.Str(fmt.Sprintf("S%d", 9-i%7))
		}
		tbl.Items = append(tbl.Items, designer.SampleItem{ID: fmt.Sprintf("i%d", i+1), Item: it})
	}
	all := IndexItems(tbl, tbl.GSIs[0], false)
	first := IndexItemsFirst(tbl, tbl.GSIs[0], false, 5)
	if all.Total != len(all.Rows) || first.Total != all.Total || all.Total != 22 {
		t.Fatalf("totals: all %d (%d rows), first %d", all.Total, len(all.Rows), first.Total)
	}
	if !reflect.DeepEqual(first.Rows, all.Rows[:5]) || !reflect.DeepEqual(first.Excluded, all.Excluded) {
		t.Fatalf("first 5 = %+v, want %+v", first.Rows, all.Rows[:5])
	}
}
