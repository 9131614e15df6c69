package freeform

import (
	"os"
	"path/filepath"
	"testing"

	"dynaloom/internal/designer"
)

// FuzzImport: Looks and Import never panic, and what Import returns is a design Check accepts,
// with every note on a line of the document. The seeds run with the tests; the fuzzer is run by
// hand (go test -fuzz FuzzImport ./internal/designer/format/freeform).
func FuzzImport(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"PK: X#{a}\nSK: Y",
		"**GSI1 (ByX):**\n- GSI1PK: A\n- GSI1SK: B\n",
		"## Access Patterns\n1. a — Query\n2. b: GetItem with PK=`x` and SK between `a` and\n",
		"| Entity | PK | SK |\n|---|---|---|\n| A | | |\n| `B` | x | |\n",
		"# T\n\nTable Name: `t`\n- Hash: `h`\n- Range: `r` =\n**Projection:** INCLUDE (a, , b\n",
		"### GSI1: ((\n- Hash:\n**Attributes:**\n- ``: \n- `a` (",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		Looks(string(data))
		d, notes, err := Import(data)
		if err != nil {
			return
		}
		if err := designer.Check(d); err != nil {
			t.Fatalf("Check refuses the import: %v", err)
		}
		lines := 1
		for _, c := range data {
			if c == '\n' || c == '\r' {
				lines++
			}
		}
		for _, n := range notes {
			if n.Line < 0 || n.Line > lines {
				t.Fatalf("note on line %d of a %d-line document: %s", n.Line, lines, n.Message)
			}
		}
	})
}
