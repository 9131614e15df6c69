package freeform

import (
	"fmt"
	"strings"
	"testing"

	"dynaloom/internal/designer/format/markdown"
)

// bigLayout is a layout page of about size bytes: one table, one section per entity with its key
// structure, attributes, the keys it gives one of 20 GSIs, and access patterns.
func bigLayout(size int) []byte {
	var b strings.Builder
	b.WriteString("# Big layout\n\nTable Name: `big`\n\n- **PK** (Partition Key): String\n- **SK** (Sort Key): String\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "\n### %d. Thing%d\n\n**Key Structure:**\n```\nPK: THING%d#{id}\nSK: PART#{part}\n```\n\n", i, i, i)
		g := i % 20 // a table has at most 20 GSIs
		fmt.Fprintf(&b, "**GSI%d (ByOwner%d):**\n```\nGSI%dPK: OWNER#{owner}\nGSI%dSK: THING%d#{id}\n```\n\n", g, g, g, g, i)
		fmt.Fprintf(&b, "**Attributes:**\n- `id` (String): the thing's id\n- `owner` (String): who has it\n- `weight` (Number): grams\n\n")
		fmt.Fprintf(&b, "**Access Patterns:**\n- Get thing %d: `GetItem` with PK=`THING%d#{id}` and SK=`PART#{part}`\n- Things of an owner %d: Query ByOwner%d with GSI%dPK=`OWNER#{owner}`\n\n---\n", i, i, i, g, g)
	}
	return []byte(b.String())
}

// BenchmarkImport_5MB imports a 5 MB layout page beside the anchor: splitting the same text into
// its headings and items (goldmark's parse), which any reader of it does first. The ratio is
// import/walk.
func BenchmarkImport_5MB(b *testing.B) {
	data := bigLayout(5 << 20)
	b.Run("walk", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			n := 0
			markdown.Walk(string(data), func(int, int, string) { n++ }, func(markdown.Item) { n++ })
		}
	})
	b.Run("import", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := Import(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
