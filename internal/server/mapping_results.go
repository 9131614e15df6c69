package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
	"dynaloom/web/templates"
)

// An operation's result on the mapping step: what it reads or writes of the sample items, and
// the expected result a person marks against it.

// resultView runs the operation against the sample items: derived on every render, never stored.
func resultView(d *designContext, p designer.Pattern, i int, op designer.Operation) templates.ResultView {
	base := "/d/" + d.Token
	design := d.Record.Design
	r := templates.ResultView{ID: elemID("result", p.ID, itoa(i))}
	t, _, ok := design.TableByName(op.Table)
	if !ok {
		r.Error = "Choose the table this operation reads."
		return r
	}
	// Which items come back does not depend on the projection, and the result box shows keys: run it
	// unprojected so a projection that leaves out a key still shows, and is judged on, its items.
	unprojected := op
	unprojected.Projection = ""
	res := d.derived().Cache().RunOperation(design, unprojected)
	if res.Error != "" {
		r.Error, r.Hint = res.Error, res.Hint
		return r
	}
	if designer.IsWriteOp(op.Op) {
		writeResult(&r, t, op, res)
		return r
	}
	r.Summary = fmt.Sprintf("%d returned · %d read · %s", res.Count, res.ScannedCount, unitsNoun(res.CapacityUnits, "capacity unit"))
	if stated, pass := dynamo.Verdict(t, unprojected, res); stated {
		r.Verdict = "fail"
		if pass {
			r.Verdict = "pass"
		}
	}
	returned := make([]designer.Item, len(res.Items))
	for j, it := range res.Items {
		returned[j] = designer.TableKey(t, it)
	}
	var expected []designer.Item
	if op.Expected != nil {
		expected = *op.Expected
	}
	toggle := func(key designer.Item, on bool) templates.Button {
		raw, _ := json.Marshal(key) // an Item of valid values always encodes
		label, text := "Expect "+designer.KeyText(t, key), "Expect"
		if on {
			label, text = "Stop expecting "+designer.KeyText(t, key), "Expected ✓"
		}
		return templates.Button{Label: label, Text: text, Action: base + "/mapping/expected",
			Params: []templates.Param{{Name: "pattern", Value: p.ID}, {Name: "index", Value: itoa(i)}, {Name: "key", Value: string(raw)}},
			Target: "#" + r.ID, TestID: "toggle-expected"}
	}
	for _, row := range designer.TableRows(t) {
		key := designer.TableKey(t, row.Item)
		isReturned := containsKey(t, returned, key)
		isExpected := containsKey(t, expected, key)
		if len(r.Rows) >= maxResultRows && !isReturned && !isExpected {
			r.More++
			continue
		}
		r.Rows = append(r.Rows, templates.ResultRow{Key: designer.KeyText(t, key), Returned: isReturned, Expected: isExpected, Toggle: toggle(key, isExpected)})
	}
	if op.Expected != nil {
		r.Clear = &templates.Button{Label: "Clear the expected result", Text: "Clear expected", Action: base + "/mapping/expected/clear",
			Params: []templates.Param{{Name: "pattern", Value: p.ID}, {Name: "index", Value: itoa(i)}}, Target: "#" + r.ID}
	}
	return r
}

func containsKey(t designer.Table, keys []designer.Item, key designer.Item) bool {
	for _, k := range keys {
		if designer.SameKey(t, k, key) {
			return true
		}
	}
	return false
}

// toggleExpected marks or unmarks one item as part of an operation's expected result and answers
// with the result box.
func (s *Server) toggleExpected(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	var key designer.Item
	if err := json.Unmarshal([]byte(form.get("key")), &key); err != nil {
		return badInput("key: not an item key in DynamoDB JSON: %v", err)
	}
	return s.apply(c, mappingBack(c), designer.ToggleExpected{Pattern: form.get("pattern"), Index: i, Key: key}, resultPart(form.get("pattern"), i))
}

func (s *Server) clearExpected(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	i, err := form.int("index")
	if err != nil {
		return err
	}
	return s.apply(c, mappingBack(c), designer.ClearExpected{Pattern: form.get("pattern"), Index: i}, resultPart(form.get("pattern"), i))
}

// resultPart answers with the result box of operation i of pattern.
func resultPart(pattern string, i int) part {
	return savedPart(func(d *designContext) (templ.Component, error) {
		p, _, ok := d.Record.Design.PatternByID(pattern)
		if !ok || i < 0 || i >= len(p.Mapping.Operations) {
			return nil, badInput("index: pattern %q has no operation %d", pattern, i+1)
		}
		return templ.Join(templates.ResultBox(resultView(d, p, i, p.Mapping.Operations[i]), d.canEdit(), false), verdictOOB(d, p)), nil
	})
}

func formatUnits(u float64) string { return strconv.FormatFloat(u, 'f', -1, 64) }

// countNoun writes a count with its noun, "1 item" or "3 items".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return itoa(n) + " " + noun + "s"
}

// unitsNoun writes capacity units with their noun, "1 write unit" or "0.5 write units".
func unitsNoun(u float64, noun string) string {
	if s := formatUnits(u); s != "1" {
		return s + " " + noun + "s"
	}
	return "1 " + noun
}

