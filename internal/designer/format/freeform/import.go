package freeform

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// Import reads a free-form design document. The error is a *designer.ValidationError for field
// "file" saying why when no table, key structure or access pattern can be read from it.
func Import(data []byte) (designer.Design, []designer.ImportNote, error) {
	text, notes, err := markdown.CleanInput(data)
	if err != nil {
		return designer.Design{}, nil, err
	}
	r := &reader{notes: notes}
	for _, s := range splitSections(text) {
		r.section(s)
	}
	r.endBlock()
	if len(r.tables) == 0 && len(r.patterns) == 0 {
		return designer.Design{}, nil, designer.Invalid("file", "holds no design Dynaloom can read: no table name (\"Table Name: orders\"), key structure (\"PK: USER#{user_id}\" and \"SK: …\" lines, a \"Partition key:\" line or a key table) or list of access patterns under an \"Access Patterns\" heading was found")
	}
	d := r.design()
	if err := designer.Check(d); err != nil {
		// The reader builds only what Check accepts; this guards against a gap in that promise.
		return designer.Design{}, nil, fmt.Errorf("import free-form document: %w", err)
	}
	slices.SortStableFunc(r.notes, func(a, b designer.ImportNote) int { return a.Line - b.Line })
	return d, r.notes, nil
}

// section is a heading with the lines up to the next heading; the text before the first heading
// has level 0.
type section struct {
	level int
	title string
	line  int
	items []markdown.Item
}

func splitSections(text string) []section {
	out := []section{{}}
	markdown.Walk(text, func(n, level int, title string) {
		out = append(out, section{level: level, title: title, line: n})
	}, func(it markdown.Item) {
		out[len(out)-1].items = append(out[len(out)-1].items, it)
	})
	return out
}

type tableDraft struct {
	name    string
	line    int
	stated  bool // the document gave the name
	pk, sk  keyDef
	billing string
	ttl     string
	types   []entityTypeDraft
	indexes []*indexDraft
	// indexNamed finds an index by its name or alias.
	indexNamed map[string]*indexDraft
	items      []designer.Item
	itemLines  []int
}

type keyDef struct {
	name string
	typ  designer.Type
}

type entityTypeDraft struct {
	entity, pk, sk string
	line           int
	index          []indexTemplate
}

// indexTemplate is an index key template an entity type states, such as GSI1PK = BOOK#{isbn}.
type indexTemplate struct {
	ix             *indexDraft
	attr, template string
}

type indexDraft struct {
	name, alias, purpose string
	local                bool
	line                 int
	pk, sk               []keyPart
	projection           string
	include              []string
}

type keyPart struct {
	attr, why string
}

type entityDraft struct {
	name    string
	line    int
	attrs   []designer.Attribute
	untyped []string // attributes listed without a type, read as S
}

type patternDraft struct {
	line        int
	description string
	how         string // the text that says how it is served, verbatim
	notes       []string
	entity      string // the entity whose part of the document lists the pattern, if any
}

// reader holds what was read so far and where in the document it is.
type reader struct {
	notes       []designer.ImportNote
	title       string
	prose       []designer.Section
	tables      []*tableDraft
	entities    []*entityDraft
	entityNamed map[string]*entityDraft
	patterns    []patternDraft

	entity       string      // the entity the text is about: a heading's, or a "// Users Entity" comment's
	headingIndex *indexDraft // the index the current heading names
	labelIndex   *indexDraft // the index the current bold label names
	headingAP    bool        // the heading is about access patterns
	labelAP      bool        // the bold label is
	attrsOf      string      // the entity whose attributes a list under an "Attributes" label gives
	example      bool        // under an "Example" label: key lines are an item, not templates
	pending      *entityTypeDraft
	exampleItem  designer.Item
	exampleLine  int
}

func (r *reader) note(line int, format string, args ...any) {
	r.notes = append(r.notes, designer.ImportNote{Line: line, Message: fmt.Sprintf(format, args...)})
}

