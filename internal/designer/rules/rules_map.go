package rules

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// mapCatalogue holds the mapping rules of the catalogue, in the order they run.
var mapCatalogue = []catalogueRow{
	{"MAP001", SeverityError, onDesign(map001Unmapped),
		"the design has a table, and an access pattern not served outside DynamoDB has no operation", readsNoItems},
	{"MAP002", SeverityError, map002KeyedOperations,
		"a GetItem, PutItem, UpdateItem or DeleteItem, or a request of a batch or transaction, on a table of the design targets an index, " +
			"or does not give exactly the table's primary key with = (or IN, in a batch or transaction)", readsNoItems},
	{"MAP003", SeverityError, map003QueryKeys,
		"a Query on a table or index of the design has no key condition it can read, or one DynamoDB refuses: an attribute that is no key of its target, " +
			"a partition key attribute missing, given twice or not compared with =, two conditions on one sort key attribute, " +
			"a sort key attribute conditioned without the one before it, <> on a sort key, begins_with on a number, " +
			"or a range on a sort key attribute before the last one conditioned", readsNoItems},
	{"MAP004", SeverityWarning, map004Scans,
		"an operation of an access pattern is a Scan", readsNoItems},
	{"MAP005", SeverityError, map005ConsistentGSI,
		"an operation asks a GSI for a strongly consistent read", readsNoItems},
	{"MAP006", SeverityWarning, map006Projection,
		"a Query or Scan on an index that does not project ALL needs attributes the index does not project: " +
			"those recorded for its pattern on the index, else those of its ProjectionExpression, else its pattern's when it is the only operation", readsNoItems},
	{"MAP007", SeverityError, map007FilterOnKey,
		"a Query's filter names a key attribute of the table or index it queries", readsNoItems},
	{"MAP008", SeverityError, onDesign(map008CallSizes),
		"one access pattern puts over 100 keys into a BatchGetItem, over 25 requests into a BatchWriteItem, " +
			"or over 100 items into a transaction, counting its operations of one kind as the requests of one call", readsNoItems},
	{"MAP009", SeverityWarning, mapEvaluated,
		"a read operation with an expected result, run on the sample items, returns other items than expected", readsItemsByPart},
	{"MAP011", SeverityWarning, nil, // mapEvaluated
		"a read pattern not served outside DynamoDB has read operations and, run on the sample items, none returns an item, " +
			"while none leaves a value open that the samples cannot fill (MAP014)", readsNoItems},
	{"MAP014", SeverityWarning, nil, // mapEvaluated
		"an operation of a pattern not served outside DynamoDB leaves a :value open that no sample item of its table fills, " +
			"so the samples cannot show it working and the MCP model export lists it without a command", readsNoItems},
	{"MAP010", SeverityWarning, map010Unbounded,
		"a Query or Scan has no Limit, and its pattern's result bound is unbounded or over 100 items", readsNoItems},
	{"MAP012", SeverityError, map012Names,
		"an operation names no table, a table the design lacks or an index its table lacks, or its key condition, filter or projection " +
			"uses a #name its names do not define or an attribute its table neither keys on, declares nor holds in a sample item", readsItemNames},
	{"MAP013", SeverityWarning, onDesign(map013NoTable),
		"the design has no table yet and some access pattern not served outside DynamoDB waits for one (one finding for them all)", readsNoItems},
}

// The mapping rules (MAP, docs/rules.md): whether each access pattern's operations are calls
// DynamoDB accepts, on tables, indexes and attributes the design has, and whether the sample items
// show them serving the pattern.
//
// An operation's key is written in its key condition for every operation: "pk = :pk AND sk = :sk"
// is the Key of a GetItem, PutItem, UpdateItem or DeleteItem, and of each request of a batch or
// transaction. A pattern's operations of one batch or transaction kind are the requests of one call.

// DynamoDB's limits on one multi-item call (§6.1), and the seed's bound on an unpaged read.
const (
	maxBatchGetKeys       = 100
	maxBatchWriteRequests = 25
	maxTransactionItems   = 100
	maxUnlimitedResult    = 100
)

// mapReadOps are the operations that return items.
var mapReadOps = []string{"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"}

func isReadOp(op string) bool { return slices.Contains(mapReadOps, op) }

