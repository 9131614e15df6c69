package format

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format/datamodelmd"
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
	if twice := export(back); !bytes.Equal(once, twice) {
		t.Fatalf("%s alone: import → export → import → export changed it:\n%s", f.Name, designertest.FirstDifference(once, twice))
	}
}