func (r *reader) section(s section) {
	r.endBlock()
	if s.level > 0 {
		r.heading(s.level, markdown.Unescape(s.title), s.line)
	}
	var body []markdown.Leftover
	for _, it := range s.items {
		body = append(body, markdown.Leftover{First: it.Line, Last: it.Line + it.Span() - 1, Text: it.Text()})
	}
	if text := strings.TrimSpace(markdown.ProseOf(body)); text != "" {
		title := markdown.Unescape(s.title)
		if title == "" {
			title = "Preamble"
		}
		r.prose = append(r.prose, designer.Section{Title: title, Body: text})
	}
	for _, it := range s.items {
		r.item(it)
	}
}

var numbering = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:\d+[a-z]?[.)]|[A-Z][.)])\s+`) })

// cleanTitle is a heading or label without its numbering, emphasis and trailing colon.
func cleanTitle(s string) string {
	s = strings.TrimSpace(markdown.Unmark.Replace(s))
	s = numbering().ReplaceAllString(s, "")
	return strings.TrimSpace(strings.TrimSuffix(s, ":"))
}

func (r *reader) heading(level int, title string, line int) {
	t := cleanTitle(title)
	if level == 1 && r.title == "" {
		r.title = t
	}
	r.labelIndex, r.labelAP, r.attrsOf, r.example = nil, false, "", false
	r.headingIndex = nil
	r.headingAP = strings.Contains(strings.ToLower(t), "access pattern")
	if name, alias, purpose, local, ok := indexTitle(t); ok {
		r.headingIndex = r.index(name, alias, purpose, local, line)
		return
	}
	if e, ok := strings.CutSuffix(strings.TrimSpace(t), " Attributes"); ok {
		r.attrsOf = entityName(e)
		return
	}
	if level > 1 && !r.headingAP {
		r.entity = entityName(t)
	}
}

// label handles a paragraph that is only a bold label, such as "**Key Structure:**".
func (r *reader) label(l string, line int) {
	r.endBlock()
	t := cleanTitle(l)
	lower := strings.ToLower(t)
	r.labelIndex, r.attrsOf, r.example = nil, "", false
	r.labelAP = strings.Contains(lower, "access pattern")
	switch {
	case r.labelAP:
	case lower == "example" || lower == "examples" || strings.HasPrefix(lower, "example "):
		r.example = true
	case lower == "attributes":
		r.attrsOf = r.entity
	case strings.HasSuffix(lower, " attributes") && !strings.Contains(lower, "gsi"):
		r.attrsOf = entityName(t[:len(t)-len(" attributes")])
	default:
		if name, alias, purpose, local, ok := indexTitle(t); ok {
			r.labelIndex = r.index(name, alias, purpose, local, line)
		}
	}
}

// endBlock closes an entity type waiting for its sort key and an example item.
func (r *reader) endBlock() {
	if r.pending != nil {
		r.addEntityType(*r.pending)
		r.pending = nil
	}
	if len(r.exampleItem) > 0 {
		t := r.table(r.exampleLine)
		t.items = append(t.items, r.exampleItem)
		t.itemLines = append(t.itemLines, r.exampleLine)
		r.note(r.exampleLine, "an example item of %s was read from its key values", t.name)
	}
	r.exampleItem = nil
}

func (r *reader) currentIndex() *indexDraft {
	if r.labelIndex != nil {
		return r.labelIndex
	}
	return r.headingIndex
}

// table is the table the text is about, made (and named later) when none was named yet.
func (r *reader) table(line int) *tableDraft {
	if len(r.tables) == 0 {
		r.tables = append(r.tables, &tableDraft{line: line})
	}
	return r.tables[len(r.tables)-1]
}

func (r *reader) newTable(name string, line int) {
	if t := r.tables; len(t) > 0 && !t[len(t)-1].stated && t[len(t)-1].name == "" {
		t[len(t)-1].name, t[len(t)-1].stated, t[len(t)-1].line = name, true, line
	} else if _, ok := r.tableNamed(name); !ok {
		r.tables = append(r.tables, &tableDraft{name: name, stated: true, line: line})
	}
	r.note(line, "table %s", name)
}

func (r *reader) tableNamed(name string) (*tableDraft, bool) {
	for _, t := range r.tables {
		if t.name == name {
			return t, true
		}
	}
	return nil, false
}

// index finds the index a title names in the current table, by name or by its other name ("GSI1"
// for ExactMatchIndex), or adds it.
func (r *reader) index(name, alias, purpose string, local bool, line int) *indexDraft {
	t := r.table(line)
	if t.indexNamed == nil {
		t.indexNamed = map[string]*indexDraft{}
	}
	ix, ok := t.indexNamed[name]
	if !ok && alias != "" {
		ix, ok = t.indexNamed[alias]
	}
	if !ok {
		ix = &indexDraft{name: name, alias: alias, purpose: purpose, local: local, line: line}
		t.indexes = append(t.indexes, ix)
	} else {
		if ix.alias == "" && alias != "" && alias != ix.name {
			ix.alias = alias
		}
		if ix.name == alias && name != alias {
			ix.alias, ix.name = alias, name
		}
		if ix.purpose == "" {
			ix.purpose = purpose
		}
	}
	t.indexNamed[ix.name] = ix
	if ix.alias != "" {
		t.indexNamed[ix.alias] = ix
	}
	return ix
}

var (
	// indexWord marks a title as an index's.
	indexWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(gsi|lsi)[\w-]*|index\b|secondary`) })
	// identifier is a single name, as index names are.
	identifier    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][\w.-]*$`) })
	nameLike      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)index|gsi|lsi|_|[a-z][A-Z]`) })
	parenthetical = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\([^)]*\)`) })
	localWord     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\blsi|local secondary`) })
	kindWord      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i)(gsi|lsi|index)$`) })
	// generic is what a title says of any index, which is no purpose of its own.
	generic = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^\(?(global|local) secondary index\)?$`) })
	// thematicBreak is a "---" line, which ends what a label opened.
	thematicBreak = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s{0,3}([-*_])(\s*[-*_]){2,}\s*$`) })
)

// indexTitle reads a heading or label that names an index: "GSI1: ExactMatchIndex", "GSI1
// (ExactMatchIndex)", "GSI1 - User Tasks by Status", "GSI_TOWN (Global Secondary Index)",
// "ByStatus GSI". The name is the identifier that is not a bare number name ("GSI1") when there
// are two; the other is its alias. Words that are not a name are its purpose.
func indexTitle(t string) (name, alias, purpose string, local, ok bool) {
	t = strings.TrimSpace(strings.Trim(markdown.Unmark.Replace(t), ":"))
	if !indexWord().MatchString(t) {
		return "", "", "", false, false
	}
	local = localWord().MatchString(t)
	head, tail := t, ""
	for _, sep := range []string{": ", " - ", " — ", " – ", " ("} {
		if i := strings.Index(t, sep); i > 0 {
			head, tail = strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+len(sep):])
			if sep == " (" {
				tail = strings.TrimSuffix(tail, ")")
			}
			break
		}
	}
	if generic().MatchString(tail) {
		tail = ""
	}
	if f := strings.Fields(head); len(f) == 2 && kindWord().MatchString(f[1]) {
		head = f[0] // "ByStatus GSI"
	}
	if !identifier().MatchString(head) {
		return "", "", "", false, false
	}
	rest := strings.TrimSpace(parenthetical().ReplaceAllString(tail, ""))
	if identifier().MatchString(rest) && nameLike().MatchString(rest) {
		return rest, head, strings.Trim(strings.TrimSpace(strings.TrimPrefix(tail, rest)), "()"), local, true
	}
	return head, "", tail, local, true
}

var entitySuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\s+(entity|entities|items?|records?)$`) })