// keyedOp reports whether op addresses single items by their full primary key.
func keyedOp(op string) bool {
	return op != "" && op != "Query" && op != "Scan" && slices.Contains(designer.Operations, op)
}

// mapTarget is what an operation reads or writes: a table, or one of its indexes, with the key
// attributes a key condition is checked against.
type mapTarget struct {
	t   designer.Table
	ix  *designer.Index // nil for the table
	lsi bool
	pk  []designer.KeyAttribute
	sk  []designer.KeyAttribute
}

func (m mapTarget) gsi() bool { return m.ix != nil && !m.lsi }

// label names the target as a message does: "table Employee", "GSI ByTitle on Employee".
func (m mapTarget) label() string {
	if m.ix == nil {
		return "table " + m.t.Name
	}
	return modIndex{ix: m.ix, lsi: m.lsi}.label(m.t)
}

func (m mapTarget) keyNames() []string {
	out := make([]string, 0, len(m.pk)+len(m.sk))
	for _, k := range append(slices.Clone(m.pk), m.sk...) {
		out = append(out, k.Name)
	}
	return out
}

// mapOp is one operation of one pattern, with its target when the table (and index) exist.
type mapOp struct {
	p      *designer.Pattern
	i      int
	op     designer.Operation
	target mapTarget
	found  bool
}

func (o mapOp) path(field string) string {
	p := patternFieldPath(*o.p, "mapping/operations/"+strconv.Itoa(o.i))
	if field != "" {
		p += "/" + field
	}
	return p
}

// label names the operation: `Pattern 3 "List members" (Query on GSI ByDept on Employee)`, with
// its position when the pattern has more than one.
func (o mapOp) label() string {
	where := o.op.Table
	if o.found {
		where = o.target.label()
	} else if o.op.Index != "" {
		where = o.op.Index + " on " + o.op.Table
	}
	what := o.op.Op
	if where != "" {
		what += " on " + where
	}
	if len(o.p.Mapping.Operations) > 1 {
		what = "operation " + strconv.Itoa(o.i+1) + ", " + what
	}
	return patternName(*o.p) + " (" + what + ")"
}

// operations lists every operation of every pattern, resolving its target; the MAP rules share
// the list, worked out once per validation.
func (v *validation) operations() []mapOp {
	if v.ops != nil {
		return v.ops
	}
	n := 0
	for _, p := range v.d.Patterns {
		n += len(p.Mapping.Operations)
	}
	v.ops = make([]mapOp, 0, n)
	for pi := range v.d.Patterns {
		p := &v.d.Patterns[pi]
		for i, op := range p.Mapping.Operations {
			o := mapOp{p: p, i: i, op: op}
			t, _, ok := v.tableByName(op.Table)
			o.target, o.found = targetIn(t, ok, op)
			v.ops = append(v.ops, o)
		}
	}
	return v.ops
}

func resolveTarget(d designer.Design, op designer.Operation) (mapTarget, bool) {
	t, _, ok := d.TableByName(op.Table)
	return targetIn(t, ok, op)
}

// targetIn is what op reads or writes in t, the table it names when ok.
func targetIn(t designer.Table, ok bool, op designer.Operation) (mapTarget, bool) {
	if !ok {
		return mapTarget{}, false
	}
	m := mapTarget{t: t, pk: []designer.KeyAttribute{t.PartitionKey}}
	if t.SortKey != nil {
		m.sk = []designer.KeyAttribute{*t.SortKey}
	}
	if op.Index == "" {
		return m, true
	}
	ix, local, _, ok := t.IndexByName(op.Index)
	if !ok {
		return mapTarget{}, false
	}
	m.ix, m.lsi, m.sk = &ix, local, ix.SortKey
	if !local {
		m.pk = ix.PartitionKey
	}
	return m, true
}

// map001Unmapped is MAP001: every access pattern is solved, or served outside DynamoDB. Before the
// design has a table there is nothing to map a pattern onto, so the requirement phase is spared.
func map001Unmapped(d designer.Design, out []Finding) []Finding {
	if len(d.Tables) == 0 {
		return out
	}
	for _, p := range d.Patterns {
		if p.Status == designer.StatusOutside || len(p.Mapping.Operations) > 0 {
			continue
		}
		out = append(out, finding("MAP001", patternFieldPath(p, "mapping"),
			patternName(p)+" has no operation; map it to the DynamoDB operations that serve it, "+"or mark it as served outside DynamoDB and say how in its mapping notes"))
	}
	return out
}

