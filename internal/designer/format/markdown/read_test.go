package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// walked is what Walk hands on, one line per heading or item: "h2@3 Title" or "bullet@5 - a¶  b",
// an item's lines joined by ¶.
func walked(doc string) string {
	kinds := map[int]string{KindText: "text", KindBullet: "bullet", KindTable: "table", KindFence: "fence"}
	var out []string
	Walk(doc, func(n, level int, text string) {
		out = append(out, fmt.Sprintf("h%d@%d %s", level, n, text))
	}, func(it Item) {
		out = append(out, fmt.Sprintf("%s@%d %s", kinds[it.Kind], it.Line, strings.Join(it.Lines, "¶")))
	})
	return strings.Join(out, "\n")
}

func TestWalk_everySpellingReadsTheSame(t *testing.T) {
	t.Parallel()
	// want is what each spelling gives, its lines counted from first.
	want := func(first int) string {
		return fmt.Sprintf("h1@%d Orders\n"+
			"h2@%d Table Designs\n"+
			"bullet@%d - **Partition Key**: order_id¶  more\n"+
			"bullet@%d - **Billing**: on demand\n"+
			"table@%d | order_id | status |¶| --- | --- |¶| o-1 | OPEN |", first, first+2, first+4, first+6, first+8)
	}
	cases := []struct {
		name, doc string
		first     int
	}{
		{"ATX, dashes, outer pipes", "# Orders\n\n## Table Designs\n\n- **Partition Key**: order_id\n  more\n- **Billing**: on demand\n\n| order_id | status |\n| --- | --- |\n| o-1 | OPEN |\n", 1},
		{"closed ATX headings", "# Orders #\n\n## Table Designs ##\n\n- **Partition Key**: order_id\n  more\n- **Billing**: on demand\n\n| order_id | status |\n| --- | --- |\n| o-1 | OPEN |\n", 1},
		{"stars and pluses", "# Orders\n\n## Table Designs\n\n* **Partition Key**: order_id\n  more\n+ **Billing**: on demand\n\n| order_id | status |\n| --- | --- |\n| o-1 | OPEN |\n", 1},
		{"bold with underscores", "# Orders\n\n## Table Designs\n\n- __Partition Key__: order_id\n  more\n-   __Billing__: on demand\n\n| order_id | status |\n| --- | --- |\n| o-1 | OPEN |\n", 1},
		{"table without outer pipes", "# Orders\n\n## Table Designs\n\n- **Partition Key**: order_id\n  more\n- **Billing**: on demand\n\norder_id | status\n--- | ---\no-1 | OPEN\n", 1},
		{"indented markers", "# Orders\n\n## Table Designs\n\n - **Partition Key**: order_id\n  more\n + **Billing**: on demand\n\n  | order_id | status |\n  | --- | --- |\n  | o-1 | OPEN |\n", 1},
		{"a comment and a commented-out table", "# Orders\n<!-- draft -->\n## Table Designs\n\n- **Partition Key**: order_id\n  more\n- **Billing**: on demand\n\n| order_id | status |\n| --- | --- |\n| o-1 | OPEN |\n\n<!--\n| order_id | status |\n| --- | --- |\n| o-9 | GONE |\n-->\n", 1},
		{"the whole document in a fence", "```markdown\n# Orders\n\n## Table Designs\n\n- **Partition Key**: order_id\n  more\n- **Billing**: on demand\n\n| order_id | status |\n| --- | --- |\n| o-1 | OPEN |\n```\n", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := walked(c.doc); got != want(c.first) {
				t.Errorf("got\n%s\nwant\n%s", got, want(c.first))
			}
		})
	}
}

