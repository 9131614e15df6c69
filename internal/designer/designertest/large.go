package designertest

import (
	"fmt"
	"strings"

	"dynaloom/internal/designer"
)

// Size is the shape of a Large design. Items, GSIs and patterns are totals for the design, dealt
// out over its tables as evenly as they go (the first tables take one more when they do not divide).
type Size struct {
	Tables, Items, GSIs, Patterns int
}

// Large returns a design of the given size, the same for the same size: tables of tenants and their
// orders, text with pipes and line breaks, sparse and dense GSIs of four shapes in turn (one key, a sort key, multi-attribute keys;
// ALL, INCLUDE and KEYS_ONLY), and read patterns with every field filled, each a Query with a key
// condition on its table or on one of its indexes in turn. Each table with items has one finding, a
// "null" note, as a design being worked on does. Patterns of a design without tables are not mapped.
func Large(s Size) designer.Design {
	d := designer.Design{Name: "Large", Entities: []designer.Entity{{Name: "Tenant"}, {Name: "Order"}},
		Prose: designer.Prose{DesignPhilosophy: "One table per | region.", HotPartitions: "Tenants spread the load.", TradeOffs: "Some."}}
	number := 0
	for ti := range s.Tables {
		t := largeTable(ti, share(s.GSIs, s.Tables, ti), share(s.Items, s.Tables, ti))
		for p := range share(s.Patterns, s.Tables, ti) {
			number++
			op := largeOperation(t, p)
			if g := p%(len(t.GSIs)+1) - 1; g >= 0 && g%4 == 0 && t.GSIs[g].PatternAttributes == nil {
				t.GSIs[g].PatternAttributes = []designer.PatternAttributes{{Pattern: number, Attributes: []string{"total"}}}
			}
			d.Patterns = append(d.Patterns, largePattern(number, op))
		}
		d.Tables = append(d.Tables, t)
	}
	for number < s.Patterns {
		number++
		d.Patterns = append(d.Patterns, largePattern(number, nil))
	}
	return designer.Normalize(d)
}

// share is the part of total that the i-th of n takes.
func share(total, n, i int) int {
	if n == 0 {
		return 0
	}
	if i < total%n {
		return total/n + 1
	}
	return total / n
}

func largeTable(ti, gsis, items int) designer.Table {
	t := designer.Table{
		Name:    fmt.Sprintf("Table%02d", ti),
		Purpose: "Tenants and their orders", PartitionKeyWhy: "one partition per tenant", SortKeyWhy: "orders by date",
		PartitionKey: designer.KeyAttribute{Name: "tenant_id", Type: designer.S},
		SortKey:      &designer.KeyAttribute{Name: "record_key", Type: designer.S},
		EntityTypes: []designer.EntityType{
			{Entity: "Tenant", PKTemplate: "{tenant_id}", SKTemplate: "PROFILE"},
			{Entity: "Order", PKTemplate: "{tenant_id}", SKTemplate: "ORDER#{created_at}#{order_id}"},
		},
		Attributes: []designer.Attribute{
			{Name: "status", Type: designer.S}, {Name: "created_at", Type: designer.S}, {Name: "order_id", Type: designer.S},
			{Name: "total", Type: designer.N}, {Name: "note", Type: designer.S}, {Name: "expires_at", Type: designer.N},
			{Name: "tags", Type: designer.SS},
		},
		TTLAttribute: "expires_at",
	}
	for g := range gsis {
		t.GSIs = append(t.GSIs, largeIndex(g))
	}
	for i := range items {
		t.Items = append(t.Items, designer.SampleItem{ID: fmt.Sprintf("i%d", i+1), Item: largeItem(i, items)})
	}
	return t
}