// writeResult fills a write's result box: run on a scratch copy of the items, what the condition
// said, each item before and after, what became of each index's entries, and the write units.
func writeResult(r *templates.ResultView, t designer.Table, op designer.Operation, res dynamo.OperationResult) {
	r.Write = true
	indexUnits, indexWrites := 0.0, 0
	for _, w := range res.IndexWrites {
		indexUnits += w.Units
		indexWrites += w.Writes
	}
	r.Summary = fmt.Sprintf("%s %s on %s · write units: %s (table) + %s (%s) = %s", writeVerbs[res.Write], countNoun(res.Keys, "item"), t.Name,
		formatUnits(res.CapacityUnits), formatUnits(indexUnits), countNoun(indexWrites, "index write"), formatUnits(res.CapacityUnits+indexUnits))
	switch {
	case res.ConditionFailed && op.Op == "TransactWriteItems":
		r.Condition = "fails"
		r.ConditionText = "TransactionCanceledException [ConditionalCheckFailed]: the condition " + op.Condition +
			" does not hold for an item, so the transaction writes nothing (the attempt still costs " + unitsNoun(res.CapacityUnits, "write unit") + ")."
	case res.ConditionFailed:
		r.Condition = "fails"
		r.ConditionText = "ConditionalCheckFailed: the condition " + op.Condition + " does not hold for this item, so nothing is written" +
			" (the attempt still costs " + unitsNoun(res.CapacityUnits, "write unit") + ")."
	case op.Condition != "":
		r.Condition = "holds"
		r.ConditionText = "The condition " + op.Condition + " holds: the write goes ahead."
	}
	for _, w := range res.ItemWrites {
		r.Items = append(r.Items, itemChange(t, w))
	}
	for _, w := range res.IndexWrites {
		line := w.Index + ": no change"
		for _, c := range w.Changes {
			line = w.Index + ": " + entryChangeText(t, w.Index, c)
		}
		if w.Writes > 0 {
			line += " · " + countNoun(w.Writes, "index write") + " · " + unitsNoun(w.Units, "write unit")
		}
		r.IndexWrites = append(r.IndexWrites, line)
	}
}

// itemChange is one key's item before and after a write, attribute by attribute, the table's key
// first.
func itemChange(t designer.Table, w dynamo.ItemWrite) templates.ItemChange {
	out := templates.ItemChange{Key: designer.KeyText(t, w.Key), Failed: w.ConditionFailed,
		Absent: w.Before == nil, Gone: w.After == nil}
	names := map[string]bool{}
	for n := range w.Before {
		names[n] = true
	}
	for n := range w.After {
		names[n] = true
	}
	order := slices.Sorted(maps.Keys(names))
	keyNames := []string{t.PartitionKey.Name}
	if t.SortKey != nil {
		keyNames = append(keyNames, t.SortKey.Name)
	}
	slices.SortStableFunc(order, func(a, b string) int {
		ai, bi := slices.Index(keyNames, a), slices.Index(keyNames, b)
		if ai < 0 {
			ai = len(keyNames)
		}
		if bi < 0 {
			bi = len(keyNames)
		}
		return ai - bi
	})
	for _, n := range order {
		row := templates.AttributeChange{Name: n}
		b, inB := w.Before[n]
		a, inA := w.After[n]
		if inB {
			row.Before = designer.FormatCell(b)
		}
		if inA {
			row.After = designer.FormatCell(a)
		}
		switch {
		case inB && !inA:
			row.Change = "removed"
		case !inB && inA:
			row.Change = "added"
		case !b.Equal(a):
			row.Change = "changed"
		}
		out.Attributes = append(out.Attributes, row)
	}
	return out
}

// entryChangeText says what a write did to an index entry, with the entry's index key.
func entryChangeText(t designer.Table, index string, c dynamo.IndexChange) string {
	key := func(e designer.Item) string { return indexKeyText(t, index, e) }
	switch c.Change {
	case dynamo.EntryAdded:
		return "the item enters the index at " + key(c.After)
	case dynamo.EntryRemoved:
		return "the item leaves the index (was at " + key(c.Before) + ")"
	case dynamo.EntryMoved:
		return "the entry moves from " + key(c.Before) + " to " + key(c.After) + " (a delete and a put)"
	}
	return "the entry at " + key(c.After) + " is rewritten with its new attributes"
}

// indexKeyText writes an entry's index key attributes, "status = PAID, total = 10".
func indexKeyText(t designer.Table, index string, e designer.Item) string {
	ix, local, _, ok := t.IndexByName(index)
	if !ok {
		return ""
	}
	keys := ix.SortKey
	if !local {
		keys = slices.Concat(ix.PartitionKey, ix.SortKey)
	} else {
		keys = slices.Concat([]designer.KeyAttribute{t.PartitionKey}, keys)
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if v, ok := e[k.Name]; ok {
			parts = append(parts, k.Name+" = "+designer.FormatCell(v))
		}
	}
	return strings.Join(parts, ", ")
}

// writeVerbs says what a write did to its items, by the write RunOperation applied to each key.
var writeVerbs = map[string]string{"PutItem": "puts", "UpdateItem": "updates", "DeleteItem": "deletes", "ConditionCheck": "checks"}

// maxResultRows is how many candidate items a result box lists for marking.
const maxResultRows = 30

// mappingBack is where a plain form post of the mapping step goes back to.
func mappingBack(c echo.Context) string { return stepHref(designFrom(c), "mapping") }

// verdictOOB updates the verdict in the summary of pattern p's card after an edit inside it.
func verdictOOB(d *designContext, p designer.Pattern) templ.Component {
	return templates.VerdictView(elemID("verdict", p.ID), patternVerdict(d, p), true)
}

// patternVerdict is pattern p's verdict, as the collapsed card shows it.
func patternVerdict(d *designContext, p designer.Pattern) string {
	return d.derived().PatternVerdict(p)
}
