package datamodelmd

import (
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// A Sparse bullet is read as a person reads it: its answer, else a sentence saying it is not
// sparse, else the attribute that makes it sparse; what it cannot tell is kept with a note.
func TestImport_sparseBulletsReadAsTheySay(t *testing.T) {
	t.Parallel()
	d, notes := mustImport(t, readFixture(t, "kept-sparse-bullets.md"))
	tools := tableNamed(t, d, "Tools")
	want := []struct {
		index  string
		sparse bool
		note   string
	}{
		{"ByShelf", false, "every tool sits on a shelf"},
		{"ByBorrower", true, "`borrower` - only tools out on loan carry it"},
		{"ByDue", false, "not sparse, since every tool has a due date (wrong on purpose: tools on the shelf have none)"},
		{"ByShelfAgain", false, "every tool has a shelf"},
		{"ByMood", false, "depends on the season"},
	}
	for _, w := range want {
		ix, _, _, ok := tools.IndexByName(w.index)
		if !ok {
			t.Fatalf("no index %s", w.index)
		}
		if ix.Sparse != w.sparse || ix.SparseNote != w.note {
			t.Errorf("%s: sparse %v, note %q; want %v, %q", w.index, ix.Sparse, ix.SparseNote, w.sparse, w.note)
		}
	}
	if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool {
		return n.Line == 52 && strings.Contains(n.Message, "ByMood") && strings.Contains(n.Message, "neither yes nor no")
	}) {
		t.Errorf("no note names line 52, the Sparse bullet of ByMood that says neither; notes: %+v", notes)
	}
	// ByDue says it is not sparse, but the tools on the shelf have no due date.
	assertFinding(t, d, "MOD017", "tables/Tools/indexes/ByDue/sparse")
	back := assertDataModelFixedPoint(t, d)
	for _, w := range want {
		ix, _, _, _ := tableNamed(t, back, "Tools").IndexByName(w.index)
		if ix.Sparse != w.sparse || ix.SparseNote != w.note {
			t.Errorf("after export and import again, %s: sparse %v, note %q", w.index, ix.Sparse, ix.SparseNote)
		}
	}
}

func TestReadSparse(t *testing.T) {
	t.Parallel()
	attribute := func(name string) bool { return name == "status" }
	for _, c := range []struct {
		text   string
		answer int
		note   string
	}{
		{"No", sparseNo, ""},
		{"no - every order has one", sparseNo, "every order has one"},
		{"**No** — all items", sparseNo, "all items"},
		{"No, every order has one", sparseNo, "every order has one"},
		{"N/A - all items have it", sparseNo, "all items have it"},
		{"None", sparseNo, ""},
		{"Not sparse", sparseNo, "Not sparse"},
		{"No sparse key: everything is indexed", sparseNo, "No sparse key: everything is indexed"},
		{"The index is not sparse", sparseNo, "The index is not sparse"},
		{"non-sparse by design", sparseNo, "non-sparse by design"},
		{"Dense", sparseNo, "Dense"},
		{"Yes", sparseYes, ""},
		{"Yes: only open orders", sparseYes, "only open orders"},
		{"status - only open orders carry it", sparseYes, "status - only open orders carry it"},
		{"isRead - only unread notifications", sparseYes, "isRead - only unread notifications"},
		{"`archived_at` set on archive", sparseYes, "`archived_at` set on archive"},
		{"Only items with a coupon", sparseYes, "Only items with a coupon"},
		{"Notifications are all indexed", sparseUnknown, "Notifications are all indexed"},
		{"depends on the season", sparseUnknown, "depends on the season"},
	} {
		answer, note := readSparse(c.text, attribute)
		if answer != c.answer || note != c.note {
			t.Errorf("readSparse(%q) = %d, %q; want %d, %q", c.text, answer, note, c.answer, c.note)
		}
	}
}

// An SK Taxonomy entry names its entity in parentheses, by a TYPE# prefix or by the one word of
// its description ("one per address" spells out ADDR#); a placeholder is a placeholder, whatever
// its words; a template alone names no entity, and an entry nothing names is named after its
// table, never left without a name.
func TestImport_skTaxonomyOwnersAndPlaceholders(t *testing.T) {
	t.Parallel()
	d, _ := mustImport(t, readFixture(t, "kept-sk-taxonomy.md"))
	want := []designer.EntityType{
		{Entity: "customer", SKTemplate: "PROFILE"},
		{Entity: "order line", SKTemplate: "ord-{number}", Description: "one per order"},
		{Entity: "Address", SKTemplate: "ADDR#{label}", Description: "one per address"},
		{Entity: "Note", SKTemplate: "NOTE#{written words}"},
		{Entity: "Shop", SKTemplate: "misc-{n}"},
	}
	for _, got := range [][]designer.EntityType{tableNamed(t, d, "Shop").EntityTypes, tableNamed(t, assertDataModelFixedPoint(t, d), "Shop").EntityTypes} {
		if !slices.Equal(got, want) {
			t.Errorf("entity types\n%+v\nwant\n%+v", got, want)
		}
	}
}

