package markdown

import (
	"fmt"
	"strings"
	"testing"
)

func TestFencedLines_marksFencesAndWhatTheyHold(t *testing.T) {
	t.Parallel()
	body := "# a\n```go\n# b\n```\n~~~\nx\n```\n~~~\n# c"
	var got []string
	for l, fenced := range FencedLines(body) {
		got = append(got, fmt.Sprintf("%s=%v", l, fenced))
	}
	want := "# a=false|```go=true|# b=true|```=true|~~~=true|x=true|```=true|~~~=true|# c=false"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}

func TestWalk_headingsOutsideFencesOnly(t *testing.T) {
	t.Parallel()
	doc := "\n```markdown\n# Title\ntext\n```python\n# not a heading\n```\n## Section\n```\n\n"
	var got []string
	Walk(doc, func(n, level int, text string) {
		got = append(got, fmt.Sprintf("h%d@%d:%s", level, n, text))
	}, func(it Item) {
		got = append(got, fmt.Sprintf("%d@%d:%s", it.Kind, it.Line, strings.Join(it.Lines, "/")))
	})
	want := "h1@3:Title|0@4:text|3@5:```python/# not a heading/```|h2@8:Section"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), want)
	}
}
