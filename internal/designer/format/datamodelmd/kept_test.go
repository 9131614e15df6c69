package datamodelmd

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/rules"
)

// A file with a mistake in it is read as it is written, so that validation can report the
// mistake: the import keeps the wrong value instead of repairing it.
func TestImport_keepsWhatTheFileSaysForValidationToReport(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file string
		// has says what the imported design must hold; it returns what it found instead.
		has func(designer.Design) error
		// code and path are the finding the imported design must have.
		code, path string
	}{
		{
			file: "kept-bool-key.md",
			has: func(d designer.Design) error {
				tb, _, _ := d.TableByName("Switches")
				if tb.PartitionKey.Type != designer.BOOL || tb.SortKey == nil || tb.SortKey.Type != designer.S {
					return fmt.Errorf("keys %+v %+v, want switch_id BOOL and room S", tb.PartitionKey, tb.SortKey)
				}
				if ix, _, _, _ := tb.IndexByName("ByLabel"); len(ix.SortKey) != 1 || ix.SortKey[0].Type != designer.BOOL {
					return fmt.Errorf("ByLabel's sort key %+v, want switch_id BOOL", ix.SortKey)
				}
				return nil
			},
			code: "MOD002", path: "tables/Switches/partition_key",
		},
		{
			file: "kept-spaced-table.md",
			has: func(d designer.Design) error {
				if len(d.Tables) != 1 || d.Tables[0].Name != "Order Lines" || d.Tables[0].PartitionKey.Name != "order_id" || len(d.Tables[0].Items) != 2 {
					return fmt.Errorf("tables %+v, want one named Order Lines keyed on order_id with its 2 items", d.Tables)
				}
				if p, _, _ := d.PatternByNumber(1); len(p.Mapping.Operations) != 1 || p.Mapping.Operations[0].Table != "Order Lines" {
					return fmt.Errorf("pattern 1 operations %+v, want a Query on Order Lines", p.Mapping.Operations)
				}
				return nil
			},
			code: "MOD001", path: "tables/Order Lines",
		},
		{
			file: "kept-spaced-table.md",
			has: func(d designer.Design) error {
				tb, _, _ := d.TableByName("Order Lines")
				if ix, _, _, ok := tb.IndexByName("Lines By Loaf"); !ok || len(ix.PartitionKey) != 1 || ix.PartitionKey[0].Name != "loaf" {
					return fmt.Errorf("indexes %+v, want Lines By Loaf keyed on loaf", tb.GSIs)
				}
				if p, _, _ := d.PatternByNumber(2); len(p.Mapping.Operations) != 1 || p.Mapping.Operations[0].Index != "Lines By Loaf" {
					return fmt.Errorf("pattern 2 operations %+v, want a Query on Lines By Loaf", p.Mapping.Operations)
				}
				return nil
			},
			code: "MOD001", path: "tables/Order Lines/indexes/Lines By Loaf",
		},
		{
			file: "kept-five-key-gsi.md",
			has: func(d designer.Design) error {
				tb, _, _ := d.TableByName("Readings")
				ix, _, _, _ := tb.IndexByName("ByPlace")
				var names []string
				for _, k := range ix.PartitionKey {
					names = append(names, k.Name+" "+string(k.Type))
				}
				if want := "region S, country S, height N, sensor S, kind S"; strings.Join(names, ", ") != want {
					return fmt.Errorf("ByPlace's partition key %v, want %s", names, want)
				}
				return nil
			},
			code: "MOD003", path: "tables/Readings/indexes/ByPlace/partition_key",
		},
		{
			file: "kept-getitem-on-gsi.md",
			has: func(d designer.Design) error {
				p, _, _ := d.PatternByNumber(1)
				if ops := p.Mapping.Operations; len(ops) != 1 || ops[0].Op != "GetItem" || ops[0].Table != "Loans" || ops[0].Index != "ByReader" {
					return fmt.Errorf("pattern 1 operations %+v, want GetItem on Loans index ByReader", ops)
				}
				if strings.Contains(p.Mapping.Notes, "Tables/Indexes") {
					return fmt.Errorf("pattern 1 keeps its target cell in the notes as well: %q", p.Mapping.Notes)
				}
				return nil
			},
			code: "MAP002", path: "access_patterns/1/mapping/operations/0/index",
		},
		{
			file: "kept-consistent-notes.md",
			has: func(d designer.Design) error {
				p1, _, _ := d.PatternByNumber(1)
				if ops := p1.Mapping.Operations; len(ops) != 1 || !ops[0].Consistent || ops[0].Index != "ByStation" {
					return fmt.Errorf("pattern 1 operations %+v, want a strongly consistent Query on ByStation", ops)
				}
				if !strings.Contains(p1.Mapping.Notes, "ConsistentRead=true") {
					return fmt.Errorf("pattern 1's notes lost what they said: %q", p1.Mapping.Notes)
				}
				p2, _, _ := d.PatternByNumber(2)
				if ops := p2.Mapping.Operations; len(ops) != 1 || ops[0].Consistent {
					return fmt.Errorf("pattern 2 operations %+v: its notes say the read is not strongly consistent", ops)
				}
				return nil
			},
			code: "MAP005", path: "access_patterns/1/mapping/operations/0/consistent",
		},
	}
	for _, c := range cases {
		t.Run(c.file+" "+c.code, func(t *testing.T) {
			t.Parallel()
			d, _ := mustImport(t, readFixture(t, c.file))
			if err := c.has(d); err != nil {
				t.Fatal(err)
			}
			assertFinding(t, d, c.code, c.path)
			// What is written back reads back to the same mistake.
			back := assertDataModelFixedPoint(t, d)
			if err := c.has(back); err != nil {
				t.Errorf("after export and import again: %v", err)
			}
		})
	}
}

// assertFinding fails unless validating d reports code at path.
func assertFinding(t *testing.T, d designer.Design, code, path string) {
	t.Helper()
	var got []string
	for _, f := range rules.Validate(d) {
		if f.Code == code && f.Path == path {
			return
		}
		got = append(got, f.Code+" "+f.Path)
	}
	slices.Sort(got)
	t.Errorf("no %s at %s; the findings are:\n%s", code, path, strings.Join(got, "\n"))
}