func TestServedNumbers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []int
		ok   bool
	}{
		{"Pattern #1, #3, #7", []int{1, 3, 7}, true},
		{"AP1-7 (user management), AP10-12 (orders)", []int{1, 2, 3, 4, 5, 6, 7, 10, 11, 12}, true},
		{"Patterns 2 and 5", []int{2, 5}, true},
		{"#4", []int{4}, true},
		{"Pattern #1, #2 - all the lookups", nil, false},
		{"Legacy AP3, AP4 during the migration", nil, false},
		{"AP1-900", nil, false},
		{"none yet", nil, false},
	} {
		got, ok := servedNumbers(c.text)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("servedNumbers(%q) = %v, %v; want %v, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

// An "Access Patterns Served" bullet is the list Dynaloom writes from the mapping: one that says
// just that list is not kept twice; one that says more, or another list, stays as written under
// its table or index with a note naming its line, and is never copied into the capacity notes.
// Per-pattern projected attributes that are not only names stay as prose too.
func TestImport_servedAndProjectedBulletsAreNotCopiedIntoOtherFields(t *testing.T) {
	t.Parallel()
	d, notes := mustImport(t, readFixture(t, "kept-served-bullets.md"))
	noted := func(line int, words string) bool {
		return slices.ContainsFunc(notes, func(n designer.ImportNote) bool { return n.Line == line && strings.Contains(n.Message, words) })
	}
	prose := func(title string) string {
		for _, s := range d.Prose.Sections {
			if s.Title == title {
				return s.Body
			}
		}
		return ""
	}
	lessons, rooms := tableNamed(t, d, "Lessons"), tableNamed(t, d, "Rooms")
	ix, _, _, _ := lessons.IndexByName("ByTeacher")
	if lessons.Capacity != "a few reads a minute" || ix.Capacity != "" || rooms.Capacity != "" {
		t.Errorf("capacity notes %q, %q, %q: a served list was copied into them", lessons.Capacity, ix.Capacity, rooms.Capacity)
	}
	if p := prose("Lessons Table"); p != "" || !noted(16, "lists the patterns the mapping gives") {
		t.Errorf("Lessons: the list the mapping gives was kept as prose %q, or not noted: %+v", p, notes)
	}
	if p := prose("ByTeacher GSI (Lessons Table)"); !strings.Contains(p, "- **Access Patterns Served**: Pattern #2, #3 - the teachers' timetables") ||
		!strings.Contains(p, "- **Per-Pattern Projected Attributes**: Pattern #2 needs room + a count of lessons") || !noted(25, "says more") || !noted(24, "none was read") {
		t.Errorf("ByTeacher: prose %q, notes %+v", p, notes)
	}
	if len(ix.PatternAttributes) != 0 || ix.ProjectionWhy != "the timetable shows the room" {
		t.Errorf("ByTeacher: pattern attributes %+v, projection why %q: the sentence was read in part", ix.PatternAttributes, ix.ProjectionWhy)
	}
	if p := prose("Rooms Table"); p != "- **Access Patterns Served**: Pattern #4, #5" || !noted(37, "lists pattern #4-5, but the mapping gives it pattern #4") {
		t.Errorf("Rooms: prose %q, notes %+v", p, notes)
	}
	back := assertDataModelFixedPoint(t, d)
	if out := string(Export(back)); strings.Contains(out, "<br>") {
		t.Errorf("the export writes a bullet over two lines with <br>:\n%s", out)
	}
}

// Key templates written on a table's key bullets — "`PK = <member_id>`", "pk - `SHELF#<shelf_no>`",
// the sort key's forms on the lines below it — and a bare attribute name in "`PK = isbn`" are read
// as templates on the table's entity types, not left as literal text in the justification.
func TestImport_keyTemplatesOnKeyBulletsAreTemplates(t *testing.T) {
	t.Parallel()
	d, _ := mustImport(t, readFixture(t, "kept-key-templates.md"))
	for _, back := range []designer.Design{d, assertDataModelFixedPoint(t, d)} {
		members := tableNamed(t, back, "Members")
		wantMembers := []designer.EntityType{
			{Entity: "Member", PKTemplate: "{member_id}", SKTemplate: "#PROFILE", Description: "the member's card"},
			{Entity: "Loan", PKTemplate: "{member_id}", SKTemplate: "LOAN#{loan date}", Description: "one item per loan, oldest first"},
		}
		if !slices.Equal(members.EntityTypes, wantMembers) {
			t.Errorf("Members entity types\n%+v\nwant\n%+v", members.EntityTypes, wantMembers)
		}
		if members.PartitionKeyWhy != "one partition per member keeps their loans together" || members.SortKeyWhy != "Entity-based sort keys:" {
			t.Errorf("Members key justifications %q / %q still hold the templates", members.PartitionKeyWhy, members.SortKeyWhy)
		}
		if members.Purpose != "Members and Their Loans — a member and the books they borrowed" {
			t.Errorf("Members purpose %q", members.Purpose)
		}
		shelves := tableNamed(t, back, "Shelves")
		if want := []designer.EntityType{{Entity: "Shelf", PKTemplate: "SHELF#{shelf_no}"}}; !slices.Equal(shelves.EntityTypes, want) || shelves.PartitionKeyWhy != "for every shelf" {
			t.Errorf("Shelves entity types %+v, partition key why %q", shelves.EntityTypes, shelves.PartitionKeyWhy)
		}
		books := tableNamed(t, back, "Books")
		if want := []designer.EntityType{{Entity: "Book", PKTemplate: "{isbn}", SKTemplate: "COPY#{copy_no}"}}; !slices.Equal(books.EntityTypes, want) {
			t.Errorf("Books entity types %+v, want %+v", books.EntityTypes, want)
		}
	}
	if out := string(Export(d)); strings.Contains(out, "<br>") || strings.Contains(out, "<member_id>") {
		t.Errorf("the export still writes the key forms as text:\n%s", out)
	}
}

// What the import has to choose for an index — a projection it does not state, a key type its
// sample values cannot give — it says in a note naming the index's heading.
func TestImport_indexDefaultsAreNoted(t *testing.T) {
	t.Parallel()
	doc := `# DynamoDB Data Model - Kettles

## Table Designs

### Kettles Table

| kettle_id | boiling |
|---|---|
| k-1 | true |
| k-2 | false |

- **Partition Key**: kettle_id - one item per kettle

### ByBoiling GSI

- **Partition Key**: boiling - whether it boils now
`
	d, notes := mustImport(t, []byte(doc))
	ix, _, _, _ := tableNamed(t, d, "Kettles").IndexByName("ByBoiling")
	if ix.Projection.Type != designer.All || len(ix.PartitionKey) != 1 || ix.PartitionKey[0].Type != designer.S {
		t.Fatalf("index %+v", ix)
	}
	for _, words := range []string{"ByBoiling states no projection; ALL was taken", "key attribute boiling read as BOOL; a key is S, N or B, so S was used"} {
		if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool { return n.Line == 14 && strings.Contains(n.Message, words) }) {
			t.Errorf("no note on line 14 says %q: %+v", words, notes)
		}
	}
}

// Whatever a table or index section holds that the import cannot place is kept as prose, and
// each piece gets a note with its own line, not only the section's heading.
func TestImport_unplacedTextIsNotedByItsLine(t *testing.T) {
	t.Parallel()
	doc := `# DynamoDB Data Model - Ferries

## Table Designs

### Crossings Table

- **Partition Key**: crossing_id - one item per crossing
- **Weather Policy**: cancelled above force 8

A paragraph about the tides.

### ByPort GSI

- **Partition Key**: port - where it leaves from
- **Projection**: KEYS_ONLY
- **Owner**: the harbour master
`
	d, notes := mustImport(t, []byte(doc))
	for _, line := range []int{8, 10, 16} {
		if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool {
			return n.Line == line && strings.Contains(n.Message, "kept as prose")
		}) {
			t.Errorf("no note names line %d: %+v", line, notes)
		}
	}
	if len(d.Prose.Sections) != 2 {
		t.Errorf("prose sections %+v, want the table's and the index's", d.Prose.Sections)
	}
}