func entityName(s string) string {
	s = strings.TrimSpace(parenthetical().ReplaceAllString(cleanTitle(s), ""))
	s = entitySuffix().ReplaceAllString(s, "")
	s = strings.NewReplacer(",", " ", "[", "", "]", "", "{", "", "}", "").Replace(s)
	return designer.TruncateRunes(strings.Join(strings.Fields(s), " "), designer.MaxNameLen)
}

var (
	boldLabel  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\*\*([^*]+?)\*\*\s*(.*)$`) })
	listMarker = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+`) })
	orderedAt  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s{0,3}\d+[.)]\s+`) })
	comment    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?://+|--|#+)\s*`) })
)

func (r *reader) item(it markdown.Item) {
	switch it.Kind {
	case markdown.KindFence:
		r.endBlock()
		for i, l := range it.Lines {
			if (i == 0 || i == len(it.Lines)-1) && markdown.FenceMarker(l) != "" {
				continue
			}
			r.fenceLine(l, it.Line+i)
		}
		r.endBlock()
	case markdown.KindTable:
		r.endBlock()
		r.tableItem(it)
	case markdown.KindBullet:
		if !r.labelAP && !r.headingAP {
			r.sentence(strings.Join(it.Lines, " "), it.Line)
		}
		for i, l := range it.Lines {
			r.line(l, it.Line+i, i == 0 || listMarker().MatchString(l))
		}
	default:
		if len(it.Lines) == 1 && thematicBreak().MatchString(it.Lines[0]) && !strings.ContainsAny(it.Lines[0], "*_") || len(it.Lines) == 1 && strings.Trim(it.Lines[0], " -*_") == "" && len(strings.TrimSpace(it.Lines[0])) >= 3 {
			r.endBlock()
			r.labelIndex, r.labelAP, r.attrsOf, r.example = nil, false, "", false
			return
		}
		if len(it.Lines) == 1 {
			if m := boldLabel().FindStringSubmatch(strings.TrimSpace(it.Lines[0])); m != nil && strings.TrimSpace(m[2]) == "" {
				r.label(m[1], it.Line)
				return
			}
		}
		if !r.labelAP && !r.headingAP {
			r.sentence(strings.Join(it.Lines, " "), it.Line)
		}
		for i, l := range it.Lines {
			r.line(l, it.Line+i, orderedAt().MatchString(l))
		}
	}
}

