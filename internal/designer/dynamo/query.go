package dynamo

import (
	"crypto/md5"
	"encoding/hex"
	"slices"
	"strings"
	"sync"

	"dynaloom/internal/designer"
)

// Query and Scan: the entries a read sees, in the order DynamoDB returns them, paged at 1 MB.

func runQueryScan(d designer.Design, req readRequest) (readResult, error) {
	isQuery := req.op == "Query"
	tg, err := resolveReadTarget(d, req)
	if err != nil {
		return readResult{}, err
	}
	if req.hasStartKey && len(req.startKey) != len(tg.startKeyNames) {
		if isQuery || tg.isIndex {
			return readResult{}, validationErr("The provided starting key is invalid")
		}
		return readResult{}, validationErr("The provided starting key is invalid: The provided key element does not match the schema")
	}
	var conds map[string]keyCond
	if isQuery {
		var order []string
		conds, order, err = keyConditions(req.keyExpr)
		if err != nil {
			return readResult{}, err
		}
		if n := len(order); n < 1 || n > max(2, len(tg.pk)+len(tg.sk)) {
			return readResult{}, validationErr("Conditions can be of length 1 or 2 only")
		}
		if err := checkQueryKey(tg, req, conds); err != nil {
			return readResult{}, err
		}
	} else if req.hasStartKey && tg.isIndex {
		for i, k := range slices.Concat(tg.pk, tg.sk) {
			if _, ok := req.startKey[k.Name]; !ok {
				return readResult{}, validationErr("The provided starting key is invalid")
			}
			if err := checkKeyPiece(req.startKey, k, i < len(tg.pk)); err != nil {
				return readResult{}, err
			}
		}
	}
	if req.hasStartKey {
		tableStart := designer.Item{}
		for _, k := range tg.tableKeys {
			if v, ok := req.startKey[k.Name]; ok {
				tableStart[k.Name] = v
			}
		}
		if err := CheckTableKey(tableStart, tg.tableKeys); err != nil {
			return readResult{}, validationErr("The provided starting key is invalid: %s", err.(*EvalError).Message)
		}
		if isQuery {
			if err := checkStartKeyInQuery(tg, req, conds); err != nil {
				return readResult{}, err
			}
		}
	}
	if err := checkNestedKeyPaths(req.projNested, tg.table); err != nil {
		return readResult{}, err
	}
	if isQuery && req.filterParser != nil {
		for _, k := range slices.Concat(tg.pk, tg.sk) {
			if req.filterParser.pathHeads[k.Name] {
				return readResult{}, validationErr("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s", k.Name)
			}
		}
	}
	if req.filterParser != nil {
		if err := checkNestedKeyPaths(req.filterParser.nestedPaths, tg.table); err != nil {
			return readResult{}, err
		}
	}
	return readPage(tg, req, conds), nil
}

// checkStartKeyInQuery refuses an ExclusiveStartKey outside the query's key conditions, with
// dynalite's messages.
func checkStartKeyInQuery(tg target, req readRequest, conds map[string]keyCond) error {
	samePartition := true
	for _, k := range tg.pk {
		if designer.CompareKeyValues(req.startKey[k.Name], conds[k.Name].vals[0]) != 0 {
			samePartition = false
		}
	}
	var rangeConds []designer.KeyAttribute
	for _, k := range tg.sk {
		if _, ok := conds[k.Name]; ok {
			rangeConds = append(rangeConds, k)
		}
	}
	if len(rangeConds) == 0 {
		if !samePartition {
			return validationErr("The provided starting key is outside query boundaries based on provided conditions")
		}
		return nil
	}
	for _, k := range rangeConds {
		if !conds[k.Name].matches(req.startKey[k.Name]) {
			return validationErr("The provided starting key does not match the range key predicate")
		}
	}
	if !samePartition {
		return validationErr("The query can return at most one row and cannot be restarted")
	}
	return nil
}