// A TTL bullet that explains its attribute gives the attribute its description; when the table
// does not list the attribute, the bullet stays as prose with a note naming its line. Either way
// its words are written once.
func TestImport_ttlExplanationIsWrittenOnce(t *testing.T) {
	t.Parallel()
	doc := `# DynamoDB Data Model - Carts

## Table Designs

### Carts Table

- **Partition Key**: cart_id - one item per cart
- **Attributes**: cart_id (S), expires_at (N)
- **TTL**: expires_at - removes carts left for a day

### Baskets Table

- **Partition Key**: basket_id - one item per basket
- **TTL**: gone_at - removes baskets after a week
`
	d, notes := mustImport(t, []byte(doc))
	for _, back := range []designer.Design{d, assertDataModelFixedPoint(t, d)} {
		carts := tableNamed(t, back, "Carts")
		if a, _, _ := carts.AttributeByName("expires_at"); carts.TTLAttribute != "expires_at" || a.Description != "removes carts left for a day" {
			t.Errorf("Carts: TTL %q, attribute %+v", carts.TTLAttribute, a)
		}
		if baskets := tableNamed(t, back, "Baskets"); baskets.TTLAttribute != "gone_at" {
			t.Errorf("Baskets: TTL %q", baskets.TTLAttribute)
		}
	}
	if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool { return n.Line == 14 && strings.Contains(n.Message, "gone_at") }) {
		t.Errorf("no note names line 14: %+v", notes)
	}
	out := string(Export(d))
	if strings.Count(out, "removes carts left for a day") != 1 || strings.Count(out, "removes baskets after a week") != 1 {
		t.Errorf("a TTL explanation is not written exactly once:\n%s", out)
	}
}

