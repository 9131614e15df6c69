package format

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/datamodelmd"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/format/reqmd"
)

// sharedDir is the folder of seeds and fixtures beside the repository (../shared from its root),
// or "" when it is not there. /work/shared is where it lives on the team's machine when the
// repository is a worktree elsewhere.
func sharedDir(tb testing.TB) string {
	tb.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		tb.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(root, "..", "shared"), "/work/shared"} {
		if st, err := os.Stat(filepath.Join(dir, "seeds")); err == nil && st.IsDir() {
			return dir
		}
	}
	return ""
}

// roundTripInput is one design's files: a single document, or a requirement document with its
// data model.
type roundTripInput struct {
	name  string
	files []File
}

func readInputs(tb testing.TB, paths ...string) roundTripInput {
	tb.Helper()
	in := roundTripInput{}
	var names []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		in.files = append(in.files, File{Name: filepath.Base(p), Data: data})
		names = append(names, filepath.Base(p))
	}
	in.name = strings.Join(names, "+")
	return in
}

// roundTripInputs are every document of our own testdata, and when ../shared is there every
// seed and fixture, each alone, plus each requirement document in ../shared/fixtures with the
// data model beside it (same name, dynamodb_data_model.md for dynamodb_requirement.md).
func roundTripInputs(tb testing.TB) []roundTripInput {
	tb.Helper()
	var paths []string
	for _, glob := range []string{"reqmd/testdata/*.md", "datamodelmd/testdata/*.md", "testdata/pairs/*.md", "workbench/testdata/*.json"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			tb.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if dir := sharedDir(tb); dir != "" {
		for _, glob := range []string{"seeds/*.txt", "fixtures/*/*.md", "fixtures/*/*.json"} {
			m, _ := filepath.Glob(filepath.Join(dir, glob))
			paths = append(paths, m...)
		}
	} else {
		tb.Logf("../shared is not beside the repository: the seeds and fixtures are left out, our own testdata is read")
	}
	sort.Strings(paths)
	var out []roundTripInput
	for _, p := range paths {
		out = append(out, readInputs(tb, p))
		if model := strings.Replace(p, "dynamodb_requirement.md", "dynamodb_data_model.md", 1); model != p {
			if _, err := os.Stat(model); err == nil {
				out = append(out, readInputs(tb, p, model))
			}
		}
	}
	return out
}

// exportPair writes both markdown documents of d.
func exportPair(d designer.Design) []File {
	return []File{
		{Name: "dynamodb_requirement.md", Data: reqmd.Export(d)},
		{Name: "dynamodb_data_model.md", Data: datamodelmd.Export(d)},
	}
}

func lineCount(b []byte) int { return bytes.Count(b, []byte("\n")) }

// Every real document, and every variant of our own, read and written again: the pair exported
// from it is read back as a pair and exported again, three times; from the first export on, every
// export is the same bytes, so no line is added or lost on any cycle. A single document is also a
// fixed point of its own format.
func TestRoundTrip_everyDocumentIsAFixedPoint(t *testing.T) {
	t.Parallel()
	inputs := roundTripInputs(t)
	if len(inputs) < 10 {
		t.Fatalf("only %d inputs found; the testdata is missing", len(inputs))
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			d, _, err := Import(in.files)
			if err != nil {
				// Not every shared file is a design (a free-form note may have none to give); what
				// does not import has nothing to round-trip. The importers' own tests say which do.
				t.Logf("not a design Dynaloom reads, so not round-tripped: %v", err)
				return
			}
			var first []File
			var counts []string
			for cycle := 1; cycle <= 3; cycle++ {
				pair := exportPair(d)
				counts = append(counts, fmt.Sprintf("%d+%d", lineCount(pair[0].Data), lineCount(pair[1].Data)))
				if first == nil {
					first = pair
				} else {
					for i := range pair {
						if !bytes.Equal(first[i].Data, pair[i].Data) {
							t.Fatalf("cycle %d: %s changed (lines per cycle %v):\n%s", cycle, pair[i].Name, counts, designertest.FirstDifference(first[i].Data, pair[i].Data))
						}
					}
				}
				if d, _, err = Import(pair); err != nil {
					t.Fatalf("cycle %d: the exported pair does not import: %v", cycle, err)
				}
			}
			if len(in.files) == 1 {
				assertSingleFixedPoint(t, in.files[0])
			}
		})
	}
}

