package reqmd

import (
	"slices"
	"strings"
	"unicode"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// The Key Requirements cell. Export writes its parts labelled and in one order, "Latency <50ms;
// Eventual consistency; Result ≤40 items; Item size 1KB; notes"; documents in the wild write them
// bare and comma-separated, "<50ms, eventual, ≤40 items, 1KB" or "p99 < 20 ms, strongly
// consistent, at most 40, ~1 KB". A bare part is told by its shape: a number with a unit of time
// is a latency, with a unit of bytes a size, with a word of counting ("items", "at most") a result
// bound. What is none of them stays in the notes as written.

// keyRequirements are the parts of a Key Requirements cell.
type keyRequirements struct {
	latency, consistency, result, size, notes string
}

// parse reads a Key Requirements cell (escaped). Parts are separated by ";" and, when a part is
// not one thing as a whole, by ","; a labelled part ("Latency: <50ms", "Result 1 item") takes
// its whole ";"-part as its value, commas and all. A part "Notes: …" takes the rest of the cell
// as written. A second value for a field that is already set goes to the notes.
func (k *keyRequirements) parse(cell string) {
	var notes []string
	rest := cell
	for rest != "" {
		seg := markdown.SplitUnescaped(rest, ';')[0]
		rest = strings.TrimPrefix(rest[len(seg):], ";")
		t := strings.TrimSpace(seg)
		if n, ok := cutLabel(t, "notes"); ok {
			if rest != "" {
				n += ";" + rest // the notes run to the end of the cell, separators and all
			}
			notes = append(notes, markdown.Unescape(n))
			break
		}
		if t == "" {
			continue
		}
		plain := markdown.Unescape(t)
		if target, value := k.labelled(t); target != nil {
			if !k.set(target, value) {
				notes = append(notes, plain)
			}
			continue
		}
		if target, value := k.bare(plain); target != nil {
			if !k.set(target, value) {
				notes = append(notes, plain)
			}
			continue
		}
		pieces := commaParts(plain)
		var unread []string
		for _, piece := range pieces {
			target, value := k.bare(piece)
			if target == nil || !k.set(target, value) {
				unread = append(unread, piece)
			}
		}
		switch {
		case len(unread) == len(pieces):
			notes = append(notes, plain) // nothing in it was read: kept exactly as written
		case len(unread) > 0:
			notes = append(notes, strings.Join(unread, ", "))
		}
	}
	k.notes = strings.Join(notes, "; ")
}

// set stores value in an empty field and reports whether it did.
func (k *keyRequirements) set(field *string, value string) bool {
	if *field != "" || value == "" {
		return false
	}
	*field = value
	return true
}

// labelled reads a part that names its field: "Latency <50ms", "Consistency: strong", "Result 1
// item", "Item size <1 KB". t is escaped; the value returned is not.
func (k *keyRequirements) labelled(t string) (*string, string) {
	if v, ok := cutLabel(t, "consistency"); ok {
		if c, err := designer.ParseConsistency(markdown.Unescape(v)); err == nil && c != "" {
			return &k.consistency, c
		}
		return nil, ""
	}
	for _, f := range []struct {
		labels []string
		field  *string
	}{
		{[]string{"latency"}, &k.latency},
		{[]string{"result bound", "result"}, &k.result},
		{[]string{"item size band", "item size"}, &k.size},
	} {
		for _, l := range f.labels {
			if v, ok := cutLabel(t, l); ok && v != "" {
				return f.field, markdown.Unescape(v)
			}
		}
	}
	return nil, ""
}

// bare reads an unlabelled part by its shape, and returns the field it fills and its value: the
// part as written, less a redundant "latency" or "item size" word.
func (k *keyRequirements) bare(plain string) (*string, string) {
	s := strings.TrimSpace(plain)
	if c, err := designer.ParseConsistency(s); err == nil && c != "" {
		return &k.consistency, c
	}
	switch kindOfPart(s) {
	case partLatency:
		return &k.latency, trimWords(s, "latency")
	case partSize:
		return &k.size, trimWords(s, "item size")
	case partResult:
		return &k.result, s
	}
	return nil, ""
}

// trimWords cuts word from the start or the end of s, ignoring case, when it stands apart there.
func trimWords(s, word string) string {
	if v, ok := cutLabel(s, word); ok && v != "" {
		return v
	}
	if len(s) > len(word)+1 && strings.EqualFold(s[len(s)-len(word):], word) && s[len(s)-len(word)-1] == ' ' {
		return strings.TrimSpace(s[:len(s)-len(word)])
	}
	return s
}

// commaParts splits at commas, except a comma between digits ("1,000 items").
func commaParts(s string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != ',' || (i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1])) {
			continue
		}
		parts = append(parts, strings.TrimSpace(s[start:i]))
		start = i + 1
	}
	parts = append(parts, strings.TrimSpace(s[start:]))
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Kinds of a bare part.
const (
	partUnknown = iota
	partLatency
	partSize
	partResult
)

