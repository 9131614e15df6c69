package mcpmodel

import (
	"encoding/json"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// design → MCP model → design → MCP model gives the same tables and items, and every pattern
// back with its number, description and type; its commands are its mapping notes.
func TestImport_roundTripsTablesItemsAndPatterns(t *testing.T) {
	t.Parallel()
	designs := map[string]designer.Design{"orders": designertest.OrdersDesign(), "hr": designertest.HRDesign(t)}
	for name, d := range designs {
		first, m := exportMCP(t, d)
		if !Looks(first) {
			t.Fatalf("%s: the model is not recognised", name)
		}
		back, _, err := Import(first)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, again := exportMCP(t, back)
		if !jsonEqual(t, m.Tables, again.Tables) || !jsonEqual(t, m.Items, again.Items) {
			t.Errorf("%s: tables or items differ after a round trip", name)
		}
		if len(back.Patterns) != len(d.Patterns) {
			t.Fatalf("%s: %d patterns read back of %d", name, len(back.Patterns), len(d.Patterns))
		}
		for i, p := range back.Patterns {
			w := d.Patterns[i]
			if p.Number != w.Number || p.Description != w.Description || w.Type != "" && p.Type != w.Type {
				t.Errorf("%s: pattern %d reads back as %d %q %s", name, w.Number, p.Number, p.Description, p.Type)
			}
			if len(w.Mapping.Operations) > 0 && !strings.Contains(p.Mapping.Notes, "aws dynamodb ") {
				t.Errorf("%s: pattern %d keeps no command in its notes: %q", name, w.Number, p.Mapping.Notes)
			}
		}
	}
	if Looks([]byte(`{"format": "dynaloom/1", "tables": [], "items": {}}`)) {
		t.Error("design-json is taken for an MCP model")
	}
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(x) != string(y) {
		t.Logf("%s\nthen\n%s", x, y)
		return false
	}
	return true
}