// assertSingleFixedPoint reads one markdown document alone, writes it in its own format, and
// checks that reading and writing that again gives the same bytes.
func assertSingleFixedPoint(t *testing.T, f File) {
	t.Helper()
	var export func(designer.Design) []byte
	switch Recognise(f.Data) {
	case KindRequirementsMD:
		export = reqmd.Export
	case KindDataModelMD:
		export = datamodelmd.Export
	default:
		return
	}
	d, _, err := Import([]File{f})
	if err != nil {
		t.Fatal(err)
	}
	once := export(d)
	back, _, err := Import([]File{{Name: f.Name, Data: once}})
	if err != nil {
		t.Fatalf("the document's own export does not import: %v", err)
	}
	if twice := export(back); !bytes.Equal(maskComputed(once), maskComputed(twice)) {
		t.Fatalf("%s alone: import → export → import → export changed it:\n%s", f.Name, designertest.FirstDifference(maskComputed(once), maskComputed(twice)))
	}
}

// maskComputed returns a data model document without the lines inside its computed capacity
// blocks (the hot-partition lines and the Cost Report), which are worked out again on import from
// the patterns' RPS, which the data model document does not carry (they are the requirement's).
func maskComputed(doc []byte) []byte {
	var b bytes.Buffer
	in := false
	for l := range strings.SplitAfterSeq(string(doc), "\n") {
		line := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(line, "<!-- computed by Dynaloom"):
			in = true
		case in && (line == "<!-- end computed -->" || line == "<!-- end-cost-report -->"):
			in = false
		case in:
			continue
		}
		b.WriteString(l)
	}
	return b.Bytes()
}

// maskChecklists returns a markdown document with the marks of its checklist lines replaced by
// [?], and its computed capacity lines left out (maskComputed): a document read alone does not
// hold all that its checklist was ticked from and its capacity worked out from.
func maskChecklists(doc []byte) []byte {
	var b bytes.Buffer
	in := false
	for l := range strings.SplitAfterSeq(string(maskComputed(doc)), "\n") {
		switch {
		case strings.HasPrefix(l, "## "):
			in = strings.HasPrefix(l, "## Validation Checklist") || strings.HasPrefix(l, "## Validation Results")
		case in && (strings.HasPrefix(l, "- [x] ") || strings.HasPrefix(l, "- [ ] ")):
			l = "- [?] " + l[len("- [x] "):]
		}
		b.WriteString(l)
	}
	return b.Bytes()
}

// assertAloneFixedPoint exports d in one format, reads that alone and exports it again: the two
// exports are the same but for the checklist's marks, and from then on the same bytes.
func assertAloneFixedPoint(t *testing.T, what string, export func(designer.Design) []byte, d designer.Design) {
	t.Helper()
	first := export(d)
	var docs [][]byte
	doc := first
	for range 2 {
		back, _, err := Import([]File{{Name: what, Data: doc}})
		if err != nil {
			t.Fatalf("%s alone does not import: %v\n%s", what, err, doc)
		}
		doc = export(back)
		docs = append(docs, doc)
	}
	if !bytes.Equal(maskChecklists(first), maskChecklists(docs[0])) {
		t.Fatalf("%s alone: export → import → export changed it:\n%s", what, designertest.FirstDifference(maskChecklists(first), maskChecklists(docs[0])))
	}
	if !bytes.Equal(docs[0], docs[1]) {
		t.Fatalf("%s alone: the second round trip changed it:\n%s", what, designertest.FirstDifference(docs[0], docs[1]))
	}
}

// carried is what the two documents together hold of d, as design-json: all but the ids and
// comments, an operation's expected results, attribute generators, sample item ids and the order
// of items (written in key order), and patterns numbered below 1. Prose is markdown that keeps its
// text, not its bytes: its leading and trailing blank lines go, a heading inside it is written
// below the section's level (###) or escaped where that would end the section, and the sections
// come in the order of the places they are written in.
func carried(tb testing.TB, d designer.Design) []byte {
	tb.Helper()
	d = designer.Normalize(d)
	c := d
	c.Comments, c.Workbench = nil, nil
	for _, f := range []*string{&c.Prose.DesignPhilosophy, &c.Prose.AggregateDecisions, &c.Prose.HotPartitions, &c.Prose.TradeOffs} {
		*f = proseText(*f)
	}
	c.Prose.Sections = nil
	for _, s := range d.Prose.Sections {
		// An empty section under a heading of the template holds nothing to read back.
		if s.Body = proseText(s.Body); s.Body != "" {
			c.Prose.Sections = append(c.Prose.Sections, s)
		}
	}
	slices.SortStableFunc(c.Prose.Sections, func(a, b designer.Section) int {
		return strings.Compare(a.Document+"\x00"+a.Title+"\x00"+a.Body, b.Document+"\x00"+b.Title+"\x00"+b.Body)
	})
	c.Tables = nil
	for _, t := range d.Tables {
		t.Attributes = slices.Clone(t.Attributes)
		for i := range t.Attributes {
			t.Attributes[i].Generator = nil
		}
		var items []designer.SampleItem
		for _, r := range designer.TableRows(t) {
			items = append(items, designer.SampleItem{Item: r.Item})
		}
		t.Items = items
		c.Tables = append(c.Tables, t)
	}
	c.Patterns = nil
	for _, p := range d.Patterns {
		if p.Number < 1 {
			continue
		}
		p.ID = ""
		ops := slices.Clone(p.Mapping.Operations)
		for i := range ops {
			ops[i].Expected = nil
		}
		p.Mapping = designer.Mapping{Operations: ops, Notes: p.Mapping.Notes}
		c.Patterns = append(c.Patterns, p)
	}
	slices.SortStableFunc(c.Patterns, func(a, b designer.Pattern) int { return a.Number - b.Number })
	for _, ids := range []func(){
		func() {
			c.Relationships = slices.Clone(c.Relationships)
			for i := range c.Relationships {
				c.Relationships[i].ID = ""
			}
		},
		func() {
			c.Aggregates = slices.Clone(c.Aggregates)
			for i := range c.Aggregates {
				c.Aggregates[i].ID = ""
			}
		},
		func() {
			c.Consolidations = slices.Clone(c.Consolidations)
			for i := range c.Consolidations {
				c.Consolidations[i].ID = ""
			}
		},
	} {
		ids()
	}
	return designertest.MustMarshal(tb, c)
}

