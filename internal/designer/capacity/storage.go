package capacity

import (
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// tableStorages are the storage of a table and of each of its indexes, by name.
type tableStorages struct {
	table Storage
	index map[string]Storage
}

// group is what the sample items of one entity (or of no known entity, "") measure.
type group struct {
	samples int
	bytes   float64
	// entries and entryBytes count the group's entries in each index.
	entries    map[string]int
	entryBytes map[string]float64
}

// tableStorage works out how much t and its indexes hold. Each entity type of the table with a
// count stands for that many items, each of the average size of its sample items (of the table's
// sample items where it has none); its share of an index's entries is the share of its sample items
// that have one, at their average entry size. Sample items of an entity without a count count as
// themselves. Every item and entry adds StorageOverheadBytes.
func tableStorage(d designer.Design, c *dynamo.Cache, t designer.Table) tableStorages {
	m := designer.NewEntityMatcher(t)
	groups := map[string]*group{}
	entityOf := make(map[string]string, len(t.Items))
	all := &group{entries: map[string]int{}, entryBytes: map[string]float64{}}
	for _, it := range t.Items {
		e := m.EntityType(it.Item)
		entityOf[it.ID] = e
		g := groups[e]
		if g == nil {
			g = &group{entries: map[string]int{}, entryBytes: map[string]float64{}}
			groups[e] = g
		}
		size := float64(designer.ItemSize(it.Item))
		g.samples++
		g.bytes += size
		all.samples++
		all.bytes += size
	}
	indexes := make([]string, 0, len(t.GSIs)+len(t.LSIs))
	for i, ix := range append(append([]designer.Index{}, t.GSIs...), t.LSIs...) {
		indexes = append(indexes, ix.Name)
		for _, row := range c.IndexItems(t, ix, i >= len(t.GSIs)).Rows {
			if g := groups[entityOf[row.ID]]; g != nil {
				g.entries[ix.Name]++
				g.entryBytes[ix.Name] += float64(row.Size)
			}
			all.entries[ix.Name]++
			all.entryBytes[ix.Name] += float64(row.Size)
		}
	}

	// counted is how many items each entity of the table stands for, in the order of its SK taxonomy.
	type counted struct {
		name  string
		count float64
	}
	var counts []counted
	seen := map[string]bool{}
	for _, et := range t.EntityTypes {
		e, _, ok := d.EntityByName(et.Entity)
		if !ok || e.Count == nil || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		counts = append(counts, counted{e.Name, float64(*e.Count)})
	}

	out := tableStorages{index: map[string]Storage{}}
	var items, bytes float64
	entries := map[string]float64{}
	entryBytes := map[string]float64{}
	for _, ct := range counts {
		g := groups[ct.name]
		if g == nil || g.samples == 0 {
			g = all
		}
		avg := 0.0
		if g.samples > 0 {
			avg = g.bytes / float64(g.samples)
		}
		items += ct.count
		bytes += ct.count * (avg + StorageOverheadBytes)
		for _, ix := range indexes {
			if g.samples == 0 || g.entries[ix] == 0 {
				continue
			}
			n := ct.count * float64(g.entries[ix]) / float64(g.samples)
			entries[ix] += n
			entryBytes[ix] += n * (g.entryBytes[ix]/float64(g.entries[ix]) + StorageOverheadBytes)
		}
	}
	from := FromSamples
	if len(counts) > 0 {
		from = FromDesign
	}
	for name, g := range groups {
		if seen[name] {
			continue
		}
		items += float64(g.samples)
		bytes += g.bytes + float64(g.samples)*StorageOverheadBytes
		for _, ix := range indexes {
			entries[ix] += float64(g.entries[ix])
			entryBytes[ix] += g.entryBytes[ix] + float64(g.entries[ix])*StorageOverheadBytes
		}
	}
	out.table = storageOf(items, bytes, from)
	for _, ix := range indexes {
		out.index[ix] = storageOf(entries[ix], entryBytes[ix], from)
	}
	return out
}

func storageOf(items, bytes float64, from string) Storage {
	s := Storage{Items: items, ItemsFrom: from, Bytes: bytes, GB: bytes / GB}
	if items > 0 {
		s.AvgItemBytes = bytes/items - StorageOverheadBytes
	}
	return s
}