// fenceLine reads a line of a code block, where layouts write key structures: comments name the
// table or the entity ("// Base Table: todo-app-data", "// Users Entity").
func (r *reader) fenceLine(l string, n int) {
	t := strings.TrimSpace(l)
	if t == "" {
		return
	}
	if c := comment().FindString(t); c != "" {
		body := strings.TrimSpace(t[len(c):])
		if label, value, ok := strings.Cut(body, ":"); ok && strings.TrimSpace(value) != "" {
			r.field(strings.TrimSpace(label), strings.TrimSpace(value), n)
			return
		}
		if entitySuffix().MatchString(body) {
			r.endBlock()
			r.entity = entityName(body)
		}
		return
	}
	r.statement(t, n)
}

// line reads a line of a paragraph or a bullet; start says it begins a list entry.
func (r *reader) line(l string, n int, start bool) {
	t := strings.TrimSpace(listMarker().ReplaceAllString(l, ""))
	if t == "" {
		return
	}
	if r.labelAP || r.headingAP && r.labelIndex == nil {
		r.patternLine(t, n, start)
		return
	}
	if r.attrsOf != "" && start {
		if r.attribute(t, n) {
			return
		}
	}
	r.statement(t, n)
}

var (
	// keyLine is "PK: USER#{id}", "GSI1SK = STATUS#{status}", with the template in backticks or not.
	keyLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^`?([A-Za-z][A-Za-z0-9_]*)`?\\s*[:=]\\s*`?([^`\\s]+)`?(.*)$")
	})
	// roleLine is "Hash: `GSI1PK` = `YEAR#{yyyy}`", "Partition key: `user_id` (String)".
	roleLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)^(hash|range|partition|sort)(?:\\s+key)?\\s*:\\s*`?([A-Za-z][A-Za-z0-9_.-]*)`?\\s*(.*)$")
	})
	// keyDefLine is "**PK** (Partition Key): String - …".
	keyDefLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)^\\*\\*`?([A-Za-z][A-Za-z0-9_]*)`?\\*\\*\\s*\\((partition|hash|sort|range)\\s+key\\)\\s*:?\\s*(.*)$")
	})
)