var (
	timeUnits = wordSet("ms", "msec", "msecs", "millisecond", "milliseconds", "µs", "us", "microsecond", "microseconds",
		"s", "sec", "secs", "second", "seconds")
	sizeUnits = wordSet("b", "byte", "bytes", "kb", "kib", "mb", "mib")
	// Words any of the three may hold around their number.
	quantityWords = wordSet("<", "<=", "≤", "~", "≈", "-", "–", "to", "under", "below", "less", "than", "within", "at",
		"most", "up", "max", "maximum", "about", "around", "approx", "approximately", "avg", "average", "typical",
		"typically", "each", "per")
	latencyWords = wordSet("latency", "p50", "p90", "p95", "p99", "p99.9", "p999", "response", "time", "read", "reads",
		"write", "writes", "sub", "single", "double", "digit", "target", "sla", "slo", "end", "e2e")
	sizeWords   = wordSet("item", "items", "size", "payload", "document", "documents", "record", "records", "object", "objects")
	resultWords = wordSet("item", "items", "result", "results", "record", "records", "row", "rows", "entry", "entries",
		"page", "query", "request", "returned", "returns", "return", "top", "first", "single", "one", "limit", "of", "a",
		"unbounded")
	// Words that say a number counts something (a bare "40" does not).
	countingWords = wordSet("item", "items", "result", "results", "record", "records", "row", "rows", "entries",
		"at", "up", "max", "maximum", "≤", "<", "<=", "top", "first", "limit", "per", "single", "one", "unbounded")
)

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// kindOfPart tells a latency ("<50ms", "p99 < 20 ms", "single-digit ms"), a size ("1KB", "~1 KB",
// "2-4 KB") and a result bound ("≤40 items", "at most 40", "single item") apart. Every word of
// the part must belong to its kind; a result bound may name what it counts after its number
// ("at most 40 pets per owner") with up to two words of its own.
func kindOfPart(s string) int {
	toks := partTokens(strings.ToLower(s))
	var numbers, times, sizes int
	for i, t := range toks {
		if isNumberToken(t) {
			numbers++
			continue
		}
		after := i > 0 && (isNumberToken(toks[i-1]) || toks[i-1] == "digit")
		switch {
		case after && timeUnits[t]:
			times++
		case after && sizeUnits[t]:
			sizes++
		}
	}
	only := func(words map[string]bool, units map[string]bool, free int) bool {
		seenNumber := false
		for _, t := range toks {
			switch {
			case isNumberToken(t):
				seenNumber = true
			case quantityWords[t] || words[t] || units[t]:
			case seenNumber && free > 0:
				free--
			default:
				return false
			}
		}
		return true
	}
	switch {
	case times > 0 && sizes == 0 && only(latencyWords, timeUnits, 0):
		return partLatency
	case sizes > 0 && times == 0 && numbers > 0 && only(sizeWords, sizeUnits, 0):
		return partSize
	case times > 0 || sizes > 0:
		return partUnknown
	}
	counting := false
	for _, t := range toks {
		counting = counting || countingWords[t]
	}
	if counting && (numbers > 0 || slices.ContainsFunc(toks, func(t string) bool { return t == "single" || t == "one" || t == "unbounded" })) &&
		only(resultWords, nil, 2) {
		return partResult
	}
	return partUnknown
}

// partTokens splits a lowercased part into numbers ("1,000", "1.6"), words ("p99", "ms") and the
// signs between them ("<", "≤", "~", "-"), so that "<50ms" is "<", "50", "ms".
func partTokens(s string) []string {
	var toks []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		j := i + 1
		switch {
		case unicode.IsSpace(r):
			i = j
			continue
		case unicode.IsDigit(r) || (r == '.' && j < len(rs) && unicode.IsDigit(rs[j])):
			for j < len(rs) && (unicode.IsDigit(rs[j]) || ((rs[j] == '.' || rs[j] == ',') && j+1 < len(rs) && unicode.IsDigit(rs[j+1]))) {
				j++
			}
		case unicode.IsLetter(r):
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || (rs[j] == '.' && j+1 < len(rs) && unicode.IsDigit(rs[j+1]))) {
				j++
			}
		case r == '<' && j < len(rs) && rs[j] == '=':
			j++
		}
		toks = append(toks, strings.TrimRight(string(rs[i:j]), "."))
		i = j
	}
	return toks
}

func isNumberToken(t string) bool {
	return t != "" && (isDigit(t[0]) || (t[0] == '.' && len(t) > 1))
}

// cutLabel cuts "label " or "label:" from the start of s, ignoring case.
func cutLabel(s, label string) (string, bool) {
	if len(s) <= len(label) || !strings.EqualFold(s[:len(label)], label) {
		return "", false
	}
	if c := s[len(label)]; c != ' ' && c != ':' {
		return "", false
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s[len(label):]), ":")), true
}
