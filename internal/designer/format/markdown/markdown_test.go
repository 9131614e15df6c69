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

func TestFences_closeOnlyWithAsLongARunOfTheSameCharacter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		open, close string
		marker      string
		closes      bool
	}{
		{"```", "```", "```", true},
		{"````0", "```", "````", false}, // a shorter run does not close a longer one
		{"````0", "`````", "````", true},
		{"~~~ go", "```", "~~~", false}, // nor a run of the other character
		{"```", "```  ", "```", true},
		{"```", "``` x", "```", false}, // a closing fence has no info string
		{"    ```", "```", "", false},  // four spaces make code, not a fence
	} {
		if got := FenceMarker(c.open); got != c.marker {
			t.Errorf("FenceMarker(%q) = %q, want %q", c.open, got, c.marker)
		}
		if got := ClosesFence(c.close, c.marker); got != c.closes {
			t.Errorf("ClosesFence(%q, %q) = %v, want %v", c.close, c.marker, got, c.closes)
		}
	}
	if FenceMarker("``` a`b") != "" {
		t.Error("a backtick run followed by a backtick opened a fence")
	}
	// Prose that leaves a fence open is written closed, with a run as long as the one that opened it:
	// before, "````0" was closed with "```", which CommonMark does not take as a closer, so the
	// rest of the document was read as code.
	if got := ProseBody("````0"); got != "````0\n````" {
		t.Errorf("ProseBody left %q", got)
	}
}