// A key written with a type word no DynamoDB type is ("day (Date)") is still the key it names:
// before, the bullet named "no attribute" and the table lost its sort key. The type comes from
// the attribute list or the samples, and a note says the word was not a type.
func TestImport_keyWithATypeWordIsStillTheKey(t *testing.T) {
	t.Parallel()
	doc := `# DynamoDB Data Model - Diary

## Table Designs

### Entries Table

| day | slot | text |
|---|---|---|
| 2026-11-25 | 9 | standup |

- **Partition Key**: day (Date) - one partition per day
- **Sort Key**: slot (Integer) - the hour
- **Attributes**: day (Date), slot (Integer), text (String)
`
	d, notes := mustImport(t, []byte(doc))
	for _, back := range []designer.Design{d, assertDataModelFixedPoint(t, d)} {
		entries := tableNamed(t, back, "Entries")
		if entries.PartitionKey != (designer.KeyAttribute{Name: "day", Type: designer.S}) || entries.SortKey == nil || *entries.SortKey != (designer.KeyAttribute{Name: "slot", Type: designer.N}) ||
			entries.PartitionKeyWhy != "one partition per day" {
			t.Errorf("keys %+v %+v, why %q", entries.PartitionKey, entries.SortKey, entries.PartitionKeyWhy)
		}
	}
	if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool {
		return n.Line == 11 && strings.Contains(n.Message, `"Date", which is not a DynamoDB type`)
	}) {
		t.Errorf("no note names line 11: %+v", notes)
	}
}

// Read beside the requirement document, an SK taxonomy entity spelt as a requirement entity in
// other case or number takes the requirement's spelling, and a note says so.
func TestMerge_notesTheEntitySpellingItTakes(t *testing.T) {
	t.Parallel()
	model, _ := mustImport(t, readFixture(t, "kept-sk-taxonomy.md"))
	req := designer.Design{Name: "Corner Shop", Entities: []designer.Entity{{Name: "Customer"}}}
	d, notes := Merge(req, model)
	if et := tableNamed(t, d, "Shop").EntityTypes[0]; et.Entity != "Customer" {
		t.Errorf("entity type %+v, want Customer", et)
	}
	if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool {
		return strings.Contains(n.Message, `entity "customer" is the requirement's entity Customer`)
	}) {
		t.Errorf("no note on the spelling taken: %+v", notes)
	}
}

// A TTL attribute the design cannot hold (a name over the length limit) is not dropped silently.
func TestImport_unusableTTLIsNoted(t *testing.T) {
	t.Parallel()
	doc := "# DynamoDB Data Model - Jars\n\n## Table Designs\n\n### Jars Table\n\n- **Partition Key**: jar_id - one item per jar\n- **TTL**: `" + strings.Repeat("x", designer.MaxNameLen+1) + "`\n"
	d, notes := mustImport(t, []byte(doc))
	if jars := tableNamed(t, d, "Jars"); jars.TTLAttribute != "" {
		t.Fatalf("TTL %q", jars.TTLAttribute)
	}
	if !slices.ContainsFunc(notes, func(n designer.ImportNote) bool {
		return n.Line == 5 && strings.Contains(n.Message, "read without a TTL")
	}) {
		t.Errorf("no note on line 5: %+v", notes)
	}
}