// map013NoTable is MAP013: access patterns wait for a table to serve them. MAP001 spares the
// requirement phase one finding per pattern; this one finding says the design serves nothing yet,
// so that a design of patterns alone is never called all clear.
func map013NoTable(d designer.Design, out []Finding) []Finding {
	if len(d.Tables) > 0 {
		return out
	}
	waiting := 0
	for _, p := range d.Patterns {
		if p.Status != designer.StatusOutside {
			waiting++
		}
	}
	switch waiting {
	case 0:
		return out
	case 1:
		return append(out, finding("MAP013", "tables", "1 access pattern and no table yet: nothing serves it; design the tables, then map the pattern to the operations that serve it"))
	}
	return append(out, finding("MAP013", "tables", strconv.Itoa(waiting)+" access patterns and no table yet: nothing serves them; design the tables, then map each pattern to the operations that serve it"))
}

// map002KeyedOperations is MAP002: GetItem, PutItem, UpdateItem, DeleteItem, and each request of a
// batch or transaction, name one item by its full primary key, with equality, on the table; a batch
// or a transaction may give a key attribute several values with IN, as the evaluator reads it.
func map002KeyedOperations(v *validation, out []Finding) []Finding {
	for _, o := range v.operations() {
		if !keyedOp(o.op.Op) || !o.found {
			continue
		}
		f := finding("MAP002", o.path(designer.OperationField.KeyCondition.Key), "")
		keys := designer.TableKeyNames(o.target.t)
		keyList := o.target.t.Name + "'s primary key (" + strings.Join(keys, ", ") + ")"
		if o.op.Index != "" {
			f.Path = o.path(designer.OperationField.Index.Key)
			f.Message = o.label() + " targets an index, but " + o.op.Op + " reads and writes only the table; use a Query on " +
				o.op.Index + ", or clear the index"
			out = append(out, f)
			continue
		}
		terms, err := dynamo.ParseItemKeys(o.op.Op, o.op.KeyCondition, o.op.Names)
		switch {
		case strings.TrimSpace(o.op.KeyCondition) == "" && (o.op.Op == "PutItem" || o.op.Op == "UpdateItem" || o.op.Op == "DeleteItem"):
			// Their Mapping card gives the key one field per key attribute.
			f.Message = o.label() + " gives no key; fill in its key fields: " + designer.ListAnd(keys) + ", " + keyList
		case strings.TrimSpace(o.op.KeyCondition) == "":
			f.Message = o.label() + " gives no key; write " + keyList + " with =, as in " + equalityExample(keys)
		case err != nil:
			f.Message = o.label() + " has a key condition that cannot be read: " + err.Error() + "; write it as " + equalityExample(keys)
		case dynamo.Unresolved(terms):
			continue // MAP012 names the missing placeholder
		default:
			f.Message = keyedProblem(terms, keys, keyList)
			if f.Message == "" {
				continue
			}
			f.Message = o.label() + " " + f.Message
		}
		out = append(out, f)
	}
	return out
}

func keyedProblem(terms []dynamo.KeyTerm, keys []string, keyList string) string {
	for _, term := range terms {
		if !slices.Contains(keys, term.Attr) {
			return "names " + term.Attr + ", which is not part of " + keyList + "; give exactly the key, and put other conditions in a condition expression"
		}
		if term.Op != "=" && term.Op != "IN" {
			return "compares " + term.Attr + " with " + term.Op + "; a key is given with =, as in " + equalityExample(keys)
		}
	}
	var missing []string
	for _, k := range keys {
		if !slices.ContainsFunc(terms, func(t dynamo.KeyTerm) bool { return t.Attr == k }) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return "does not give " + designer.ListAnd(missing) + " of " + keyList + "; add " + equalityExample(missing)
	}
	return ""
}

func equalityExample(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " = :" + valuePlaceholderFor(k)
	}
	return strings.Join(parts, " AND ")
}

// valuePlaceholderFor turns an attribute name into a value placeholder name.
func valuePlaceholderFor(attr string) string {
	s := strings.Map(func(r rune) rune {
		if r < 0x80 && designer.IsNameByte(byte(r)) {
			return r
		}
		return -1
	}, attr)
	if s == "" {
		return "v"
	}
	return s
}