// largeIndex is the g-th GSI of a table: four shapes in turn, numbered from the second round on.
func largeIndex(g int) designer.Index {
	key := func(name string, t designer.Type) designer.KeyAttribute {
		return designer.KeyAttribute{Name: name, Type: t}
	}
	var ix designer.Index
	switch g % 4 {
	case 0:
		ix = designer.Index{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{key("status", designer.S)}, SortKey: []designer.KeyAttribute{key("created_at", designer.S)},
			Projection: designer.Projection{Type: designer.All}, Sparse: true}
	case 1:
		ix = designer.Index{Name: "ByOrder", PartitionKey: []designer.KeyAttribute{key("order_id", designer.S)},
			Projection: designer.Projection{Type: designer.Include, Attributes: []string{"total", "note"}}, Sparse: true}
	case 2:
		ix = designer.Index{Name: "ByTotal", PartitionKey: []designer.KeyAttribute{key("tenant_id", designer.S)}, SortKey: []designer.KeyAttribute{key("total", designer.N)},
			Projection: designer.Projection{Type: designer.KeysOnly}, Sparse: true}
	case 3:
		ix = designer.Index{Name: "ByTenantStatus", PartitionKey: []designer.KeyAttribute{key("tenant_id", designer.S), key("status", designer.S)},
			SortKey: []designer.KeyAttribute{key("created_at", designer.S)}, Projection: designer.Projection{Type: designer.Include, Attributes: []string{"total"}}, Sparse: true}
	}
	if g >= 4 {
		ix.Name += fmt.Sprint(g/4 + 1)
	}
	return ix
}

// largeItem is the i-th of n items: every tenth a tenant's profile, the others its orders.
func largeItem(i, n int) designer.Item {
	tenant := designer.Str(fmt.Sprintf("tenant-%03d", i/10))
	it := designer.Item{"tenant_id": tenant, "record_key": designer.Str("PROFILE"), "note": designer.Str("a tenant | of the large design\nsecond line"),
		"tags": {Type: designer.SS, SS: []string{"a", "b|c"}}}
	if i%10 != 0 {
		date := fmt.Sprintf("2025-%02d-%02d", i%12+1, i%28+1)
		id := fmt.Sprintf("o%05d", i)
		it = designer.Item{
			"tenant_id": tenant, "record_key": designer.Str("ORDER#" + date + "#" + id), "status": designer.Str([]string{"OPEN", "SHIPPED", "CANCELLED"}[i%3]),
			"created_at": designer.Str(date), "order_id": designer.Str(id), "total": designer.Num(fmt.Sprintf("%d.%02d", i, i%100)),
			"expires_at": designer.Num("1767225600"), "note": designer.Str(strings.Repeat("n", i%50)),
		}
	}
	if i == n/2 {
		it["note"] = designer.Str("null")
	}
	return it
}

// largeOperation is the p-th pattern's read of t: on the table, then on each of its indexes in turn.
// Names stand for status and total, which DynamoDB reserves.
func largeOperation(t designer.Table, p int) *designer.Operation {
	tenant, open := designer.Str("tenant-001"), designer.Str("OPEN")
	op := designer.Operation{Op: "Query", Table: t.Name, KeyCondition: "tenant_id = :t", Values: map[string]designer.Value{":t": tenant}}
	target := p % (len(t.GSIs) + 1)
	if target == 0 {
		return &op
	}
	ix := t.GSIs[target-1]
	op.Index = ix.Name
	switch ix.PartitionKey[0].Name {
	case "status":
		op.KeyCondition, op.Names, op.Values = "#s = :s", map[string]string{"#s": "status"}, map[string]designer.Value{":s": open}
	case "order_id":
		op.KeyCondition, op.Projection, op.Names = "order_id = :o", "order_id, #n", map[string]string{"#n": "total"}
		op.Values = map[string]designer.Value{":o": designer.Str("o00011")}
	default:
		if len(ix.PartitionKey) == 2 {
			op.KeyCondition, op.Names, op.Values = "tenant_id = :t AND #s = :s", map[string]string{"#s": "status"}, map[string]designer.Value{":t": tenant, ":s": open}
		} else {
			op.KeyCondition, op.Names = "tenant_id = :t AND #n > :z", map[string]string{"#n": "total"}
			op.Values = map[string]designer.Value{":t": tenant, ":z": designer.Num("0")}
		}
	}
	return &op
}

func largePattern(n int, op *designer.Operation) designer.Pattern {
	p := designer.Pattern{Number: n, Description: fmt.Sprintf("Pattern %d", n), Type: designer.Read, Entities: []string{"Order"},
		PeakRPS: Ptr(100.0), AvgRPS: Ptr(10.0), LatencySLO: "<20 ms", Consistency: designer.Eventual, ResultBound: "50", SizeBand: "<1 KB"}
	if op != nil {
		p.Mapping.Operations = []designer.Operation{*op}
	}
	return p
}
