package datamodelmd

import (
	"regexp"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// ParseOperationText reads the operation cell of a data model's Access Pattern Mapping table, as
// people write it, into operations: "GetItem on Users", "Query(PK=USER#<id>, SK begins_with
// ORDER#)", "Query UserOrdersIndex: user_id = :uid", "TransactWriteItems (Put Order + Update
// User)", "BatchGetItem, then Query on Orders". It is best effort: it keeps what it recognises
// (the operation, a table or index it names, a key condition written in DynamoDB syntax, a Limit,
// the direction and consistency) and drops the rest, which the mapping's Source keeps verbatim. Each
// action of a transaction or batch that the text lists becomes an operation of that kind, noted
// with its action. Text that names no operation gives nil.
func ParseOperationText(text string) []designer.Operation {
	var spans [][]int
	for _, m := range opNamePattern.FindAllStringIndex(text, -1) {
		if (m[0] == 0 || !designer.IsNameByte(text[m[0]-1])) && (m[1] == len(text) || !designer.IsNameByte(text[m[1]])) {
			spans = append(spans, m)
		}
	}
	var out []designer.Operation
	for i, m := range spans {
		name, ok := opNameFromText(text[m[0]:m[1]])
		if !ok {
			continue
		}
		end := len(text)
		if i+1 < len(spans) {
			end = spans[i+1][0]
		}
		rest := text[m[1]:end]
		op := designer.Operation{Op: name}
		readOpTarget(&op, rest)
		readOpOptions(&op, rest)
		out = append(out, splitActions(op, rest)...)
	}
	return out
}

// opNamePattern finds operation names as words: the API names in any case and with spaces or
// underscores inside; Query and Scan only capitalised, since "query" and "scan" are also prose.
var opNamePattern = regexp.MustCompile(`(?i:batch[ _]?get[ _]?item|batch[ _]?write[ _]?item|transact[ _]?get[ _]?items|transact[ _]?write[ _]?items|get[ _]?item|put[ _]?item|update[ _]?item|delete[ _]?item)|Query|QUERY|Scan|SCAN`)

func opNameFromText(s string) (string, bool) {
	name, err := designer.ParseOperationName(s)
	return name, err == nil
}

var (
	// "on Users", "from the Orders table", "against table Users", "on Orders.ByStatus".
	opTargetAfterWord = regexp.MustCompile(`(?i)^\s*(?:on|from|against|in|into|to|of)\s+(?:the\s+)?(?:table\s+|index\s+|gsi\s+|lsi\s+)?([A-Za-z0-9_.\-/]{3,255})`)
	// "Query UserOrdersIndex: …", "Scan Users".
	opTargetDirect = regexp.MustCompile(`^\s+([A-Za-z0-9_.\-]{3,255})(?:\s*[:(]|\s*$|\s+(?:with|where|using|by|on|for)\b)`)
	// "using index ByStatus", "via GSI1", "index: ByStatus", "(GSI ByStatus)".
	opIndexNamed = regexp.MustCompile(`(?i)\b(?:index|gsi|lsi)\s*[:=]?\s+([A-Za-z0-9_.\-]{3,255})`)
	opLimit      = regexp.MustCompile(`(?i)\blimit\s*[:=]?\s*(\d[\d,]*)`)
)

// indexLike reports whether a name reads as an index name rather than a table name.
func indexLike(name string) bool {
	lower := strings.ToLower(name)
	return strings.Contains(lower, "index") || strings.HasPrefix(lower, "gsi") || strings.HasPrefix(lower, "lsi") ||
		strings.HasPrefix(lower, "by")
}

// readOpTarget sets the table and index the text after an operation name names.
func readOpTarget(op *designer.Operation, rest string) {
	name := ""
	if m := opTargetAfterWord.FindStringSubmatch(rest); m != nil {
		name = m[1]
	} else if m := opTargetDirect.FindStringSubmatch(rest); m != nil {
		name = m[1]
	}
	name = strings.TrimRight(name, ".-/")
	if table, index, ok := strings.Cut(name, "."); ok && table != "" && index != "" {
		op.Table, op.Index = table, index
	} else if table, index, ok := strings.Cut(name, "/"); ok && table != "" && index != "" {
		op.Table, op.Index = table, index
	} else if name != "" && !opStopWord(name) {
		if indexLike(name) {
			op.Index = name
		} else {
			op.Table = name
		}
	}
	if op.Index == "" {
		if m := opIndexNamed.FindStringSubmatch(rest); m != nil && !opStopWord(m[1]) {
			op.Index = strings.TrimRight(m[1], ".-")
		}
	}
}

// opStopWord reports words that follow an operation name without naming anything.
func opStopWord(s string) bool {
	switch strings.ToLower(s) {
	case "the", "with", "where", "using", "and", "then", "for", "all", "each", "per", "one", "two", "index", "table", "gsi", "lsi", "by", "on", "key", "keys", "items", "item":
		return true
	}
	return false
}

// readOpOptions sets the key condition, Limit, direction and consistency the text gives.
func readOpOptions(op *designer.Operation, rest string) {
	for _, candidate := range keyConditionCandidates(rest) {
		if cond, ok := leadingKeyCondition(candidate); ok {
			op.KeyCondition = cond
			break
		}
	}
	if m := opLimit.FindStringSubmatch(rest); m != nil {
		if n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); err == nil && n > 0 {
			op.Limit = &n
		}
	}
	lower := strings.ToLower(rest)
	if strings.Contains(lower, "scanindexforward=false") || strings.Contains(lower, "scanindexforward = false") ||
		strings.Contains(lower, "descending") || strings.Contains(lower, "newest first") || strings.Contains(lower, "reverse order") {
		op.Descending = true
	}
	if strings.Contains(lower, "consistentread") || strings.Contains(lower, "strongly consistent") || strings.Contains(lower, "strong consistency") {
		op.Consistent = true
	}
}