// map003QueryKeys is MAP003: a Query gives every partition-key attribute of its target with
// equality, and at most the sort-key conditions DynamoDB allows.
func map003QueryKeys(v *validation, out []Finding) []Finding {
	for _, o := range v.operations() {
		if o.op.Op != "Query" || !o.found {
			continue
		}
		f := finding("MAP003", o.path(designer.OperationField.KeyCondition.Key), "")
		pkNames := keyNames(o.target.pk)
		terms, err := dynamo.ParseKeyCondition(o.op.KeyCondition, o.op.Names)
		switch {
		case strings.TrimSpace(o.op.KeyCondition) == "":
			f.Message = o.label() + " has no key condition; a Query needs " + equalityExample(pkNames)
		case err != nil:
			f.Message = o.label() + " has a key condition that cannot be read: " + err.Error() + "; start it with " + equalityExample(pkNames)
		case dynamo.Unresolved(terms):
			continue
		default:
			problem := queryKeyProblem(o.target, terms)
			if problem == "" {
				continue
			}
			f.Message = o.label() + " " + problem
		}
		out = append(out, f)
	}
	return out
}

// queryKeyProblem says what DynamoDB would refuse in a Query's key condition, or "".
func queryKeyProblem(m mapTarget, terms []dynamo.KeyTerm) string {
	keys := m.keyNames()
	byAttr := map[string][]dynamo.KeyTerm{}
	for _, t := range terms {
		if !slices.Contains(keys, t.Attr) {
			return "uses " + t.Attr + " in its key condition, but " + t.Attr + " is not a key attribute of " + m.label() +
				" (" + strings.Join(keys, ", ") + "); move it to the filter"
		}
		byAttr[t.Attr] = append(byAttr[t.Attr], t)
	}
	for _, k := range m.pk {
		ts := byAttr[k.Name]
		switch {
		case len(ts) == 0:
			return "does not give the partition key " + k.Name + " of " + m.label() + "; a Query needs " + k.Name + " = :" + valuePlaceholderFor(k.Name)
		case len(ts) > 1:
			return "has " + strconv.Itoa(len(ts)) + " conditions on the partition key " + k.Name + "; give it once, with ="
		case ts[0].Op != "=":
			return "compares the partition key " + k.Name + " with " + ts[0].Op + "; a partition key takes only =, so a range over it needs another key design"
		}
	}
	last := -1
	for i, k := range m.sk {
		ts := byAttr[k.Name]
		if len(ts) == 0 {
			continue
		}
		if len(ts) > 1 {
			return "has " + strconv.Itoa(len(ts)) + " conditions on the sort key " + k.Name + "; a key condition allows one, so use BETWEEN for a range, or move the other to the filter"
		}
		if last != i-1 {
			return "conditions the sort key attribute " + k.Name + " but not " + m.sk[i-1].Name + " before it; sort key attributes are conditioned left to right, without gaps"
		}
		last = i
		t := ts[0]
		switch {
		case t.Op == "<>":
			return "compares the sort key " + k.Name + " with <>, which key conditions do not allow; use = < <= > >= BETWEEN or begins_with, or move it to the filter"
		case t.Op == "begins_with" && k.Type != designer.S && k.Type != designer.B:
			return "uses begins_with on the sort key " + k.Name + ", a " + designer.CellTypeName(k.Type) + "; begins_with works only on strings and binaries, so use BETWEEN or a comparison"
		}
	}
	for i := 0; i < last; i++ {
		if t := byAttr[m.sk[i].Name][0]; t.Op != "=" {
			return "compares the sort key attribute " + m.sk[i].Name + " with " + t.Op + " but conditions " + m.sk[i+1].Name +
				" after it; only the last conditioned sort attribute may use a range, the ones before it take ="
		}
	}
	return ""
}

// map004Scans is MAP004: the seed's "No Scans used to solve access patterns".
func map004Scans(v *validation, out []Finding) []Finding {
	for _, o := range v.operations() {
		if o.op.Op != "Scan" {
			continue
		}
		out = append(out, finding("MAP004", o.path(""),
			o.label()+" reads every item and pays for all of them; give the pattern a key it can Query "+"(a table key or a GSI), or mark the pattern as served outside DynamoDB"))
	}
	return out
}

