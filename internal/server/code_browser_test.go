package server

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A developer opens a mapped pattern's card, unfolds its code, copies the JavaScript, and sees the
// code follow an edit of the operation's values without the fold closing.
func TestBrowser_patternCodeOnTheMappingCardFollowsEditsAndCopies(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, mappingDesign)
	const pid = "ap1"
	card := "#" + elemID("map", pid)
	field := func(name string) string { return "#" + elemID("opf", pid, "0", name) }
	block := func(lang string) string {
		return `document.querySelector("` + card + ` [data-testid=code-block][data-lang=` + lang + `] pre").textContent`
	}

	ada, _ := newBrowser(t)
	grantClipboard(t, ada, base)
	openAndJoin(t, ada, base+"/d/"+created.EditToken+"/mapping", "Ada")
	do(t, ada, "open the pattern's card and add a Query",
		chromedp.Click(chromedp.CSS(card+" [data-testid=mapping-summary]")),
		chromedp.WaitVisible(chromedp.CSS(card+" [data-testid=add-operation]")),
		chromedp.Click(chromedp.CSS(card+" [data-testid=add-operation]")),
		chromedp.WaitVisible(chromedp.CSS(field("op"))),
	)
	choose(t, ada, field("table"), "Orders")
	typeOver(t, ada, field("key_condition"), "customer = :c")
	typeOver(t, ada, field("values"), ":c=c1")
	waitUntil(t, ada, "the Query's result", `document.querySelector("`+card+` [data-testid=result]").textContent.includes("3 returned")`)

	do(t, ada, "unfold the code", chromedp.Click(chromedp.CSS(card+" [data-testid=pattern-code] > summary")))
	waitUntil(t, ada, "the code to show", `document.querySelector("`+card+` [data-testid=pattern-code]").open`)
	langs := get(t, ada, "read the languages", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("`+card+` [data-testid=code-block]")].map(b => b.dataset.lang)`))
	if strings.Join(langs, " ") != "js python go cli" {
		t.Fatalf("the card's code is in %v, want JavaScript, Python, Go and the AWS CLI", langs)
	}
	js := get(t, ada, "read the JavaScript", chromedp.Evaluate[string](block("js")))
	for _, want := range []string{`new QueryCommand({`, `TableName: "Orders"`, `KeyConditionExpression: "customer = :c"`, `":c": "c1"`} {
		if !strings.Contains(js, want) {
			t.Fatalf("the JavaScript lacks %s:\n%s", want, js)
		}
	}
	if cli := get(t, ada, "read the CLI", chromedp.Evaluate[string](block("cli"))); !strings.HasPrefix(cli, "aws dynamodb query") {
		t.Fatalf("the AWS CLI block is %q", cli)
	}

	do(t, ada, "copy the JavaScript", chromedp.Click(chromedp.CSS(card+" [data-testid=code-block][data-lang=js] [data-testid=copy-code]")))
	waitUntil(t, ada, `the button to say "Copied"`,
		`document.querySelector("`+card+` [data-testid=code-block][data-lang=js] [data-testid=copy-code]").textContent === "Copied"`)
	copied := get(t, ada, "read the clipboard", chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if copied != js {
		t.Fatalf("the clipboard holds %q, not the JavaScript shown", copied)
	}

	typeOver(t, ada, field("values"), ":c=c2")
	waitUntil(t, ada, "the code to follow the edit", block("js")+`.includes('":c": "c2"')`)
	waitUntil(t, ada, "the Python to follow it too", block("python")+`.includes('":c": {"S": "c2"}')`)
	if !get(t, ada, "read the fold", chromedp.Evaluate[bool](`document.querySelector("`+card+` [data-testid=pattern-code]").open`)) {
		t.Fatal("the edit folded the code away")
	}
	if w := get(t, ada, "measure the page", chromedp.Evaluate[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`)); w > 0 {
		t.Fatalf("with the code unfolded the page scrolls sideways by %d px", w)
	}
}
