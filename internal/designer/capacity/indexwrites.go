package capacity

import (
	"math"
	"slices"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Index writes, as DynamoDB counts them (docs/capacity.md "Per operation"). A write that runs on
// the sample items takes the evaluator's index writes, which are exact, each given its reason. One
// that cannot run is estimated from its clauses: the attributes its update sets and removes (or the
// values it writes), each index's key attributes and projection, and whether the sample items of
// the pattern's entities in the table are in the index (carry all its key attributes).

// sampledIndexWrites are the index writes of res, a write run on the sample items of t, with
// their reasons; indexes it leaves alone are left out.
func sampledIndexWrites(t designer.Table, res dynamo.OperationResult) []IndexWriteLoad {
	var out []IndexWriteLoad
	for _, iw := range res.IndexWrites {
		if iw.Writes == 0 {
			continue
		}
		ix, local, _, _ := t.IndexByName(iw.Index)
		l := IndexWriteLoad{Index: iw.Index, Writes: float64(iw.Writes), Units: iw.Units, WritesFrom: FromSamples, SizeFrom: FromSamples}
		var reasons []string
		for _, ch := range iw.Changes {
			if ch.Change == dynamo.EntryMoved {
				l.KeyChange = true
			}
			if r := changeReason(t, ix, local, res, ch); !slices.Contains(reasons, r) {
				reasons = append(reasons, r)
			}
		}
		l.Reason = strings.Join(reasons, "; ")
		out = append(out, l)
	}
	return out
}

// changeReason says why a write made change ch to an entry of ix.
func changeReason(t designer.Table, ix designer.Index, local bool, res dynamo.OperationResult, ch dynamo.IndexChange) string {
	keys := indexKeyNames(ix, local)
	switch ch.Change {
	case dynamo.EntryMoved:
		return keyChangeReason(ix, local, differing(keys, ch.Before, ch.After))
	case dynamo.EntryChanged:
		var names []string
		for n := range ch.Before {
			names = append(names, n)
		}
		for n := range ch.After {
			if _, ok := ch.Before[n]; !ok {
				names = append(names, n)
			}
		}
		return projectedReason(ix, differing(names, ch.Before, ch.After))
	case dynamo.EntryAdded:
		if w, ok := itemWriteOf(t, res, ch.After); ok && w.Before != nil && res.Write == "UpdateItem" {
			return entersReason(ix, local, missingFrom(keys, w.Before))
		}
		if res.Write == "UpdateItem" {
			return "the item the update creates is in " + ix.Name + ": a put"
		}
		return "the item put is in " + ix.Name + ": a put"
	}
	// dynamo.EntryRemoved
	if w, ok := itemWriteOf(t, res, ch.Before); ok && w.After != nil && res.Write != "DeleteItem" {
		gone := missingFrom(keys, w.After)
		if res.Write == "UpdateItem" {
			return leavesReason(ix, local, gone)
		}
		return "the item put has no " + nameList(gone) + " (" + keyPhrase(ix, local, gone) + "): its old entry is deleted"
	}
	return deleteReason(ix)
}

// itemWriteOf is the write of res to the item whose index entry is entry (which holds the
// table's key).
func itemWriteOf(t designer.Table, res dynamo.OperationResult, entry designer.Item) (dynamo.ItemWrite, bool) {
	keys := designer.TableKeyNames(t)
	for _, w := range res.ItemWrites {
		if len(differing(keys, w.Key, entry)) == 0 {
			return w, true
		}
	}
	return dynamo.ItemWrite{}, false
}

// differing are those of names whose values differ between a and b (one holding it and the other
// not, or both with unequal values), sorted.
func differing(names []string, a, b designer.Item) []string {
	var out []string
	for _, n := range names {
		x, okA := a[n]
		y, okB := b[n]
		if okA != okB || okA && !x.Equal(y) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// missingFrom are those of names it does not hold.
func missingFrom(names []string, it designer.Item) []string {
	var out []string
	for _, n := range names {
		if _, ok := it[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

// indexKeyNames are ix's key attributes: a GSI's partition and sort attributes, an LSI's sort key.
func indexKeyNames(ix designer.Index, local bool) []string {
	var out []string
	if !local {
		for _, k := range ix.PartitionKey {
			out = append(out, k.Name)
		}
	}
	for _, k := range ix.SortKey {
		out = append(out, k.Name)
	}
	return out
}

// keyPhrase names what names are to ix: "the key of X" for an index of one key attribute, "the
// partition key of X", "a sort key attribute of X", or "keys of X" for several.
func keyPhrase(ix designer.Index, local bool, names []string) string {
	if len(names) != 1 {
		return "keys of " + ix.Name
	}
	if len(indexKeyNames(ix, local)) == 1 {
		return "the key of " + ix.Name
	}
	in := func(ks []designer.KeyAttribute) bool {
		return slices.ContainsFunc(ks, func(k designer.KeyAttribute) bool { return k.Name == names[0] })
	}
	switch {
	case !local && in(ix.PartitionKey) && len(ix.PartitionKey) == 1:
		return "the partition key of " + ix.Name
	case !local && in(ix.PartitionKey):
		return "a partition key attribute of " + ix.Name
	case len(ix.SortKey) == 1:
		return "the sort key of " + ix.Name
	}
	return "a sort key attribute of " + ix.Name
}

// nameList is "a", "a and b", "a, b and c".
func nameList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func keyChangeReason(ix designer.Index, local bool, names []string) string {
	if len(names) == 1 {
		return names[0] + ", " + keyPhrase(ix, local, names) + ", changes: a delete and a put"
	}
	return nameList(names) + ", " + keyPhrase(ix, local, names) + ", change: a delete and a put"
}

func projectedReason(ix designer.Index, names []string) string {
	verb := " is projected into "
	if len(names) > 1 {
		verb = " are projected into "
	}
	return nameList(names) + verb + ix.Name
}

func entersReason(ix designer.Index, local bool, names []string) string {
	verb := " is set"
	if len(names) > 1 {
		verb = " are set"
	}
	return nameList(names) + " (" + keyPhrase(ix, local, names) + ")" + verb + ": the item enters the sparse index"
}

func leavesReason(ix designer.Index, local bool, names []string) string {
	verb := " is removed"
	if len(names) > 1 {
		verb = " are removed"
	}
	return nameList(names) + " (" + keyPhrase(ix, local, names) + ")" + verb + ": the item leaves the sparse index"
}

func deleteReason(ix designer.Index) string {
	return "the item is deleted: its entry in " + ix.Name + " is deleted"
}

// entityItems are the sample items of one entity type of a table.
type entityItems struct {
	entity string
	items  []designer.Item
}

// writtenEntities are the entity types of t whose items a write of p writes, with their sample
// items: the pattern's entities that t holds, or else every entity type of t that has sample items
// (and the items that are of none, when there are some), or every one when none has.
func writtenEntities(t designer.Table, p designer.Pattern) []entityItems {
	var out []entityItems
	at := map[string]int{}
	for _, et := range t.EntityTypes {
		if slices.Contains(p.Entities, et.Entity) {
			if _, dup := at[et.Entity]; !dup {
				at[et.Entity] = len(out)
				out = append(out, entityItems{entity: et.Entity})
			}
		}
	}
	all := len(out) == 0
	if all {
		for _, et := range t.EntityTypes {
			if _, dup := at[et.Entity]; !dup {
				at[et.Entity] = len(out)
				out = append(out, entityItems{entity: et.Entity})
			}
		}
	}
	m := designer.NewEntityMatcher(t)
	for _, it := range t.Items {
		e := m.EntityType(it.Item)
		i, ok := at[e]
		if !ok && all {
			i, at[e] = len(out), len(out)
			out = append(out, entityItems{entity: e})
			ok = true
		}
		if ok {
			out[i].items = append(out[i].items, it.Item)
		}
	}
	if all && len(t.Items) > 0 {
		out = slices.DeleteFunc(out, func(e entityItems) bool { return len(e.items) == 0 })
	}
	return out
}

// membership says whether the sample items of an entity type are in an index.
type membership int

const (
	memberUnknown membership = iota // no sample item of the entity type
	memberNone                      // none is
	memberSome                      // some are: the index is sparse for the entity type
	memberAll                       // every one is
)

// carries reports whether it carries every one of names; the table's key attributes every item
// carries.
func carries(t designer.Table, it designer.Item, names []string) bool {
	keys := designer.TableKeyNames(t)
	for _, n := range names {
		if _, ok := it[n]; !ok && !slices.Contains(keys, n) {
			return false
		}
	}
	return true
}

// projects reports whether ix's entries hold attribute name beside the keys.
func projects(ix designer.Index, name string) bool {
	switch ix.Projection.Type {
	case designer.All:
		return true
	case designer.Include:
		return slices.Contains(ix.Projection.Attributes, name)
	}
	return false
}

// entrySize is the size of it's entry in ix: the table's and the index's key attributes it holds
// and the attributes ix projects.
func entrySize(t designer.Table, ix designer.Index, local bool, it designer.Item) int {
	keep := append(designer.TableKeyNames(t), indexKeyNames(ix, local)...)
	n := 0
	for name, v := range it {
		if slices.Contains(keep, name) || projects(ix, name) {
			n += len(name) + designer.ValueSize(v)
		}
	}
	return n
}

// clauseWrite is the estimate for one index and one entity type.
type clauseWrite struct {
	writes    float64
	keyChange bool
	reason    string
}

// writtenAttributes are the attributes op writes as values (the placeholders none of its
// expressions use, named after them), the table's key attributes left out.
func writtenAttributes(t designer.Table, op designer.Operation) designer.Item {
	used := map[string]bool{}
	for _, e := range []string{op.KeyCondition, op.Condition, op.Update} {
		for _, ph := range dynamo.ValuePlaceholders(e) {
			used[ph] = true
		}
	}
	keys := designer.TableKeyNames(t)
	out := designer.Item{}
	for ph, v := range op.Values {
		name, ok := strings.CutPrefix(ph, ":")
		if ok && name != "" && !used[ph] && !slices.Contains(keys, name) {
			out[name] = v
		}
	}
	return out
}

// clauseIndexWrites estimates what one request of op, a write of t that cannot run on the sample
// items, writes to t's indexes: n items of the pattern's entities, each entry sized from their
// sample items, or size bytes (sizeFrom) without any. Where the entity types written differ, the
// one that writes an index most is counted. Nil when the clauses do not say (an update that does
// not parse).
func clauseIndexWrites(t designer.Table, p designer.Pattern, op designer.Operation, n, size float64, sizeFrom string) []IndexWriteLoad {
	attrs := writtenAttributes(t, op)
	kind := op.Op
	if kind == "BatchWriteItem" || kind == "TransactWriteItems" {
		kind = dynamo.RowWrite(op, attrs)
	}
	var written, removed []string
	switch kind {
	case "ConditionCheck":
		return nil
	case "UpdateItem":
		if op.Update != "" {
			u, ok := dynamo.UpdateTouches(op)
			if !ok {
				return nil
			}
			written, removed = u.Written, u.Removed
		} else {
			for name := range attrs {
				written = append(written, name)
			}
			slices.Sort(written)
		}
	}
	entities := writtenEntities(t, p)
	if len(entities) == 0 {
		entities = []entityItems{{}}
	}
	var out []IndexWriteLoad
	each := func(list []designer.Index, local bool) {
		for _, ix := range list {
			var best clauseWrite
			var bestSize float64
			bestFrom := sizeFrom
			for _, e := range entities {
				w := estimateIndexWrite(t, ix, local, e, kind, attrs, written, removed)
				if w.writes <= best.writes {
					continue
				}
				best, bestSize, bestFrom = w, size, sizeFrom
				if s, ok := averageEntry(t, ix, local, e.items); ok {
					bestSize, bestFrom = s, FromSamples
				}
			}
			if best.writes == 0 {
				continue
			}
			writes := best.writes * n
			out = append(out, IndexWriteLoad{Index: ix.Name, Writes: writes, Units: writes * math.Max(ceil(bestSize/WriteUnitBytes), 1),
				KeyChange: best.keyChange, Reason: best.reason, WritesFrom: FromClauses, SizeFrom: bestFrom})
		}
	}
	each(t.GSIs, false)
	each(t.LSIs, true)
	return out
}

// averageEntry is the average size of the entries in ix of items, those in it if some are, else
// all of them as ix would project them.
func averageEntry(t designer.Table, ix designer.Index, local bool, items []designer.Item) (float64, bool) {
	keys := indexKeyNames(ix, local)
	sum, count := 0, 0
	for _, in := range []bool{true, false} {
		for _, it := range items {
			if !in || carries(t, it, keys) {
				sum += entrySize(t, ix, local, it)
				count++
			}
		}
		if count > 0 {
			return float64(sum) / float64(count), true
		}
	}
	return 0, false
}

// estimateIndexWrite is what a write of kind, writing attrs as values or, for an update, writing
// and removing those attributes, writes to ix for an item of the entity type e.
func estimateIndexWrite(t designer.Table, ix designer.Index, local bool, e entityItems, kind string, attrs designer.Item, written, removed []string) clauseWrite {
	keys := indexKeyNames(ix, local)
	m := memberUnknown
	if len(e.items) > 0 {
		in := 0
		for _, it := range e.items {
			if carries(t, it, keys) {
				in++
			}
		}
		switch in {
		case 0:
			m = memberNone
		case len(e.items):
			m = memberAll
		default:
			m = memberSome
		}
	}
	// qualified says what the estimate takes for granted where the samples do not say.
	qualified := func(r string) string {
		switch m {
		case memberSome:
			return r + " (for an item in it: only some " + entityWords(e) + "items are)"
		case memberUnknown:
			return r + " (counted as in it: no sample " + entityWords(e) + "item says)"
		}
		return r
	}
	switch kind {
	case "DeleteItem":
		if m == memberNone {
			return clauseWrite{}
		}
		return clauseWrite{writes: 1, reason: qualified(deleteReason(ix))}
	case "PutItem":
		if len(attrs) > 0 {
			if !carries(t, attrs, keys) {
				return clauseWrite{}
			}
			return clauseWrite{writes: 1, reason: "the item put carries " + nameList(keys) + " (" + keyPhrase(ix, local, keys) + "): a put"}
		}
		if m == memberNone {
			return clauseWrite{}
		}
		return clauseWrite{writes: 1, reason: qualified("the item put is in " + ix.Name + ": a put")}
	case "UpdateItem":
	default:
		return clauseWrite{}
	}
	var gone, set []string
	for _, k := range keys {
		switch {
		case slices.Contains(removed, k):
			gone = append(gone, k)
		case slices.Contains(written, k):
			set = append(set, k)
		}
	}
	if len(gone) > 0 {
		if m == memberNone {
			return clauseWrite{}
		}
		r := leavesReason(ix, local, gone)
		if m == memberUnknown {
			r = qualified(r)
		}
		return clauseWrite{writes: 1, reason: r}
	}
	if len(set) > 0 {
		// A SET of a key attribute some items lack brings them in; where every item carries it,
		// it moves the entry.
		lacking := false
		for _, it := range e.items {
			lacking = lacking || !carries(t, it, set)
		}
		if m == memberAll || m == memberUnknown || !lacking {
			if m == memberNone {
				return clauseWrite{}
			}
			return clauseWrite{writes: 2, keyChange: true, reason: qualified(keyChangeReason(ix, local, set))}
		}
		rest := slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return slices.Contains(set, k) })
		ready := false
		for _, it := range e.items {
			ready = ready || !carries(t, it, set) && carries(t, it, rest)
		}
		if !ready {
			return clauseWrite{} // the items lacking it lack another key attribute too
		}
		return clauseWrite{writes: 1, reason: entersReason(ix, local, set)}
	}
	var hit []string
	for _, a := range slices.Concat(written, removed) {
		if projects(ix, a) && !slices.Contains(hit, a) {
			hit = append(hit, a)
		}
	}
	if len(hit) == 0 || m == memberNone {
		return clauseWrite{}
	}
	slices.Sort(hit)
	return clauseWrite{writes: 1, reason: qualified(projectedReason(ix, hit))}
}

// entityWords names e's items for a reason: "Appointment ", or nothing where no entity type says.
func entityWords(e entityItems) string {
	if e.entity == "" {
		return ""
	}
	return e.entity + " "
}