// map005ConsistentGSI is MAP005: a GSI is eventually consistent only.
func map005ConsistentGSI(v *validation, out []Finding) []Finding {
	for _, o := range v.operations() {
		if !o.op.Consistent || !o.found || !o.target.gsi() {
			continue
		}
		out = append(out, finding("MAP005", o.path(designer.OperationField.Consistent.Key),
			o.label()+" asks for a strongly consistent read, which a GSI cannot give; read eventually consistent, "+"or serve the pattern from the table or an LSI"))
	}
	return out
}

// map006Projection is MAP006: the seed's "Per-Pattern Projected Attributes". What a pattern needs
// from an index comes from the index's per-pattern attributes, else from the operation's
// ProjectionExpression, else from the pattern's attributes when the operation is its only one.
func map006Projection(v *validation, out []Finding) []Finding {
	for _, o := range v.operations() {
		if (o.op.Op != "Query" && o.op.Op != "Scan") || !o.found || o.target.ix == nil || o.target.ix.Projection.Type == designer.All {
			continue
		}
		needs := patternNeeds(o)
		if len(needs) == 0 {
			continue
		}
		projected := indexKeyNames(o.target.t, o.target.ix)
		if o.target.ix.Projection.Type == designer.Include {
			projected = append(projected, o.target.ix.Projection.Attributes...)
		}
		var missing []string
		for _, a := range needs {
			if !slices.Contains(projected, a) && !slices.Contains(missing, a) {
				missing = append(missing, a)
			}
		}
		if len(missing) == 0 {
			continue
		}
		cost := "DynamoDB cannot return them from a GSI, so each result then needs a GetItem on " + o.target.t.Name + " (counted in cost)"
		if o.target.lsi {
			cost = "DynamoDB fetches them from " + o.target.t.Name + " for each result, at extra read cost"
		}
		out = append(out, finding("MAP006", o.path(designer.OperationField.Index.Key),
			o.label()+" needs "+designer.ListAnd(missing)+", which "+o.target.label()+" does not project; "+cost+". Add "+pluralThem(len(missing))+" to the index's INCLUDE projection, or accept the extra reads"))
	}
	return out
}

func pluralThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func patternNeeds(o mapOp) []string {
	var needs []string
	for _, pa := range o.target.ix.PatternAttributes {
		if pa.Pattern == o.p.Number {
			needs = append(needs, pa.Attributes...)
		}
	}
	if len(needs) > 0 {
		return needs
	}
	if strings.TrimSpace(o.op.Projection) != "" {
		attrs, missing, err := dynamo.ExpressionAttributes(o.op.Projection, o.op.Names)
		if err == nil && len(missing) == 0 {
			return attrs
		}
		return nil
	}
	if len(o.p.Mapping.Operations) == 1 {
		return o.p.Attributes
	}
	return nil
}

// map007FilterOnKey is MAP007: a Query's filter may not use its target's key attributes; they
// belong in the key condition.
func map007FilterOnKey(v *validation, out []Finding) []Finding {
	for _, o := range v.operations() {
		if o.op.Op != "Query" || !o.found || strings.TrimSpace(o.op.Filter) == "" {
			continue
		}
		attrs, _, err := dynamo.ExpressionAttributes(o.op.Filter, o.op.Names)
		if err != nil {
			continue
		}
		keys := o.target.keyNames()
		var used []string
		for _, a := range attrs {
			if slices.Contains(keys, a) {
				used = append(used, a)
			}
		}
		if len(used) == 0 {
			continue
		}
		out = append(out, finding("MAP007", o.path(designer.OperationField.Filter.Key),
			o.label()+" filters on "+designer.ListAnd(used)+", a key attribute of "+o.target.label()+", which DynamoDB refuses in a Query filter; move the condition into the key condition"))
	}
	return out
}