// keyish says whether an attribute name is written the way key attributes are: PK, SK, GSI1PK,
// GSI_TOWN_SK.
func keyish(attr string) bool {
	u := strings.ToUpper(attr)
	return strings.HasSuffix(u, "PK") || strings.HasSuffix(u, "SK")
}

func sortRole(attr string) bool {
	return strings.HasSuffix(strings.ToUpper(attr), "SK")
}

var (
	// tableNamed is a table named in a sentence: "a single table named `library-main`".
	tableNamed = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)\\btable\\s+(?:named|called)\\s+`([A-Za-z0-9_.-]+)`")
	})
	billedOnDemand = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bbilled\s+on[- ]demand\b|\bpay[- ]per[- ]request\b`)
	})
	billedProvisioned = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bbilled\b.*\bprovisioned\b|\bprovisioned\s+capacity\b`)
	})
)

// sentence reads what a paragraph or list entry says in prose: a table it names, how the table
// is billed.
func (r *reader) sentence(t string, n int) {
	if m := tableNamed().FindStringSubmatch(t); m != nil {
		r.endBlock()
		r.newTable(m[1], n)
	}
	if m := ttlOn().FindStringSubmatch(t); m != nil {
		r.table(n).ttl = m[1]
	}
	if len(r.tables) > 0 && billedOnDemand().MatchString(t) {
		r.tables[len(r.tables)-1].billing = designer.OnDemand
	} else if len(r.tables) > 0 && billedProvisioned().MatchString(t) {
		r.tables[len(r.tables)-1].billing = designer.Provisioned
	}
}

// statement reads one line that may state a key, a table field or an index field.
func (r *reader) statement(t string, n int) {
	if m := keyDefLine().FindStringSubmatch(t); m != nil {
		r.keyDefinition(m[1], strings.ToLower(m[2]), m[3], n)
		return
	}
	if m := boldLabel().FindStringSubmatch(t); m != nil {
		r.field(cleanTitle(m[1]), strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[2]), ":")), n)
		return
	}
	if m := roleLine().FindStringSubmatch(t); m != nil {
		role := strings.ToLower(m[1])
		sort := role == "range" || role == "sort"
		rest := strings.TrimSpace(m[3])
		if ix := r.currentIndex(); ix != nil {
			why := strings.TrimSpace(strings.TrimPrefix(rest, "="))
			r.indexKey(ix, m[2], sort, strings.Trim(why, "`"))
			return
		}
		r.keyDefinition(m[2], role, rest, n)
		return
	}
	if m := keyLine().FindStringSubmatch(t); m != nil && keyish(m[1]) {
		r.keyTemplate(m[1], strings.Trim(m[2], "`"), strings.TrimSpace(m[3]), n)
		return
	}
	if label, value, ok := strings.Cut(t, ":"); ok && !strings.Contains(label, "`") && len(strings.Fields(label)) <= 3 {
		r.field(strings.TrimSpace(label), strings.TrimSpace(value), n)
	}
}

var (
	firstName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`?([A-Za-z][A-Za-z0-9_.-]*)`?") })
	ttlOn     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?i)ttl[^`]*?\\bon\\s+`([A-Za-z][A-Za-z0-9_.-]*)`") })
	keyNames  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b([A-Za-z][A-Za-z0-9_]*)\s*\((partition|hash|sort|range)\s*key\)`)
	})
)

