package designer

import (
	"fmt"
	"reflect"
	"testing"
)

func TestIndexItemsFirst_buildsOnlyTheFirstEntriesOfTheSameOrder(t *testing.T) {
	tbl := Table{
		Name:         "Orders",
		PartitionKey: KeyAttribute{Name: "pk", Type: S},
		GSIs: []Index{{Name: "ByStatus", PartitionKey: []KeyAttribute{{Name: "status", Type: S}},
			Projection: Projection{Type: Include, Attributes: []string{"total"}}}},
	}
	for i := 0; i < 30; i++ {
		it := Item{"pk": Str(fmt.Sprintf("P%02d", i)), "total": Num(fmt.Sprint(i))}
		if i%4 != 0 {
			it["status"] = Str(fmt.Sprintf("S%d", 9-i%7))
		}
		tbl.Items = append(tbl.Items, SampleItem{ID: fmt.Sprintf("i%d", i+1), Item: it})
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