// map008CallSizes is MAP008: DynamoDB's limits on the requests of one batch or transaction.
func map008CallSizes(d designer.Design, out []Finding) []Finding {
	limits := [...]struct {
		op    string
		most  int
		words string
	}{
		{"BatchGetItem", maxBatchGetKeys, "keys"},
		{"BatchWriteItem", maxBatchWriteRequests, "put or delete requests"},
		{"TransactGetItems", maxTransactionItems, "items"},
		{"TransactWriteItems", maxTransactionItems, "items"},
	}
	for pi := range d.Patterns {
		p := &d.Patterns[pi]
		for _, l := range limits {
			first, n := -1, 0
			for i, op := range p.Mapping.Operations {
				if op.Op == l.op {
					if first < 0 {
						first = i
					}
					n++
				}
			}
			if n <= l.most {
				continue
			}
			o := mapOp{p: p, i: first, op: p.Mapping.Operations[first]}
			out = append(out, finding("MAP008", o.path(""),
				patternName(*p)+" puts "+strconv.Itoa(n)+" requests into one "+l.op+", which takes at most "+strconv.Itoa(l.most)+" "+l.words+"; split them into calls of "+strconv.Itoa(l.most)+" or fewer"))
		}
	}
	return out
}

// map010Unbounded is MAP010: the seed's "Bounded Read Strategy". A Query or Scan without Limit
// returns up to 1 MB per page; the pattern's result bound says whether that matters.
func map010Unbounded(v *validation, out []Finding) []Finding {
	for _, o := range v.operations() {
		if (o.op.Op != "Query" && o.op.Op != "Scan") || o.op.Limit != nil {
			continue
		}
		n, unbounded, known := parseResultBound(o.p.ResultBound)
		if !known || (!unbounded && n <= maxUnlimitedResult) {
			continue
		}
		bound := "its result bound is " + inQuotes(strings.TrimSpace(o.p.ResultBound))
		out = append(out, finding("MAP010", o.path(designer.OperationField.Limit.Key),
			o.label()+" has no Limit, and "+bound+"; set a Limit and page with LastEvaluatedKey, "+"so that each request reads a bounded page instead of up to 1 MB"))
	}
	return out
}

// parseResultBound reads a pattern's result bound as people write it ("at most 6 items", "50 per
// page; up to 62,000 in total", "10k", "unbounded"). n is the largest number written; unbounded
// says the text speaks of no upper bound; known is false when the text says neither.
func parseResultBound(s string) (n float64, unbounded, known bool) {
	lower := strings.ToLower(s)
	for _, w := range []string{"unbounded", "unlimited", "no limit", "no upper bound", "without limit", "any number", "hundreds", "thousands", "millions"} {
		if strings.Contains(lower, w) {
			unbounded = true
		}
	}
	words := strings.FieldsFunc(lower, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(";()/–-~≈<>≤", r) })
	for i, w := range words {
		v, ok := designer.CountWord(w, words[i+1:])
		if !ok {
			continue
		}
		known = true
		n = max(n, v)
	}
	if !known && !unbounded {
		for _, w := range words {
			if w == "all" || w == "every" {
				unbounded = true
			}
		}
	}
	return n, unbounded, known || unbounded
}

// map012Names is MAP012: every table, index and attribute a mapping names exists. An attribute
// exists when it is a key of the table or its indexes, a declared attribute, or in a sample item.
func map012Names(v *validation, out []Finding) []Finding {
	d := v.d
	for _, o := range v.operations() {
		f := finding("MAP012", "", "")
		t, ti, tableOK := v.tableByName(o.op.Table)
		switch {
		case strings.TrimSpace(o.op.Table) == "":
			f.Path, f.Message = o.path(designer.OperationField.Table.Key), o.label()+" names no table; choose the table it reads or writes"
		case !tableOK:
			f.Path, f.Message = o.path(designer.OperationField.Table.Key), o.label()+" names table "+o.op.Table+", which the design does not have; "+
				"choose "+designer.TableChoice(d)+", or add the table"
		case !o.found:
			f.Path, f.Message = o.path(designer.OperationField.Index.Key), o.label()+" names index "+o.op.Index+", which "+t.Name+" does not have; "+
				"choose one of its indexes, or add it"
		}
		if f.Message != "" {
			out = append(out, f)
			continue
		}
		attrs := v.attributeNames(ti)
		of := designer.OperationField
		for _, e := range [...]struct{ field, label, text string }{
			{of.KeyCondition.Key, of.KeyCondition.Label, o.op.KeyCondition},
			{of.Filter.Key, of.Filter.Label, o.op.Filter},
			{of.Projection.Key, of.Projection.Label, o.op.Projection},
		} {
			if strings.TrimSpace(e.text) == "" {
				continue
			}
			used, missing, err := dynamo.ExpressionAttributes(e.text, o.op.Names)
			if err != nil {
				continue // MAP002 and MAP003 say a key condition cannot be read; DynamoDB reports the rest
			}
			var unknown []string
			for _, a := range used {
				if !attrs[a] {
					unknown = append(unknown, a)
				}
			}
			switch {
			case len(missing) > 0:
				out = append(out, finding("MAP012", o.path(e.field),
					o.label()+"'s "+e.label+" uses "+designer.ListAnd(missing)+", which its names do not define; add "+missing[0]+"=<attribute> to the operation's names"))
			case len(unknown) > 0:
				out = append(out, finding("MAP012", o.path(e.field),
					o.label()+"'s "+e.label+" names "+designer.ListAnd(unknown)+", which "+t.Name+" neither declares nor holds in any sample item; correct the name, or declare the attribute"))
			}
		}
	}
	return out
}

