package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// Every editable cell on every step posts itself and swaps the answer in over its hx-target. If
// the answer is not the element the cell targets, htmx nests it inside the page (a whole card in
// a select's place, for instance). This posts each cell of the HR example's steps with the value
// it shows and checks that the answer's first element is the one the cell targets, or that the
// answer sends the page to reload its step.
func TestCells_answerReplacesWhatTheyTarget(t *testing.T) {
	t.Parallel()
	a := newTestAppWith(t, Options{CreateLimit: NoLimit, WriteLimit: NoLimit})
	_, pages := exampleStepPages(t, a)
	cells := 0
	for _, page := range pages {
		doc := parseHTML(t, a.request(http.MethodGet, page, "", nil).Body.String())
		for _, n := range elements(doc, "input", "select", "textarea") {
			post, target := attr(n, "hx-post"), attr(n, "hx-target")
			if post == "" || attr(n, "name") != "value" || attr(n, "hx-swap") != "outerHTML" || !strings.HasPrefix(target, "#") {
				continue
			}
			var vals map[string]string
			if err := json.Unmarshal([]byte(attr(n, "hx-vals")), &vals); err != nil {
				t.Fatalf("%s: cell %s has hx-vals %q: %v", page, attr(n, "id"), attr(n, "hx-vals"), err)
			}
			form := []string{"value", shownValue(n)}
			for k, v := range vals {
				form = append(form, k, v)
			}
			rec := a.hx(post, form...)
			if rec.Code != http.StatusOK {
				t.Errorf("%s: cell %s posting its own value %q answers %d: %.300s", page, attr(n, "id"), shownValue(n), rec.Code, rec.Body)
				continue
			}
			cells++
			if rec.Header().Get("HX-Location") != "" && rec.Body.Len() == 0 {
				continue // a structural change reloads the step instead of swapping
			}
			answer := elements(parseHTML(t, rec.Body.String()), "*")
			if len(answer) == 0 || attr(answer[0], "id") != target[1:] {
				first := "nothing"
				if len(answer) > 0 {
					first = "<" + answer[0].Data + " id=" + attr(answer[0], "id") + ">"
				}
				t.Errorf("%s: cell %s targets %s, but its answer starts with %s", page, attr(n, "id"), target, first)
			}
		}
	}
	t.Logf("%d cells posted", cells)
	if cells < 100 {
		t.Fatalf("only %d cells found on the HR example's steps; the page structure changed under this test", cells)
	}
}

// exampleStepPages creates a copy of the HR example and lists the pages of its editable steps,
// the tables step once per table.
func exampleStepPages(t *testing.T, a *testApp) (token string, pages []string) {
	t.Helper()
	token = a.createJSON(`{"example": "hr-employees"}`).EditToken
	base := "/d/" + token
	pages = []string{base, base + "/entities", base + "/patterns", base + "/aggregates", base + "/mapping"}
	for _, tab := range elements(parseHTML(t, a.request(http.MethodGet, base+"/tables", "", nil).Body.String()), "a") {
		if href := attr(tab, "href"); strings.HasPrefix(href, base+"/tables") {
			pages = append(pages, href)
		}
	}
	// The mapping step's cards come collapsed: each is also listed open, as its link opens it.
	for _, link := range elements(parseHTML(t, a.request(http.MethodGet, base+"/mapping", "", nil).Body.String()), "a") {
		if attr(link, "data-testid") == "open-mapping" {
			pages = append(pages, strings.Split(attr(link, "href"), "#")[0])
		}
	}
	return token, pages
}

func parseHTML(t *testing.T, s string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// elements lists the element nodes of the body with one of the tag names ("*" for any), in
// document order.
func elements(doc *html.Node, tags ...string) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data != "html" && n.Data != "head" && n.Data != "body" {
			for _, tag := range tags {
				if tag == "*" || tag == n.Data {
					out = append(out, n)
					break
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// shownValue is what the control holds as the page shows it.
func shownValue(n *html.Node) string {
	switch n.Data {
	case "textarea":
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(c.Data)
		}
		return b.String()
	case "select":
		for _, o := range elements(n, "option") {
			for _, a := range o.Attr {
				if a.Key == "selected" {
					return attr(o, "value")
				}
			}
		}
		if opts := elements(n, "option"); len(opts) > 0 {
			return attr(opts[0], "value")
		}
		return ""
	}
	return attr(n, "value")
}

// The same for every form and button that posts and swaps its answer in over a target: each kind
// of action (by path) on each step is tried up to three times, every time on a fresh copy of the
// example, with the values the form holds. A form that needs text the page leaves empty (an add
// form) is refused with 400 or 422 and passes over.
func TestButtons_answerReplacesWhatTheyTarget(t *testing.T) {
	t.Parallel()
	a := newTestAppWith(t, Options{CreateLimit: NoLimit, WriteLimit: NoLimit})
	first, pages := exampleStepPages(t, a)
	tried := 0
	for _, page := range pages {
		perAction := map[string]int{}
		for _, f := range elements(parseHTML(t, a.request(http.MethodGet, page, "", nil).Body.String()), "form") {
			post, target, swap := attr(f, "hx-post"), attr(f, "hx-target"), attr(f, "hx-swap")
			if post == "" || !strings.HasPrefix(target, "#") || swap != "" && swap != "outerHTML" || perAction[post] == 3 {
				continue
			}
			perAction[post]++
			fresh := a.createJSON(`{"example": "hr-employees"}`).EditToken
			var form []string
			for _, in := range elements(f, "input", "select", "textarea") {
				if name := attr(in, "name"); name != "" {
					form = append(form, name, shownValue(in))
				}
			}
			rec := a.hx(strings.Replace(post, first, fresh, 1), form...)
			switch {
			case rec.Code == http.StatusBadRequest || rec.Code == http.StatusUnprocessableEntity:
				continue
			case rec.Code == http.StatusNoContent && rec.Header().Get("HX-Redirect") != "":
				tried++ // replacing the edit link sends the page to the new one
				continue
			case rec.Code != http.StatusOK:
				t.Errorf("%s: form posting to %s answers %d: %.300s", page, post, rec.Code, rec.Body)
				continue
			}
			tried++
			if rec.Header().Get("HX-Location") != "" && rec.Body.Len() == 0 {
				continue
			}
			answer := elements(parseHTML(t, rec.Body.String()), "*")
			if len(answer) == 0 || attr(answer[0], "id") != target[1:] {
				got := "nothing"
				if len(answer) > 0 {
					got = "<" + answer[0].Data + " id=" + attr(answer[0], "id") + ">"
				}
				t.Errorf("%s: form posting to %s targets %s, but its answer starts with %s", page, post, target, got)
			}
		}
	}
	t.Logf("%d forms tried", tried)
	if tried < 20 {
		t.Fatalf("only %d forms tried on the HR example's steps; the page structure changed under this test", tried)
	}
}
