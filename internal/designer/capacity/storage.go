package capacity

import (
	"strings"

	"maps"
	"math"
	"reflect"

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

// measures are what a table's sample items measure, by entity (the entity type each matches, ""
// for none): how many, their bytes, and their entries in each index. Sums of whole bytes, so that
// taking an edited item's part out and its new part in gives what measuring again gives.
type measures struct {
	groups   map[string]*group
	all      *group
	entityOf map[string]string // by item id
	indexes  []string          // GSIs then LSIs, by name
}

// measure measures t's sample items and their index entries.
func measure(c *dynamo.Cache, t designer.Table) *measures {
	m := designer.NewEntityMatcher(t)
	ms := &measures{groups: map[string]*group{}, all: newGroup(), entityOf: make(map[string]string, len(t.Items))}
	for _, it := range t.Items {
		e := m.EntityType(it.Item)
		ms.entityOf[it.ID] = e
		ms.group(e).addItem(float64(designer.ItemSize(it.Item)), 1)
		ms.all.addItem(float64(designer.ItemSize(it.Item)), 1)
	}
	for i, ix := range allIndexes(t) {
		ms.indexes = append(ms.indexes, ix.Name)
		for _, row := range c.IndexItems(t, ix, i >= len(t.GSIs)).Rows {
			if g := ms.groups[ms.entityOf[row.ID]]; g != nil {
				g.addEntry(ix.Name, float64(row.Size), 1)
			}
			ms.all.addEntry(ix.Name, float64(row.Size), 1)
		}
	}
	return ms
}

// edited is ms for t, which is the table ms measured with the items before edited in place into
// after (the same ids and table keys, in the same places; capacity.editedItems): only those items
// are measured again. ms is not changed.
func (ms *measures) edited(t designer.Table, before, after []designer.Item) *measures {
	m := designer.NewEntityMatcher(t)
	out := &measures{groups: make(map[string]*group, len(ms.groups)), all: ms.all.clone(), entityOf: ms.entityOf, indexes: ms.indexes}
	for e, g := range ms.groups {
		out.groups[e] = g.clone()
	}
	ixs := allIndexes(t)
	ids := editedIDs(t, after)
	for i := range after {
		for k, it := range [2]designer.Item{before[i], after[i]} {
			sign := float64(2*k - 1) // the item before is taken out, the one after put in
			e := m.EntityType(it)
			if k == 1 && e != out.entityOf[ids[i]] {
				if sameMap(out.entityOf, ms.entityOf) {
					out.entityOf = maps.Clone(ms.entityOf)
				}
				out.entityOf[ids[i]] = e
			}
			size := float64(designer.ItemSize(it))
			out.group(e).addItem(sign*size, sign)
			out.all.addItem(sign*size, sign)
			one := t
			one.Items = []designer.SampleItem{{Item: it}}
			for j, ix := range ixs {
				rows := dynamo.IndexItems(one, ix, j >= len(t.GSIs)).Rows
				if len(rows) != 1 {
					continue
				}
				out.group(e).addEntry(ix.Name, sign*float64(rows[0].Size), sign)
				out.all.addEntry(ix.Name, sign*float64(rows[0].Size), sign)
			}
		}
	}
	for e, g := range out.groups {
		if g.empty() {
			delete(out.groups, e)
		}
	}
	return out
}

// editedIDs are the ids of t's items that are the items after, in their order.
func editedIDs(t designer.Table, after []designer.Item) []string {
	ids := make([]string, 0, len(after))
	for _, it := range t.Items {
		if len(ids) < len(after) && sameMap(it.Item, after[len(ids)]) {
			ids = append(ids, it.ID)
		}
	}
	return ids
}

func sameMap[K comparable, V any](a, b map[K]V) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func allIndexes(t designer.Table) []designer.Index {
	return append(append(make([]designer.Index, 0, len(t.GSIs)+len(t.LSIs)), t.GSIs...), t.LSIs...)
}

func newGroup() *group { return &group{entries: map[string]int{}, entryBytes: map[string]float64{}} }

func (ms *measures) group(e string) *group {
	g := ms.groups[e]
	if g == nil {
		g = newGroup()
		ms.groups[e] = g
	}
	return g
}

func (g *group) addItem(bytes, n float64) {
	g.samples += int(n)
	g.bytes += bytes
}

func (g *group) addEntry(index string, bytes, n float64) {
	g.entries[index] += int(n)
	g.entryBytes[index] += bytes
	if g.entries[index] == 0 {
		delete(g.entries, index)
		delete(g.entryBytes, index)
	}
}

func (g *group) empty() bool { return g.samples == 0 && len(g.entries) == 0 }

func (g *group) clone() *group {
	return &group{samples: g.samples, bytes: g.bytes, entries: maps.Clone(g.entries), entryBytes: maps.Clone(g.entryBytes)}
}

// tableStorage works out how much t and its indexes hold. Each entity type of the table with a
// count (or a growth, at a horizon past today) stands for that many items at the horizon
// (scaledCount), each of the average size of its sample items (of the table's sample items where
// it has none); its share of an index's entries is the share of its sample items that have one, at
// their average entry size. Sample items of an entity without a count count as themselves. Every
// item and entry adds StorageOverheadBytes.
func tableStorage(d designer.Design, c *dynamo.Cache, t designer.Table) tableStorages {
	return storageFrom(d, t, measure(c, t))
}

// storageFrom is tableStorage of t, whose sample items measure ms.
func storageFrom(d designer.Design, t designer.Table, ms *measures) tableStorages {
	groups, all, indexes := ms.groups, ms.all, ms.indexes
	months := horizonMonths(d.Capacity)
	// counted is how many items each entity of the table stands for, in the order of its SK taxonomy.
	type counted struct {
		name  string
		count float64
	}
	var counts []counted
	var sources []string
	seen := map[string]bool{}
	for _, et := range t.EntityTypes {
		e, _, ok := d.EntityByName(et.Entity)
		if !ok || seen[e.Name] {
			continue
		}
		n, source, ok := scaledCount(e, months)
		if !ok {
			continue
		}
		seen[e.Name] = true
		counts = append(counts, counted{e.Name, n})
		sources = append(sources, source)
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
	out.table.Sources, out.table.HorizonMonths = sources, months
	for _, ix := range indexes {
		st := storageOf(entries[ix], entryBytes[ix], from)
		st.Sources, st.HorizonMonths = sources, months
		if n, source, ok := stateEntries(d, t, ix); ok {
			// A sparse index of the items in a state holds as many as the requirement says are in
			// it, at the entry size its samples have (the table's items' without any).
			size := st.AvgItemBytes
			if st.Items == 0 {
				size = out.table.AvgItemBytes
			}
			st = storageOf(n, n*(size+StorageOverheadBytes), FromDesign)
			st.Sources = []string{source}
		}
		out.index[ix] = st
	}
	return out
}

// stateEntries is how many entries the sparse index of t named ix holds when it holds the items
// of an entity in a state the entity counts (designer.Entity.InState): an index whose name or
// partition-key attributes have the state's word ("OpenByClinic", "open_clinic_id" for "open").
func stateEntries(d designer.Design, t designer.Table, name string) (float64, string, bool) {
	ix, _, _, ok := t.IndexByName(name)
	if !ok || !ix.Sparse {
		return 0, "", false
	}
	named := map[string]bool{}
	for _, w := range nameWords(ix.Name) {
		named[w] = true
	}
	for _, k := range ix.PartitionKey {
		for _, w := range nameWords(k.Name) {
			named[w] = true
		}
	}
	total, parts := 0.0, []string(nil)
	seen := map[string]bool{}
	for _, et := range t.EntityTypes {
		e, _, ok := d.EntityByName(et.Entity)
		if !ok || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		for _, sc := range e.InState {
			if named[strings.ToLower(sc.State)] {
				total += float64(sc.Count)
				parts = append(parts, Figure(float64(sc.Count))+" "+pluralWords(e.Name, float64(sc.Count))+" "+sc.State+fromText(sc.From))
			}
		}
	}
	if parts == nil {
		return 0, "", false
	}
	return total, strings.Join(parts, " + "), true
}

// horizonMonths is how many months ahead storage is worked out: the team's setting, else 0 (today).
func horizonMonths(c designer.CapacitySettings) float64 {
	if c.HorizonMonths == nil {
		return 0
	}
	return bounded(*c.HorizonMonths, 0, designer.MaxHorizonMonths)
}

// scaledCount is how many items of e there are months from now, and how that was worked out: its
// count, plus its growth over the months, but never more than its retention keeps (the items of
// growth × retention, or its count today where that is more). ok is false when e has no count and
// no growth to count from.
func scaledCount(e designer.Entity, months float64) (n float64, source string, ok bool) {
	yearly, grows := e.GrowthPerYear()
	grows = grows && months > 0
	if e.Count == nil && !grows {
		return 0, "", false
	}
	noun := func(v float64) string { return pluralWords(e.Name, v) }
	if e.Count != nil {
		n = upTo(float64(*e.Count))
		source = Figure(n) + " " + noun(n) + fromText(e.CountFrom)
	}
	if !grows {
		return n, source, true
	}
	grown := upTo(n + yearly*months/12)
	more := Figure(yearly) + " a year" + fromText(e.GrowthFrom) + " × " + Figure(months) + " months"
	if source == "" {
		source = more
	} else {
		source += " + " + more
	}
	if years, kept := e.RetentionYears(); kept {
		if limit := math.Max(n, upTo(yearly*years)); grown > limit {
			return limit, source + ", at most " + Figure(yearly) + " a year × " +
				designer.FormatRetention(e.Retention, e.RetentionUnit) + " kept" + fromText(e.RetentionFrom) + " = " + Figure(limit), true
		}
	}
	return grown, source + " = " + Figure(grown), true
}

// fromText is where a figure came from, in brackets after it: " (read from: …)", " (team)".
func fromText(from string) string {
	if from == "" {
		return ""
	}
	return " (" + from + ")"
}

func storageOf(items, bytes float64, from string) Storage {
	s := Storage{Items: items, ItemsFrom: from, Bytes: bytes, GB: bytes / GB}
	if items > 0 {
		s.AvgItemBytes = bytes/items - StorageOverheadBytes
	}
	return s
}