// tableAttributeNames is every attribute name a table knows: its keys, its indexes' keys, its
// declared attributes and itemNames, the attributes of its sample items (dynamo.Cache's
// AttributeNames, which patches its count after an edit of a few items or of one run of them).
func tableAttributeNames(t designer.Table, itemNames []string) map[string]bool {
	out := map[string]bool{}
	for _, k := range keyUses(t) {
		out[k.attr.Name] = true
	}
	for _, a := range t.Attributes {
		out[a.Name] = true
	}
	for _, name := range itemNames {
		out[name] = true
	}
	return out
}

// mapEvaluated is MAP009 and MAP011, the rules that run operations against the sample items.
//
// Cost: it runs each read operation of a read pattern, and each operation with an expected result,
// once per validation, and both rules share the result. RunOperation reads the items of the
// operation's table (a Query or Scan goes through all of them), so the cost grows with the number
// of such operations times the sample items of their tables. Measured on a 2-core EPYC: the HR
// example (10 read patterns, 29 items) spends about 0.25 ms of a 0.8 ms Validate here; 50 read
// patterns over a 500-item table about 5 ms (BenchmarkValidateMapping). Operations whose table or
// index is missing are not run; MAP012 reports them.
func mapEvaluated(v *validation, out []Finding) []Finding {
	for pi := range v.d.Patterns {
		out = v.patternPart(pi, out, func(out []Finding) []Finding { return mapEvaluatedPattern(v.d, &v.d.Patterns[pi], v.cache, out) })
	}
	return out
}

// mapEvaluatedPattern is MAP009, MAP011 and MAP014 on one pattern, reading the items through cache.
func mapEvaluatedPattern(d designer.Design, p *designer.Pattern, cache *dynamo.Cache, out []Finding) []Finding {
	read := p.Type == designer.Read && p.Status != designer.StatusOutside
	firstRead, returned := -1, false
	// An operation that leaves a value open (an import's "GetItem(owner_id)") reads what the
	// sample items let it read once completed, as the MCP model export writes it; unfilled holds,
	// per operation no sample item completes, the values it leaves open (MAP014).
	unfilled, completed := map[int][]dynamo.Missing{}, map[int]bool{}
	for i, op := range p.Mapping.Operations {
		if p.Status == designer.StatusOutside || len(dynamo.MissingValues(dynamo.AliasReservedWords(op))) == 0 {
			continue
		}
		if _, found := resolveTarget(d, op); !found {
			continue
		}
		if _, missing, ok := dynamo.Complete(d, op); ok {
			completed[i] = true
		} else {
			unfilled[i] = missing
		}
	}
	for i, op := range p.Mapping.Operations {
		if op.Expected == nil && !(read && isReadOp(op.Op)) || designer.IsWriteOp(op.Op) {
			// A write's result is the item it writes, not one to check against expected keys.
			continue
		}
		o := mapOp{p: p, i: i, op: op}
		if o.target, o.found = resolveTarget(d, op); !o.found {
			continue
		}
		res := runForKeys(cache, d, op)
		if res.Error != "" {
			if completed[i] || unfilled[i] != nil {
				if firstRead < 0 {
					firstRead = i
				}
				returned = returned || completed[i]
			}
			continue
		}
		if isReadOp(op.Op) {
			if firstRead < 0 {
				firstRead = i
			}
			returned = returned || len(res.Items) > 0
		}
		if stated, pass := dynamo.Verdict(o.target.t, op, res); stated && !pass {
			out = append(out, finding("MAP009", o.path("expected"),
				o.label()+" "+expectedDifference(o.target.t, op, res)+"; correct the operation or the sample items, or record what it returns as expected"))
		}
	}
	// MAP014: each operation the samples cannot complete is said, even when another operation of
	// the pattern reads items: the MCP model export lists that operation without a command.
	for i := range p.Mapping.Operations {
		missing, ok := unfilled[i]
		if !ok {
			continue
		}
		o := mapOp{p: p, i: i, op: p.Mapping.Operations[i]}
		o.target, o.found = resolveTarget(d, o.op)
		words := make([]string, len(missing))
		for k, m := range missing {
			words[k] = m.Placeholder + " (" + m.Attribute + ")"
		}
		what := "it would then read"
		if designer.IsWriteOp(o.op.Op) {
			what = "it could then write"
		}
		out = append(out, finding("MAP014", o.path(""),
			o.label()+" gives no value for "+designer.ListAnd(words)+", and no sample item of "+o.op.Table+" "+what+" has one, so the samples do not show it working and the MCP model export lists it without a command; "+
				"add sample items it should find, or give the values"))
	}
	if read && firstRead >= 0 && !returned && len(unfilled) == 0 {
		o := mapOp{p: p, i: firstRead, op: p.Mapping.Operations[firstRead]}
		o.target, o.found = resolveTarget(d, o.op)
		out = append(out, finding("MAP011", o.path(""),
			o.label()+" returns no item from the sample data, so the samples do not show it working; "+"add sample items it should find, or check its key condition and values"))
	}
	return out
}