// entryOrder is an entry prepared for sorting. It is kept small: a large partition holds
// thousands of them.
type entryOrder struct {
	item   designer.Item
	out    designer.Item // the item returned, in DynamoDB's spelling, when there is no projection
	bucket string        // Scan: the hash of the partition key
	tie    string        // index entries: the hash of the table key, computed when first needed
	pk, sk []keyPart     // pk for Scan only
	seq    int32         // position among the items read, to keep sorting stable
	src    int32         // index in the table's items, or -1 for an index entry
	// Worked out only for the entries a page reads (measured):
	page, size int32 // pageItemSize and ItemSize
	measured   bool
	pass       bool // the filter keeps it
}

// parallelMeasureMin is the number of unmeasured entries from which two goroutines measure them.
const parallelMeasureMin = 4096

// pageScratch holds readPage's entry and key part arrays between reads. They are cleared before
// they go back, so a pooled array never keeps items alive.
type pageScratch struct {
	recs  []entryOrder
	parts []keyPart
}

var pageScratchPool = sync.Pool{New: func() any { return new(pageScratch) }}

// oneMB is the most a Query or Scan page reads.
const oneMB = 1 << 20

func readPage(tg target, req readRequest, conds map[string]keyCond) readResult {
	isQuery := req.op == "Query"
	res := readResult{table: tg.table.Name}
	if tg.isIndex {
		res.index, res.local = tg.index.Name, tg.local
	}
	keys := slices.Concat(tg.pk, tg.sk)
	// The condition on each key attribute, nil where there is none: looked up once, not per item.
	keyConds := make([]*keyCond, len(keys))
	for i, k := range keys {
		if c, ok := conds[k.Name]; ok {
			keyConds[i] = &c
		}
	}
	rangeKey := ""
	if tg.table.SortKey != nil {
		rangeKey = tg.table.SortKey.Name
	}
	// measure works out what reading an entry needs: its sizes, the filter's verdict and the item
	// returned. Entries are measured in their stored order, which walks memory far more locally
	// than key order does: for a large partition that is most of the cost. Without a Limit (or
	// with a large one) every entry matching the key conditions is measured as it is found;
	// otherwise only those the Limit lets the page read, a chunk at a time.
	measured := func(e *entryOrder, page, size int, canonical bool) {
		e.page, e.size = int32(page), int32(size)
		e.pass = req.filterExpr == nil || evalCondition(req.filterExpr, e.item)
		if e.pass && !req.hasProj {
			e.out = e.item
			if !canonical {
				e.out = CanonicalItem(e.item)
			}
		}
		e.measured = true
	}
	// Table items' measurements are remembered by the caller's Cache, if any (cache.go).
	var memo *itemMeasures
	if !tg.isIndex {
		memo = req.cache.measuresFor(tg.table.Items, rangeKey)
	}
	measure := func(e *entryOrder) {
		remembered := memo != nil && e.src >= 0
		if remembered {
			if page, size, canonical, ok := memo.get(int(e.src)); ok {
				measured(e, page, size, canonical)
				return
			}
		}
		page, size, canonical, _, _ := measureItem(e.item, rangeKey)
		if remembered {
			memo.put(int(e.src), page, size, canonical)
		}
		measured(e, page, size, canonical)
	}
	eager := req.limit == 0 || req.limit >= len(tg.table.Items)/4
	// Entries live in one array and their key parts in another, so that a large partition costs
	// few allocations.
	// Both are reused from read to read (pageScratch), since a large partition makes them large.
	scratch := pageScratchPool.Get().(*pageScratch)
	recs := scratch.recs[:0]
	parts := scratch.parts[:0]
	defer func() {
		clear(recs)
		clear(parts)
		scratch.recs, scratch.parts = recs[:0], parts[:0]
		pageScratchPool.Put(scratch)
	}()
	if tg.isIndex {
		for _, it := range tg.entries(req.cache) {
			if isQuery && !keyConditionsMatch(it, keys, keyConds) {
				continue
			}
			recs = append(recs, entryOrder{item: it, seq: int32(len(recs)), src: -1})
			parts = appendEntryParts(parts, &recs[len(recs)-1], tg, !isQuery)
		}
	} else {
		// Table items are checked here rather than through storedItems, which would build a
		// signature per item: duplicates of a key end up next to each other once sorted. Each
		// key attribute is looked up once for the key check, the key condition and the sort.
		vals := make([]designer.Value, len(keys))
		// A table Query checks the partition key first, by itself, and the sort key only for
		// the items of the partition.
		onePass := isQuery && len(keys) == 2 && keys[1].Name == rangeKey
		for i, si := range tg.table.Items {
			if onePass {
				pv, ok := si.Item[keys[0].Name]
				if !validKeyValue(pv, ok, keys[0]) || keyConds[0] != nil && !keyConds[0].matches(pv) {
					continue
				}
				sv, ok := si.Item[rangeKey]
				if !validKeyValue(sv, ok, keys[1]) || keyConds[1] != nil && !keyConds[1].matches(sv) {
					continue
				}
				recs = append(recs, entryOrder{item: si.Item, seq: int32(len(recs)), src: int32(i)})
				parts = append(parts, newKeyPart(sv))
				continue
			}
			if !tableKeyMatches(si.Item, keys, keyConds, vals) {
				continue
			}
			recs = append(recs, entryOrder{item: si.Item, seq: int32(len(recs)), src: int32(i)})
			e := &recs[len(recs)-1]
			if !isQuery {
				e.bucket = hashPrefix(vals[:len(tg.pk)]...)
				for _, v := range vals[:len(tg.pk)] {
					parts = append(parts, newKeyPart(v))
				}
			}
			for _, v := range vals[len(tg.pk):] {
				parts = append(parts, newKeyPart(v))
			}
		}
	}
	if eager {
		// In stored order, which walks memory far more locally than key order does. Items not
		// measured before (a design just loaded) are measured by two goroutines when there are
		// many: the walk waits on memory, and two walks overlap their waits.
		if len(recs) >= parallelMeasureMin && (memo == nil || !memo.known(int(recs[0].src)) && !memo.known(int(recs[len(recs)-1].src))) {
			half := len(recs) / 2
			var wg sync.WaitGroup
			wg.Go(func() {
				for i := range recs[:half] {
					measure(&recs[i])
				}
			})
			for i := half; i < len(recs); i++ {
				measure(&recs[i])
			}
			wg.Wait()
		} else {
			for i := range recs {
				measure(&recs[i])
			}
		}
	}
	if !isQuery || tg.isIndex {
		packKeyTexts(parts) // sortQueryEntries packs them when it needs to
	}
	stride := len(tg.sk)
	if !isQuery {
		stride += len(tg.pk)
	}
	for i := range recs {
		recs[i].setParts(parts[i*stride:(i+1)*stride], tg, !isQuery)
	}
	var start *entryOrder
	if req.hasStartKey {
		start = &entryOrder{item: req.startKey, seq: -1, src: -1}
		start.setParts(appendEntryParts(nil, start, tg, !isQuery), tg, !isQuery)
	}
	cmp := func(a, b *entryOrder) int {
		if !isQuery {
			if c := strings.Compare(a.bucket, b.bucket); c != 0 {
				return c
			}
			if c := compareKeyParts(a.pk, b.pk); c != 0 {
				return c
			}
		}
		if c := compareKeyParts(a.sk, b.sk); c != 0 || !tg.isIndex {
			return c
		}
		return strings.Compare(a.tieHash(tg), b.tieHash(tg))
	}
	var order []*entryOrder
	if isQuery && !tg.isIndex {
		order = sortQueryEntries(recs, parts, len(tg.sk))
	} else {
		order = make([]*entryOrder, len(recs))
		for i := range recs {
			order[i] = &recs[i]
		}
		slices.SortFunc(order, func(a, b *entryOrder) int {
			if c := cmp(a, b); c != 0 {
				return c
			}
			return int(a.seq - b.seq)
		})
	}
	if !tg.isIndex && !isQuery {
		// Of items sharing a table key the last written wins, as a later put overwrites
		// (sortQueryEntries does this for a table Query).
		kept := order[:0]
		for i, e := range order {
			if i+1 < len(order) && cmp(e, order[i+1]) == 0 {
				continue
			}
			kept = append(kept, e)
		}
		order = kept
	}
	forward := req.forward || !isQuery
	if !forward {
		slices.Reverse(order)
	}
	if start != nil {
		i := 0
		for i < len(order) {
			c := cmp(order[i], start)
			if forward && c > 0 || !forward && c < 0 {
				break
			}
			i++
		}
		order = order[i:]
	}

	// The entries are read in key order, a chunk at a time; reading stops at Limit or 1 MB.
	const chunk = 512
	pageBytes, readBytes := 0, 0
	factor := consistencyFactor(req.consistent && !(tg.isIndex && !tg.local))
	// An LSI read that fetches items from the table is charged the index entries read, summed,
	// and each fetched item whole, rounded by itself (§2.2, "Query/Scan on LSI").
	fetchUnits := 0.0
	var last designer.Item
	var pending []*entryOrder
	full := func() bool { return req.limit > 0 && res.scanned >= req.limit || pageBytes >= oneMB }
	for from := 0; from < len(order) && !full(); from += chunk {
		part := order[from:min(from+chunk, len(order))]
		if req.limit > 0 && len(part) > req.limit-res.scanned {
			part = part[:req.limit-res.scanned]
		}
		pending = pending[:0]
		for _, e := range part {
			if !e.measured {
				pending = append(pending, e)
			}
		}
		slices.SortFunc(pending, func(a, b *entryOrder) int { return int(a.seq - b.seq) })
		for _, e := range pending {
			measure(e)
		}
		for _, e := range part {
			if pageBytes >= oneMB {
				break
			}
			res.scanned++
			pageBytes += int(e.page)
			if tg.fetched != nil {
				readBytes += entrySize(e.item, tg.fetched)
				fetchUnits += readUnits(int(e.size), factor)
			} else {
				readBytes += int(e.size)
			}
			last = e.item
			if !e.pass {
				continue
			}
			it := e.out
			if req.hasProj {
				it = CanonicalItem(projectItem(e.item, req.projPaths))
			}
			res.items = append(res.items, it)
		}
	}
	res.count = len(res.items)
	if (req.limit > 0 && res.scanned >= req.limit || pageBytes >= oneMB) && last != nil {
		res.lastKey = designer.Item{}
		for _, k := range tg.startKeyNames {
			if v, ok := last[k.Name]; ok {
				res.lastKey[k.Name] = v
			}
		}
	}
	res.bytes = readBytes
	if tg.isIndex {
		res.indexUnits = readUnits(readBytes, factor)
		res.tableUnits = fetchUnits
	} else {
		res.tableUnits = readUnits(readBytes, factor)
	}
	return res
}

