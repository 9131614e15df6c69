package derive

import (
	"fmt"

	"dynaloom/internal/designer"
)

// largeDesign is a design of 5·scale tables, each of 2,000 sample items, 20 GSIs and 100 read
// patterns: at scale 1 the 10,000 items, 500 patterns and 100 GSIs of issue 14's bar. Patterns
// query the table and its GSIs by key, read single items, filter and page, and about one in four
// states its expected result, so that every MAP rule has work.
func largeDesign(scale int) designer.Design {
	const items, gsis, patterns = 2000, 20, 100
	d := designer.Design{Name: fmt.Sprintf("Large ×%d", scale)}
	for ti := range 5 * scale {
		name := fmt.Sprintf("T%d", ti)
		d.Entities = append(d.Entities, designer.Entity{Name: "E" + name, Attributes: []designer.Attribute{{Name: "pk", Type: designer.S}}})
		t := designer.Table{Name: name, PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
			SortKey: &designer.KeyAttribute{Name: "sk", Type: designer.S}, BillingMode: "PAY_PER_REQUEST",
			Attributes: []designer.Attribute{{Name: "total", Type: designer.N}}}
		for g := range gsis {
			ix := designer.Index{Name: fmt.Sprintf("G%d", g), PartitionKey: []designer.KeyAttribute{{Name: fmt.Sprintf("g%d", g), Type: designer.S}},
				SortKey: []designer.KeyAttribute{{Name: "sk", Type: designer.S}}, Projection: designer.Projection{Type: designer.All}}
			switch g % 3 {
			case 1:
				ix.Projection = designer.Projection{Type: designer.KeysOnly}
			case 2:
				ix.Projection = designer.Projection{Type: designer.Include, Attributes: []string{"total"}}
			}
			t.GSIs = append(t.GSIs, ix)
		}
		for i := range items {
			it := designer.Item{
				"pk": designer.Str(fmt.Sprintf("P%d", i/20)), "sk": designer.Str(fmt.Sprintf("S%05d", i)),
				"total": designer.Num(fmt.Sprint(i % 997)), "status": designer.Str([]string{"OPEN", "SHIPPED", "DONE"}[i%3]),
			}
			for g := range gsis {
				if (i+g)%7 != 0 { // GSIs are sparse
					it[fmt.Sprintf("g%d", g)] = designer.Str(fmt.Sprintf("V%d", (i*(g+1))%50))
				}
			}
			t.Items = append(t.Items, designer.SampleItem{ID: fmt.Sprintf("i%d", i+1), Item: it})
		}
		for p := range patterns {
			n := ti*patterns + p + 1
			limit := 25
			op := designer.Operation{Op: "Query", Table: name}
			switch p % 4 {
			case 0:
				op.KeyCondition, op.Values = "pk = :pk", map[string]designer.Value{":pk": designer.Str(fmt.Sprintf("P%d", p))}
				keys := []designer.Item{}
				for i := p * 20; i < p*20+20; i++ {
					keys = append(keys, designer.Item{"pk": designer.Str(fmt.Sprintf("P%d", p)), "sk": designer.Str(fmt.Sprintf("S%05d", i))})
				}
				op.Expected = &keys
			case 1:
				op.Index, op.KeyCondition = fmt.Sprintf("G%d", p%gsis), "g = :v"
				op.KeyCondition = fmt.Sprintf("g%d = :v", p%gsis)
				op.Values = map[string]designer.Value{":v": designer.Str(fmt.Sprintf("V%d", p%50))}
			case 2:
				op.Op, op.KeyCondition = "GetItem", "pk = :pk AND sk = :sk"
				op.Values = map[string]designer.Value{":pk": designer.Str(fmt.Sprintf("P%d", p)), ":sk": designer.Str(fmt.Sprintf("S%05d", p*20))}
			case 3:
				op.Index = fmt.Sprintf("G%d", (p+7)%gsis)
				op.KeyCondition = fmt.Sprintf("g%d = :v AND sk > :from", (p+7)%gsis)
				op.Filter, op.Limit = "total > :min", &limit
				op.Values = map[string]designer.Value{":v": designer.Str(fmt.Sprintf("V%d", p%50)), ":from": designer.Str("S00100"), ":min": designer.Num("10")}
			}
			peak, avg := 100.0, 10.0
			d.Patterns = append(d.Patterns, designer.Pattern{Number: n, Description: fmt.Sprintf("Pattern %d", n), Type: designer.Read,
				PeakRPS: &peak, AvgRPS: &avg, LatencySLO: "<20 ms", Consistency: designer.Eventual, ResultBound: "50", SizeBand: "<1 KB",
				Entities: []string{"E" + name}, Mapping: designer.Mapping{Operations: []designer.Operation{op}}})
		}
		d.Tables = append(d.Tables, t)
	}
	return designer.Normalize(d)
}