// runForKeys runs an operation without its projection, which changes what each item holds but not
// which items come back, so that every result keeps the table key the expected result is made of.
// Names only the projection used are dropped with it: DynamoDB refuses unused names.
func runForKeys(cache *dynamo.Cache, d designer.Design, op designer.Operation) dynamo.OperationResult {
	if op.Projection == "" {
		return cache.RunOperation(d, op)
	}
	op.Projection = ""
	var used map[string]string
	// A GetItem's names are the evaluator's to sort out: those of its key condition build the key.
	for _, expr := range []string{op.KeyCondition, op.Filter} {
		placeholders, err := dynamo.NamePlaceholders(expr)
		if err != nil {
			return cache.RunOperation(d, op)
		}
		for _, ph := range placeholders {
			if real, ok := op.Names[ph]; ok {
				if used == nil {
					used = map[string]string{}
				}
				used[ph] = real
			}
		}
	}
	if op.Op == "Query" || op.Op == "Scan" {
		op.Names = used
	}
	return cache.RunOperation(d, op)
}

// expectedDifference says how what an operation returned differs from its expected keys.
func expectedDifference(t designer.Table, op designer.Operation, res dynamo.OperationResult) string {
	want := *op.Expected
	got := make([]designer.Item, len(res.Items))
	for i, it := range res.Items {
		got[i] = designer.TableKey(t, it)
	}
	var extra, missing []string
	for _, g := range got {
		if !slices.ContainsFunc(want, func(w designer.Item) bool { return designer.SameKey(t, g, w) }) {
			extra = append(extra, designer.KeyText(t, g))
		}
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g designer.Item) bool { return designer.SameKey(t, g, w) }) {
			missing = append(missing, designer.KeyText(t, w))
		}
	}
	if len(want) == 0 {
		return "returns " + keyList(extra) + ", but its expected result is that it returns nothing"
	}
	var parts []string
	if len(extra) > 0 {
		parts = append(parts, "also returns "+keyList(extra))
	}
	if len(missing) > 0 {
		parts = append(parts, "does not return "+keyList(missing))
	}
	if len(parts) == 0 {
		// Each side holds the other's items, so one of them names an item twice.
		return "returns " + keyList(keyTexts(t, got)) + ", but its expected result names one of them more than once"
	}
	return strings.Join(parts, " and ")
}

func keyTexts(t designer.Table, keys []designer.Item) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = designer.KeyText(t, k)
	}
	return out
}

// keyList names up to three keys and counts the rest.
func keyList(keys []string) string {
	if len(keys) > 3 {
		return strings.Join(keys[:3], "; ") + " and " + strconv.Itoa(len(keys)-3) + " more"
	}
	return strings.Join(keys, "; ")
}