// field reads "Label: value" where the label names a table or index property.
func (r *reader) field(label, value string, n int) {
	lower := strings.ToLower(label)
	switch {
	case lower == "table name" || lower == "table" || lower == "base table" || lower == "table_name" || lower == "tablename":
		if m := firstName().FindStringSubmatch(value); m != nil {
			r.endBlock()
			r.newTable(m[1], n)
		}
	case strings.HasPrefix(lower, "billing"):
		t := r.table(n)
		v := strings.ToLower(value)
		switch {
		case strings.Contains(v, "provisioned"):
			t.billing = designer.Provisioned
		case strings.Contains(v, "demand") || strings.Contains(v, "pay-per-request") || strings.Contains(v, "pay_per_request") || strings.Contains(v, "pay per request"):
			t.billing = designer.OnDemand
		}
	case lower == "ttl" || lower == "ttl attribute" || lower == "time to live":
		if m := firstName().FindStringSubmatch(value); m != nil {
			r.table(n).ttl = m[1]
		}
	case (lower == "purpose" || lower == "use case") && value != "":
		if ix := r.currentIndex(); ix != nil {
			ix.purpose = strings.TrimSpace(ix.purpose + "\n" + markdown.Unescape(value))
		}
	case lower == "projection" || lower == "projection type":
		if ix := r.currentIndex(); ix != nil {
			r.projection(ix, value)
		}
	case lower == "attributes" && value != "" && r.entity != "":
		e := r.entityDraft(r.entity, n)
		for _, a := range strings.Split(value, ",") {
			if m := firstName().FindStringSubmatch(a); m != nil && addAttr(e, designer.Attribute{Name: m[1], Type: designer.S}) {
				e.untyped = append(e.untyped, m[1])
			}
		}
	case strings.Contains(lower, "key"):
		for _, m := range keyNames().FindAllStringSubmatch(value, -1) {
			r.keyDefinition(m[1], strings.ToLower(m[2]), "", n)
		}
	}
}

func (r *reader) projection(ix *indexDraft, value string) {
	v := strings.ToUpper(value)
	switch {
	case strings.Contains(v, "KEYS_ONLY") || strings.Contains(v, "KEYS ONLY"):
		ix.projection = designer.KeysOnly
	case strings.Contains(v, "INCLUDE"):
		ix.projection = designer.Include
		if _, rest, ok := strings.Cut(value, "("); ok {
			rest, _, _ = strings.Cut(rest, ")")
			for _, a := range strings.Split(rest, ",") {
				if m := firstName().FindStringSubmatch(a); m != nil {
					ix.include = append(ix.include, m[1])
				}
			}
		}
	case strings.HasPrefix(strings.TrimSpace(v), "ALL"):
		ix.projection = designer.All
	}
}

// keyDefinition reads a table's key attribute: its name, role and, when stated, its type.
func (r *reader) keyDefinition(attr, role, rest string, n int) {
	t := r.table(n)
	k := keyDef{name: attr, typ: typeOf(rest)}
	if role == "sort" || role == "range" {
		if t.sk.name == "" || t.sk.name == attr {
			t.sk = k
		}
	} else if t.pk.name == "" || t.pk.name == attr {
		t.pk = k
	}
}

var typeWords = []struct {
	re  *regexp.Regexp
	typ designer.Type
}{
	{regexp.MustCompile(`(?i)\b(string set|SS)\b`), designer.SS},
	{regexp.MustCompile(`(?i)\b(number set|NS)\b`), designer.NS},
	{regexp.MustCompile(`(?i)\b(string|S|text|uuid)\b`), designer.S},
	{regexp.MustCompile(`(?i)\b(number|N|integer|int|decimal|float)\b`), designer.N},
	{regexp.MustCompile(`(?i)\b(boolean|bool)\b`), designer.BOOL},
	{regexp.MustCompile(`(?i)\b(binary|B)\b`), designer.B},
	{regexp.MustCompile(`(?i)\b(list|array|L)\b`), designer.L},
	{regexp.MustCompile(`(?i)\b(map|object|M)\b`), designer.M},
}

// typeOf reads the type a key or attribute definition states at its start ("String - …",
// "(Number)"); empty when it states none.
func typeOf(s string) designer.Type {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), ":"))
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	first := strings.Trim(f[0], "()`,:-")
	for _, w := range typeWords {
		if first != "" && w.re.MatchString(first) && len(w.re.FindString(first)) == len(first) {
			return w.typ
		}
	}
	return ""
}