// entrySize is the size of the index entry of item it that holds the attributes named.
func entrySize(it designer.Item, holds map[string]bool) int {
	n := 0
	for name, v := range it {
		if holds[name] {
			n += len(name) + designer.ValueSize(v)
		}
	}
	return n
}

// packKeyTexts copies the key parts' texts into one block: sorting compares them again and again,
// and side by side they stay in the cache where the items' own strings are spread over the heap.
func packKeyTexts(parts []keyPart) {
	n := 0
	for _, p := range parts {
		n += len(p.text)
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, p := range parts {
		sb.WriteString(p.text)
	}
	block, at := sb.String(), 0
	for i := range parts {
		l := len(parts[i].text)
		parts[i].text = block[at : at+l]
		at += l
	}
}

// sortQueryEntries orders a table Query's entries by their sort key parts, ties by position, and
// keeps the last of entries sharing a key.
// It sorts positions rather than records: swapping integers needs no write barriers and the
// comparison reads the flat parts array directly, which keeps a 10,000-item partition fast.
// Sample items often come in key order already, which is checked first.
func sortQueryEntries(recs []entryOrder, parts []keyPart, stride int) []*entryOrder {
	idx := make([]int32, len(recs))
	for i := range idx {
		idx[i] = int32(i)
	}
	byKey := func(a, b int32) int {
		if c := compareKeyParts(parts[int(a)*stride:int(a+1)*stride], parts[int(b)*stride:int(b+1)*stride]); c != 0 {
			return c
		}
		return int(a - b)
	}
	switch {
	case slices.IsSortedFunc(idx, byKey):
	case stride == 1 && textOnly(parts):
		// One string or binary sort key, the usual case: comparing texts directly is faster.
		// Each text is led by the 8 bytes after the prefix all share, as a number, so that most
		// comparisons compare two integers.
		common := len(parts[0].text)
		for i := 1; i < len(parts) && common > 0; i++ {
			t := parts[i].text
			n := min(common, len(t))
			j := 0
			for j < n && t[j] == parts[0].text[j] {
				j++
			}
			common = j
		}
		keyed := make([]textAt, len(idx))
		for i := range keyed {
			t := parts[i].text[common:]
			var lead uint64
			for j := range 8 {
				lead <<= 8
				if j < len(t) {
					lead |= uint64(t[j])
				}
			}
			keyed[i] = textAt{lead, int32(i)}
		}
		radixByLead(keyed)
		// Texts that share their lead are ordered by the rest, ties kept in position order.
		for i := 0; i < len(keyed); {
			j := i + 1
			for j < len(keyed) && keyed[j].lead == keyed[i].lead {
				j++
			}
			if j-i > 1 {
				slices.SortStableFunc(keyed[i:j], func(a, b textAt) int { return strings.Compare(parts[a.at].text, parts[b.at].text) })
			}
			i = j
		}
		for i, k := range keyed {
			idx[i] = k.at
		}
	default:
		packKeyTexts(parts)
		slices.SortFunc(idx, byKey)
	}
	// Of items sharing a table key the last written wins, as a later put overwrites: ties are
	// in position order, so the last of a run is kept.
	kept := idx[:0]
	for i, j := range idx {
		if i+1 < len(idx) && compareKeyParts(parts[int(j)*stride:int(j+1)*stride], parts[int(idx[i+1])*stride:int(idx[i+1]+1)*stride]) == 0 {
			continue
		}
		kept = append(kept, j)
	}
	idx = kept
	order := make([]*entryOrder, len(idx))
	for i, j := range idx {
		order[i] = &recs[j]
	}
	return order
}

// textAt is a text key's leading bytes and its entry's position: no pointers, so that the
// collector need not scan it.
type textAt struct {
	lead uint64
	at   int32
}

// radixByLead sorts by lead, keeping the order of equal leads: a byte at a time from the last,
// skipping the bytes all leads share.
func radixByLead(keyed []textAt) {
	buf := make([]textAt, len(keyed))
	src, dst := keyed, buf
	for shift := 0; shift < 64; shift += 8 {
		var count [257]int
		for i := range src {
			count[int(byte(src[i].lead>>shift))+1]++
		}
		if count[int(byte(src[0].lead>>shift))+1] == len(src) {
			continue
		}
		for b := 1; b < 257; b++ {
			count[b] += count[b-1]
		}
		for i := range src {
			b := byte(src[i].lead >> shift)
			dst[count[b]] = src[i]
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keyed[0] {
		copy(keyed, src)
	}
}

// textOnly reports whether every part is a string, or every part a binary value: such parts
// compare as their texts do.
func textOnly(parts []keyPart) bool {
	if len(parts) == 0 || parts[0].rank != rankS && parts[0].rank != rankB {
		return false
	}
	for i := range parts {
		if parts[i].rank != parts[0].rank || parts[i].numOK {
			return false
		}
	}
	return true
}

// tableKeyMatches reports whether a table item has a valid key (every key attribute present,
// of its type, not empty) that satisfies the key conditions, and leaves the key values in vals.
func tableKeyMatches(it designer.Item, keys []designer.KeyAttribute, conds []*keyCond, vals []designer.Value) bool {
	for i, k := range keys {
		v, ok := it[k.Name]
		if !validKeyValue(v, ok, k) {
			return false
		}
		if conds[i] != nil && !conds[i].matches(v) {
			return false
		}
		vals[i] = v
	}
	return true
}

// validKeyValue reports whether a key attribute is there, of its type and not empty.
func validKeyValue(v designer.Value, ok bool, k designer.KeyAttribute) bool {
	return ok && v.Type == k.Type && !(v.Type == designer.S && v.S == "") && !(v.Type == designer.B && len(v.B) == 0)
}

func keyConditionsMatch(it designer.Item, keys []designer.KeyAttribute, conds []*keyCond) bool {
	for i, k := range keys {
		if conds[i] != nil && !conds[i].matches(it[k.Name]) {
			return false
		}
	}
	return true
}

// appendEntryParts appends the key parts an entry sorts by: for a Scan the partition key's,
// then the sort key's. It also sets the Scan's partition hash.
func appendEntryParts(parts []keyPart, e *entryOrder, tg target, scan bool) []keyPart {
	if scan {
		vals := make([]designer.Value, len(tg.pk))
		for i, k := range tg.pk {
			vals[i] = e.item[k.Name]
			parts = append(parts, newKeyPart(vals[i]))
		}
		e.bucket = hashPrefix(vals...)
	}
	for _, k := range tg.sk {
		parts = append(parts, newKeyPart(e.item[k.Name]))
	}
	return parts
}

func (e *entryOrder) setParts(parts []keyPart, tg target, scan bool) {
	if scan {
		e.pk, parts = parts[:len(tg.pk)], parts[len(tg.pk):]
	}
	e.sk = parts
}

func (e *entryOrder) tieHash(tg target) string {
	if e.tie == "" {
		vals := make([]designer.Value, len(tg.tableKeys))
		for i, k := range tg.tableKeys {
			vals[i] = e.item[k.Name]
		}
		e.tie = hashPrefix(vals...)
	}
	return e.tie
}

// hashPrefix is the hash dynalite orders partitions and tied index entries by: the first six hex
// digits of MD5("Outliers" + the key values' bytes), numbers in DynamoDB's binary number form.
func hashPrefix(vals ...designer.Value) string {
	h := md5.New()
	h.Write([]byte("Outliers"))
	for _, v := range vals {
		switch v.Type {
		case designer.S:
			h.Write([]byte(v.S))
		case designer.B:
			h.Write(v.B)
		case designer.N:
			h.Write(numberKeyBytes(v.S))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:6]
}

// numberKeyBytes encodes a number as DynamoDB's key bytes (dynalite's numToBuffer): an exponent
// byte, then base-100 digit pairs, complemented for negative numbers.
func numberKeyBytes(s string) []byte {
	d, ok := designer.ParseDecimal(s)
	if !ok || d.Digits == "" {
		return []byte{0x80}
	}
	mant := make([]int, len(d.Digits))
	for i := range d.Digits {
		mant[i] = int(d.Digits[i] - '0')
	}
	exponent := int(d.Exp) + len(mant)
	appendZero := 0
	if exponent%2 != 0 {
		appendZero = 1
	}
	n := (len(mant) + appendZero + 1) / 2
	var arr []int
	if n < 20 && d.Negative {
		arr = make([]int, n+2)
		arr[n+1] = 102
	} else {
		arr = make([]int, n+1)
	}
	arr[0] = floorDiv(exponent+appendZero, 2) - 64
	if d.Negative {
		arr[0] = ^arr[0]
	}
	appended := false
	for mi := 0; mi < len(mant); mi++ {
		bi := floorDiv(mi+appendZero, 2) + 1
		switch {
		case appendZero == 1 && mi == 0 && !appended:
			arr[bi] = 0
			appended = true
			mi--
		case (mi+appendZero)%2 == 0:
			arr[bi] = mant[mi] * 10
		default:
			arr[bi] += mant[mi]
		}
		if (mi+appendZero)%2 != 0 || mi == len(mant)-1 {
			if d.Negative {
				arr[bi] = 101 - arr[bi]
			} else {
				arr[bi]++
			}
		}
	}
	out := make([]byte, len(arr))
	for i, x := range arr {
		out[i] = byte(x & 0xff)
	}
	return out
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