// keyConditionCandidates are the parts of the text a key condition may be written in: after a
// colon, inside the first parentheses, or after "where" or "with".
func keyConditionCandidates(rest string) []string {
	var out []string
	if _, after, ok := strings.Cut(rest, ":"); ok && !strings.HasPrefix(after, ":") {
		out = append(out, trimClause(after))
	}
	if open := strings.IndexByte(rest, '('); open >= 0 {
		if close := strings.LastIndexByte(rest, ')'); close > open {
			out = append(out, rest[open+1:close])
		}
	}
	for _, w := range []string{" where ", " with "} {
		if i := strings.Index(strings.ToLower(rest), w); i >= 0 {
			out = append(out, trimClause(rest[i+len(w):]))
		}
	}
	return out
}

// leadingKeyCondition returns the start of s that reads as a key condition: all of s, or what comes
// before its first comma outside parentheses, so "a = :v AND b > :w, Limit 20" gives its first
// part. Text past that comma is never part of one: a key condition holds a comma only inside
// begins_with's parentheses.
func leadingKeyCondition(s string) (string, bool) {
	end := len(s)
	depth := 0
scan:
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				end = i
				break scan
			}
		}
	}
	candidate := strings.TrimSpace(s[:end])
	if terms, err := dynamo.ParseKeyCondition(candidate, nil); err == nil && len(terms) > 0 && !dynamo.Unresolved(terms) {
		return candidate, true
	}
	return "", false
}

// trimClause cuts a clause at the first separator that cannot belong to a key condition.
func trimClause(s string) string {
	if i := strings.IndexAny(s, ";\n→|"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(strings.ToLower(s), ", then"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

var (
	// opActionSeparator splits the list of a transaction's or batch's actions.
	opActionSeparator = regexp.MustCompile(`(?i)\s*(?:\+|,|;|&|\band\b|\bthen\b)\s*`)
	// opAction is an action of a transaction or batch: "Put Order", "Update User".
	opAction = regexp.MustCompile(`^(?:Put|Update|Delete|ConditionCheck|Condition check|Get)\b`)
)

// splitActions returns one operation per action a transaction or batch lists, in parentheses or
// after a colon, or op alone.
func splitActions(op designer.Operation, rest string) []designer.Operation {
	if !strings.HasPrefix(op.Op, "Transact") && !strings.HasPrefix(op.Op, "Batch") {
		return []designer.Operation{op}
	}
	list := ""
	if open, close := strings.IndexByte(rest, '('), strings.LastIndexByte(rest, ')'); open >= 0 && close > open {
		list = rest[open+1 : close]
	} else if _, after, ok := strings.Cut(rest, ":"); ok {
		list = after
	}
	var out []designer.Operation
	for _, part := range opActionSeparator.Split(list, -1) {
		part = strings.TrimSpace(part)
		if !opAction.MatchString(part) {
			continue
		}
		action := op
		action.KeyCondition = ""
		action.Notes = part
		out = append(out, action)
	}
	if len(out) == 0 {
		return []designer.Operation{op}
	}
	return out
}
