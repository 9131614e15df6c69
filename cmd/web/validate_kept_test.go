package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// A data model with a mistake in it, as a user would run it: validate reads the file as written
// and exits 1 naming the rule the mistake breaks, instead of passing a repaired design.
func TestValidateReportsTheMistakesAFileMakes(t *testing.T) {
	dir := filepath.Join("..", "..", "internal", "designer", "format", "datamodelmd", "testdata")
	for file, finding := range map[string]string{
		"kept-bool-key.md":         "MOD002 tables/Switches/partition_key",
		"kept-spaced-table.md":     "MOD001 tables/Order Lines",
		"kept-getitem-on-gsi.md":   "MAP002 access_patterns/1/mapping/operations/0/index",
		"kept-consistent-notes.md": "MAP005 access_patterns/1/mapping/operations/0/consistent",
		"kept-five-key-gsi.md":     "MOD003 tables/Readings/indexes/ByPlace/partition_key",
		"kept-sparse-bullets.md":   "MOD017 tables/Tools/indexes/ByDue/sparse",
		"kept-served-bullets.md":   "",
		"kept-key-templates.md":    "",
		"kept-sk-taxonomy.md":      "",
	} {
		var out, errOut bytes.Buffer
		code := run([]string{"validate", filepath.Join(dir, file)}, &out, &errOut)
		if finding == "" {
			if code == 2 {
				t.Errorf("%s: exit 2, %s", file, errOut.String())
			}
			continue
		}
		code0, where, _ := strings.Cut(finding, " ")
		if code != 1 || !strings.Contains(out.String(), code0) || !strings.Contains(out.String(), where) {
			t.Errorf("%s: exit %d, want 1 with %s:\n%s%s", file, code, finding, out.String(), errOut.String())
		}
	}
}