// keyTemplate reads "PK: USER#{user_id}": an index key when the text is about an index, an example
// item's key under an "Example" label, else an entity type's key template.
func (r *reader) keyTemplate(attr, template, rest string, n int) {
	if ix := r.currentIndex(); ix != nil && !r.isTableKey(attr) {
		r.indexKey(ix, attr, sortRole(attr), strings.TrimSpace(template+" "+rest))
		if r.pending != nil && r.labelIndex != nil {
			r.pending.index = append(r.pending.index, indexTemplate{ix, attr, template})
		} else if k := len(r.table(n).types); k > 0 && r.labelIndex != nil {
			et := &r.table(n).types[k-1]
			et.index = append(et.index, indexTemplate{ix, attr, template})
		}
		return
	}
	t := r.table(n)
	sort := sortRole(attr)
	if sort && t.sk.name == "" && t.pk.name != attr {
		t.sk = keyDef{name: attr}
	} else if !sort && t.pk.name == "" {
		t.pk = keyDef{name: attr}
	}
	if r.example {
		if r.exampleItem == nil {
			r.exampleItem, r.exampleLine = designer.Item{}, n
		}
		r.exampleItem[attr] = designer.Str(template)
		return
	}
	if !sort || r.pending == nil {
		r.endBlock()
		r.pending = &entityTypeDraft{entity: r.entity, line: n}
	}
	if sort {
		r.pending.sk = template
		r.addEntityType(*r.pending)
		r.pending = nil
		return
	}
	r.pending.pk = template
}

func (r *reader) isTableKey(attr string) bool {
	if len(r.tables) == 0 {
		return attr == "PK" || attr == "SK"
	}
	t := r.tables[len(r.tables)-1]
	return attr == t.pk.name || attr == t.sk.name || t.pk.name == "" && attr == "PK" || t.sk.name == "" && attr == "SK"
}

func (r *reader) addEntityType(et entityTypeDraft) {
	if et.entity == "" {
		et.entity = "Item"
	}
	t := r.table(et.line)
	t.types = append(t.types, et)
	r.entityDraft(et.entity, et.line)
	sk := ""
	if et.sk != "" {
		sk = ", sort key " + et.sk
	}
	r.note(et.line, "entity type %s: partition key %s%s", et.entity, et.pk, sk)
}

func (r *reader) indexKey(ix *indexDraft, attr string, sort bool, why string) {
	parts := &ix.pk
	if sort {
		parts = &ix.sk
	}
	for _, p := range *parts {
		if p.attr == attr {
			return
		}
	}
	*parts = append(*parts, keyPart{attr: attr, why: why})
}

func (r *reader) entityDraft(name string, line int) *entityDraft {
	if e, ok := r.entityNamed[name]; ok {
		return e
	}
	e := &entityDraft{name: name, line: line}
	r.entities = append(r.entities, e)
	if r.entityNamed == nil {
		r.entityNamed = map[string]*entityDraft{}
	}
	r.entityNamed[name] = e
	return e
}

// addAttr adds an attribute to an entity, or replaces one listed before without a type by what a
// later list says of it; it reports whether the attribute is new.
func addAttr(e *entityDraft, a designer.Attribute) bool {
	for i, b := range e.attrs {
		if b.Name != a.Name {
			continue
		}
		if j := slices.Index(e.untyped, a.Name); j >= 0 {
			e.attrs[i] = a
			e.untyped = slices.Delete(e.untyped, j, j+1)
		}
		return false
	}
	e.attrs = append(e.attrs, a)
	return true
}

// attrLine is "`email` (String): User's email" or "`name`: District name".
var attrLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^`([A-Za-z_][A-Za-z0-9_.#-]*)`\\s*(?:\\(([^)]*)\\))?\\s*:?\\s*(.*)$")
})

// attribute reads one entry of an entity's attribute list.
func (r *reader) attribute(t string, n int) bool {
	m := attrLine().FindStringSubmatch(t)
	if m == nil {
		return false
	}
	typ := typeOf(m[2])
	desc := strings.TrimSpace(m[3])
	e := r.entityDraft(r.attrsOf, n)
	if typ == "" {
		if typ = typeOf(desc); typ == "" {
			typ = designer.S
			e.untyped = append(e.untyped, m[1])
		}
	}
	if !addAttr(e, designer.Attribute{Name: m[1], Type: typ, Description: desc}) && slices.Contains(e.untyped, m[1]) && typ != designer.S {
		e.untyped = slices.DeleteFunc(e.untyped, func(u string) bool { return u == m[1] })
	}
	return true
}