// For random designs, with requirements, tables, mappings and prose sections of both documents:
// the requirement document alone, the data model alone and the pair are each a fixed point of
// export → import → export, and the pair reads back as the design it was exported from (with
// the attributes its tables give the entities that list none, as any imported pair has them).
func TestRoundTrip_randomDesignsAreFixedPoints(t *testing.T) {
	t.Parallel()
	g := designertest.NewRandom(16, 4)
	n := 300
	if testing.Short() {
		n = 100
	}
	for i := range n {
		d, _ := datamodelmd.EntityAttributes(g.FullDesign(i))
		if err := designer.Check(d); err != nil {
			t.Fatalf("design %d: the generator made a design Check refuses: %v", i, err)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			assertAloneFixedPoint(t, "dynamodb_requirement.md", reqmd.Export, d)
			assertAloneFixedPoint(t, "dynamodb_data_model.md", datamodelmd.Export, d)
			pair := exportPair(d)
			back, _, err := Import(pair)
			if err != nil {
				t.Fatalf("the pair does not import: %v", err)
			}
			again := exportPair(back)
			for k := range pair {
				if !bytes.Equal(pair[k].Data, again[k].Data) {
					t.Fatalf("the pair's %s changed:\n%s", pair[k].Name, designertest.FirstDifference(pair[k].Data, again[k].Data))
				}
			}
			if want, got := carried(t, d), carried(t, back); !bytes.Equal(want, got) {
				t.Fatalf("the pair did not read back as the design:\n%s", designertest.FirstDifference(want, got))
			}
		})
	}
}

// proseText is prose as carried compares it.
func proseText(s string) string {
	var lines []string
	for l := range strings.SplitSeq(markdown.ProseBody(s), "\n") {
		if _, text, ok := markdown.Heading(strings.TrimPrefix(l, `\`)); ok {
			l = "### " + text
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// fuzzRoundTrip is the round-trip property of one markdown format: whatever read imports, written
// with export, reads back to a design that export writes as the same bytes, and again.
func fuzzRoundTrip(f *testing.F, read func([]byte) (designer.Design, []designer.ImportNote, error), export func(designer.Design) []byte, globs ...string) {
	for _, glob := range globs {
		files, err := filepath.Glob(glob)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, err := read(data)
		if err != nil {
			return
		}
		if err := designer.Check(d); err != nil {
			t.Fatalf("import gave a design Check refuses: %v", err)
		}
		var docs [][]byte
		for range 3 {
			doc := export(d)
			if d, _, err = read(doc); err != nil {
				t.Fatalf("the export does not import: %v\n%s", err, doc)
			}
			docs = append(docs, doc)
		}
		for i := 1; i < len(docs); i++ {
			if !bytes.Equal(maskComputed(docs[0]), maskComputed(docs[i])) {
				t.Fatalf("export → import → export changed the document on round trip %d:\n%s", i, designertest.FirstDifference(maskComputed(docs[0]), maskComputed(docs[i])))
			}
		}
	})
}

func FuzzRoundTripRequirement(f *testing.F) {
	fuzzRoundTrip(f, reqmd.Import, reqmd.Export, "reqmd/testdata/*.md", "testdata/pairs/*requirement*.md")
}

func FuzzRoundTripDataModel(f *testing.F) {
	fuzzRoundTrip(f, datamodelmd.Import, datamodelmd.Export, "datamodelmd/testdata/*.md", "testdata/pairs/*data_model*.md")
}
