package dynamo

import (
	"reflect"
	"testing"

	"dynaloom/internal/designer"
)

func TestReadPartition(t *testing.T) {
	t.Parallel()
	tb := designer.Table{Name: "Orders", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
		GSIs: []designer.Index{{Name: "ByTenantStatus", PartitionKey: []designer.KeyAttribute{{Name: "tenant", Type: designer.S}, {Name: "status", Type: designer.S}}}},
		LSIs: []designer.Index{{Name: "ByDate", SortKey: []designer.KeyAttribute{{Name: "date", Type: designer.S}}}}}
	vals := map[string]designer.Value{":p": designer.Str("P1"), ":t": designer.Str("T1"), ":s": designer.Str("OPEN"), ":d": designer.Str("2025")}
	tests := []struct {
		name string
		op   designer.Operation
		want designer.Item // nil: any item may be read
	}{
		{"table query", designer.Operation{Op: "Query", KeyCondition: "pk = :p AND sk > :d"}, designer.Item{"pk": designer.Str("P1")}},
		{"value first", designer.Operation{Op: "Query", KeyCondition: ":p = pk"}, designer.Item{"pk": designer.Str("P1")}},
		{"names", designer.Operation{Op: "Query", KeyCondition: "#k = :p", Names: map[string]string{"#k": "pk"}}, designer.Item{"pk": designer.Str("P1")}},
		{"get", designer.Operation{Op: "GetItem", KeyCondition: "pk = :p AND sk = :d"}, designer.Item{"pk": designer.Str("P1")}},
		{"GSI of two attributes", designer.Operation{Op: "Query", Index: "ByTenantStatus", KeyCondition: "tenant = :t AND #s = :s", Names: map[string]string{"#s": "status"}},
			designer.Item{"tenant": designer.Str("T1"), "status": designer.Str("OPEN")}},
		{"GSI missing one", designer.Operation{Op: "Query", Index: "ByTenantStatus", KeyCondition: "tenant = :t"}, nil},
		{"LSI reads the table's partition", designer.Operation{Op: "Query", Index: "ByDate", KeyCondition: "pk = :p AND #d > :d", Names: map[string]string{"#d": "date"}},
			designer.Item{"pk": designer.Str("P1")}},
		{"range on the partition key", designer.Operation{Op: "Query", KeyCondition: "pk > :p"}, nil},
		{"batch of keys", designer.Operation{Op: "BatchGetItem", KeyCondition: "pk IN (:p, :t)"}, nil},
		{"scan", designer.Operation{Op: "Scan", Filter: "pk = :p"}, nil},
		{"write", designer.Operation{Op: "PutItem", KeyCondition: "pk = :p"}, nil},
		{"unknown index", designer.Operation{Op: "Query", Index: "Nope", KeyCondition: "pk = :p"}, nil},
		{"unreadable", designer.Operation{Op: "Query", KeyCondition: "pk = = :p"}, nil},
		{"undefined value", designer.Operation{Op: "Query", KeyCondition: "pk = :nope"}, nil},
	}
	for _, tt := range tests {
		tt.op.Table, tt.op.Values = "Orders", vals
		got, ok := ReadPartition(tb, tt.op)
		if ok != (tt.want != nil) || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: ReadPartition = %v, %v; want %v", tt.name, got, ok, tt.want)
		}
	}
	key := designer.Item{"pk": designer.Num("10")}
	for _, c := range []struct {
		it   designer.Item
		want bool
	}{
		{designer.Item{"pk": designer.Num("10.0"), "x": designer.Str("y")}, true},
		{designer.Item{"pk": designer.Str("10")}, false},
		{designer.Item{"pk": designer.Num("11")}, false},
		{designer.Item{"other": designer.Num("10")}, false},
	} {
		if got := InPartition(c.it, key); got != c.want {
			t.Errorf("InPartition(%v) = %v, want %v", c.it, got, c.want)
		}
	}
}

// ReadPartitionKey's Holds answers as InPartition does with ReadPartition's key, for reads of a
// table's key, of a GSI key of two attributes and of an LSI, on items in, beside and outside the
// partition.
func TestReadPartitionKey_holdsWhatInPartitionHolds(t *testing.T) {
	t.Parallel()
	tb := designer.Table{Name: "Orders", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
		GSIs: []designer.Index{{Name: "ByTenantStatus", PartitionKey: []designer.KeyAttribute{{Name: "tenant", Type: designer.S}, {Name: "status", Type: designer.N}}}},
		LSIs: []designer.Index{{Name: "ByDate", SortKey: []designer.KeyAttribute{{Name: "date", Type: designer.S}}}}}
	vals := map[string]designer.Value{":p": designer.Str("P1"), ":t": designer.Str("T1"), ":s": designer.Num("10"), ":d": designer.Str("2025")}
	ops := []designer.Operation{
		{Op: "Query", KeyCondition: "pk = :p"},
		{Op: "Query", Index: "ByTenantStatus", KeyCondition: "tenant = :t AND #s = :s", Names: map[string]string{"#s": "status"}},
		{Op: "Query", Index: "ByDate", KeyCondition: "pk = :p AND #d > :d", Names: map[string]string{"#d": "date"}},
		{Op: "Scan"},
	}
	items := []designer.Item{
		{"pk": designer.Str("P1"), "tenant": designer.Str("T1"), "status": designer.Num("10.0")},
		{"pk": designer.Str("P2"), "tenant": designer.Str("T1"), "status": designer.Num("11")},
		{"pk": designer.Num("1"), "tenant": designer.Str("T1")},
		{"tenant": designer.Str("T2"), "status": designer.Str("10")},
		{},
	}
	for _, op := range ops {
		op.Table, op.Values = "Orders", vals
		key, ok := ReadPartition(tb, op)
		pk, pkOK := ReadPartitionKey(tb, op)
		if ok != pkOK {
			t.Fatalf("%s: ReadPartitionKey says %v, ReadPartition %v", op.KeyCondition, pkOK, ok)
		}
		if !ok {
			continue
		}
		for _, it := range items {
			if got, want := pk.Holds(it), InPartition(it, key); got != want {
				t.Errorf("%s: Holds(%v) = %v, InPartition %v", op.KeyCondition, it, got, want)
			}
		}
	}
}