func TestWalk_setextHeadingsAreHeadings(t *testing.T) {
	t.Parallel()
	got := walked("Orders\n======\n\nTable Designs\n-------------\ntext\n")
	want := "h1@1 Orders\nh2@4 Table Designs\ntext@6 text"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWalk_codeAndHTMLAreNeverData(t *testing.T) {
	t.Parallel()
	doc := "## Samples\n\n```\n| pk | sk |\n|----|----|\n| a  | b  |\n```\n\n    | pk | sk |\n    |----|----|\n\n<details>\n| pk | sk |\n</details>\n\n<!-- | pk | sk |\n|----|----| -->\n# Not a heading? No: a heading\n"
	want := "h2@1 Samples\n" +
		"fence@3 ```¶| pk | sk |¶|----|----|¶| a  | b  |¶```\n" +
		"fence@9     | pk | sk |¶    |----|----|\n" +
		"fence@12 <details>¶| pk | sk |¶</details>\n" +
		"h1@18 Not a heading? No: a heading"
	if got := walked(doc); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWalk_aBulletEndsAtItsFirstBlankLine(t *testing.T) {
	t.Parallel()
	doc := "- **Entity Types**:\n\n  **ORDER** entity:\n  - `id` (S)\n\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n- next\n"
	want := "bullet@1 - **Entity Types**:\n" +
		"text@3   **ORDER** entity:¶  - `id` (S)\n" +
		"table@6 | a | b |¶|---|---|¶| 1 | 2 |\n" +
		"bullet@9 - next"
	if got := walked(doc); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWalk_itemsKeepTheirLinesAsWritten(t *testing.T) {
	t.Parallel()
	var raw, lines []string
	Walk("* __Billing__: on demand\n  nested\n\na | b\n--|--\n", func(int, int, string) {}, func(it Item) {
		raw = append(raw, it.Text())
		lines = append(lines, strings.Join(it.Lines, "\n"))
	})
	if want := []string{"* __Billing__: on demand\n  nested", "a | b\n--|--"}; strings.Join(raw, "¶") != strings.Join(want, "¶") {
		t.Errorf("Text() = %q, want %q", raw, want)
	}
	if want := []string{"- **Billing**: on demand\n  nested", "| a | b |\n| --|-- |"}; strings.Join(lines, "¶") != strings.Join(want, "¶") {
		t.Errorf("Lines = %q, want %q", lines, want)
	}
}

func TestItemWithout_keepsSpanAndRawLinesInStep(t *testing.T) {
	t.Parallel()
	it := Item{Kind: KindBullet, Line: 4, Lines: []string{"- a", "drop", "c"}, Raw: []string{"* a", "drop", "c"}}
	got, ok := it.Without(func(l string) bool { return l == "drop" })
	if !ok || got.Text() != "* a\nc" || strings.Join(got.Lines, "\n") != "- a\nc" || got.Span() != 3 {
		t.Errorf("Without = %+v, %v", got, ok)
	}
	if _, ok := it.Without(func(string) bool { return true }); ok {
		t.Error("an item without any line left is reported as kept")
	}
}

func TestWalk_tablesAreFoundAsGFMFindsThem(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, doc, want string }{
		{"a delimiter row of other width is no table", "| a | b |\n| --- |\n| 1 | 2 |", "text@1 | a | b |¶| --- |¶| 1 | 2 |"},
		{"dashes alone are a setext underline", "a | b\n---", "h2@1 a | b"},
		{"a table cut from the paragraph above it", "intro\nsays\n| a | b |\n|:--|--:|\n| 1 | 2 |", "text@1 intro¶says\ntable@3 | a | b |¶|:--|--:|¶| 1 | 2 |"},
		{"an escaped pipe is in its cell", "| a \\| b | c |\n| - | - |", "table@1 | a \\| b | c |¶| - | - |"},
		{"a single column with pipes", "| a |\n|---|\n| 1 |", "table@1 | a |¶|---|¶| 1 |"},
		{"rows run to the paragraph's end", "| a | b |\n|---|---|\n| 1 | 2 |\nmore\n\nafter", "table@1 | a | b |¶|---|---|¶| 1 | 2 |¶| more |\ntext@6 after"},
		{"indented four is code", "    | a | b |\n    |---|---|", "fence@1     | a | b |¶    |---|---|"},
	}
	for _, c := range cases {
		if got := walked(c.doc); got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

func TestProseBody_escapesWhatWouldReadAsHeadingOrComment(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"Title\n===\nmore", "Title\n\\===\nmore"},
		{"Title\n  --", "Title\n\\--"},
		{"\n---\nafter a blank it is a rule", "---\nafter a blank it is a rule"},
		{"<!-- note -->", "\\<!-- note -->"},
		{"```\nTitle\n===\n<!-- x -->\n```", "```\nTitle\n===\n<!-- x -->\n```"},
		{"    <!-- code -->", "    <!-- code -->"},
		// HTML blocks that run until their own end marker, past blank lines and headings.
		{"<sCript", "\\<sCript"},
		{"  <style>p{}</style>", "\\<style>p{}</style>"},
		{"<pre", "\\<pre"},
		{"<?php", "\\<?php"},
		{"<!DOCTYPE html>", "\\<!DOCTYPE html>"},
		{"<![CDATA[x", "\\<![CDATA[x"},
		{"<prefix> is not a block that needs a marker", "<prefix> is not a block that needs a marker"},
		{"a <script> inside a line", "a <script> inside a line"},
	}
	for _, c := range cases {
		if got := ProseBody(c.in); got != c.want {
			t.Errorf("ProseBody(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var headings []string
	Walk(ProseBody("Title\n===\n<!-- kept -->"), func(_, _ int, h string) { headings = append(headings, h) }, func(Item) {})
	if len(headings) != 0 {
		t.Errorf("escaped prose still reads as headings %q", headings)
	}
	// A heading after a script's first line is still a heading (FuzzRoundTripRequirement found
	// one swallowed).
	Walk(ProseBody("<sCript")+"\n\n### After", func(_, _ int, h string) { headings = append(headings, h) }, func(Item) {})
	if len(headings) != 1 || headings[0] != "After" {
		t.Errorf("escaped prose still reads as headings %q", headings)
	}
}

func TestWalk_returnsTheLinesOfTheCommentsItSkipped(t *testing.T) {
	t.Parallel()
	got := Walk("# a\n<!-- one -->\n\n- b\n\n  <!--\n  two\n  -->\n", func(int, int, string) {}, func(Item) {})
	if fmt.Sprint(got) != "[2 6]" {
		t.Errorf("comments at lines %v, want [2 6]", got)
	}
}

// A diagram an export drew — the marker comment, then a mermaid block — is skipped whole and
// silently; a mermaid block of the team's own, or the marker before another block, is kept.
func TestWalk_skipsTheDiagramsAnExportDrew(t *testing.T) {
	src := "## A\n\n" + DiagramMarker + "\n```mermaid\nerDiagram\n    A\n```\n\nkept text\n\n" +
		"```mermaid\nflowchart LR\n    x --> y\n```\n\n" + DiagramMarker + "\n```go\nx := 1\n```\n"
	var kinds []string
	comments := Walk(src, func(int, int, string) {}, func(it Item) {
		kinds = append(kinds, strings.Join(it.Lines, "|"))
	})
	want := []string{"kept text", "```mermaid|flowchart LR|    x --> y|```", "```go|x := 1|```"}
	if strings.Join(kinds, "\n") != strings.Join(want, "\n") {
		t.Errorf("items:\n%s\nwant:\n%s", strings.Join(kinds, "\n"), strings.Join(want, "\n"))
	}
	if len(comments) != 1 || comments[0] != 16 {
		t.Errorf("comments noted at %v, want only the marker before the go block (line 16)", comments)
	}
}
