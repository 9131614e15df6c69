package server

import (
	"encoding/json"
	"testing"

	"dynaloom/internal/designer"
)

// The store normalizes a change's result by looking only at what the change did not share with
// the design before it (designer.NormalizeAfter). Every example of docs/changes.md, applied in
// document order to the HR example, normalizes to exactly what Normalize makes of the whole
// design.
func TestNormalizeAfter_everyExampleOfTheChangesDocIsNormalize(t *testing.T) {
	t.Parallel()
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	d = designer.Normalize(d)
	for _, ex := range changesDoc(t) {
		c, err := designer.ParseChange([]byte(ex.example))
		if err != nil {
			t.Fatalf("docs/changes.md:%d: %v", ex.line, err)
		}
		if add, ok := c.(designer.AddComment); ok {
			add.Author, add.At = "Ada", "2026-11-25T20:00:00Z" // as the API signs it
			c = add
		}
		after, err := c.Apply(d)
		if err != nil {
			t.Fatalf("docs/changes.md:%d: the %s example: %v", ex.line, ex.kind, err)
		}
		// As they are: MarshalJSON would normalize them first.
		got, _ := json.Marshal(designer.NormalizeAfter(d, after))
		want, _ := json.Marshal(designer.Normalize(after))
		if string(got) != string(want) {
			t.Fatalf("docs/changes.md:%d: after the %s example, NormalizeAfter gives\n%.300s\nwhere Normalize gives\n%.300s", ex.line, ex.kind, got, want)
		}
		d = designer.Normalize(after)
	}
}
