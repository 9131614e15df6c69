package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"dynaloom/internal/designer/rules"
)

// checklistLine is one line of a checklist as one reader shows it.
type checklistLine struct {
	Item string
	OK   bool
}

func (l checklistLine) String() string {
	if l.OK {
		return "[x] " + l.Item
	}
	return "[ ] " + l.Item
}

// pageChecklist reads the checklist in the section with the test id from the Validation step, and
// the link of each line not ticked.
func pageChecklist(t *testing.T, doc *html.Node, testID string) (lines []checklistLine, links []string) {
	t.Helper()
	for _, section := range elements(doc, "section") {
		if attr(section, "data-testid") != testID {
			continue
		}
		for _, li := range elements(section, "li") {
			if attr(li, "data-testid") != "checklist-item" {
				continue
			}
			var text strings.Builder
			link := ""
			for c := li.FirstChild; c != nil; c = c.NextSibling {
				switch {
				case c.Type == html.TextNode:
					text.WriteString(c.Data)
				case c.Type == html.ElementNode && c.Data == "a":
					link = attr(c, "href")
					text.WriteString(c.FirstChild.Data)
				}
			}
			line := checklistLine{Item: strings.TrimSpace(text.String()), OK: attr(li, "data-ok") == "true"}
			if !line.OK && link == "" {
				t.Errorf("%s: the line %q is not ticked and links nowhere", testID, line.Item)
			}
			if line.OK && link != "" {
				t.Errorf("%s: the ticked line %q links to %s", testID, line.Item, link)
			}
			lines = append(lines, line)
			if link != "" {
				links = append(links, link)
			}
		}
		return lines, links
	}
	t.Fatalf("the Validation step has no section %s", testID)
	return nil, nil
}

// exportChecklist reads the checklist lines under the heading of a markdown export.
func exportChecklist(t *testing.T, doc, heading string, n int) []checklistLine {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("the export has no %s", heading)
	}
	var out []checklistLine
	for _, l := range strings.Split(strings.TrimLeft(rest, "\n"), "\n")[:n] {
		switch {
		case strings.HasPrefix(l, "- [x] "):
			out = append(out, checklistLine{Item: l[6:], OK: true})
		case strings.HasPrefix(l, "- [ ] "):
			out = append(out, checklistLine{Item: l[6:]})
		default:
			t.Fatalf("%s line %q is not a checklist line", heading, l)
		}
	}
	return out
}

func apiLines(items []rules.ChecklistItem) []checklistLine {
	out := make([]checklistLine, len(items))
	for i, it := range items {
		out[i] = checklistLine{Item: it.Item, OK: it.OK}
	}
	return out
}

// assertLinkLandsOnAField fails unless the page link names has an element with the link's
// fragment as its id, and that element is a field or holds one (a cell or a labelled form), or is
// the card or section the line is about.
func assertLinkLandsOnAField(t *testing.T, a *testApp, link string) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Fragment == "" {
		t.Fatalf("checklist link %q names no element", link)
	}
	rec := a.request(http.MethodGet, u.RequestURI(), "", nil)
	if rec.Code != http.StatusOK {
		t.Fatalf("checklist link %q: %d", link, rec.Code)
	}
	for _, n := range elements(parseHTML(t, rec.Body.String()), "*") {
		if attr(n, "id") != u.Fragment {
			continue
		}
		if slices.Contains([]string{"input", "textarea", "select", "details", "section", "article", "tr"}, n.Data) ||
			len(elements(n, "input", "textarea", "select")) > 0 {
			return
		}
		t.Fatalf("checklist link %q lands on a <%s>, which is no field", link, n.Data)
	}
	t.Fatalf("checklist link %q: the page has no element with id %q", link, u.Fragment)
}

// The Validation step, the API's validation answer and the two markdown exports show the same
// checklists, line by line, at every revision of a design walked through changes that tick and
// untick lines of both lists; every line not ticked links to a field on the page it names.
func TestChecklists_pageAPIAndExportsAgreeAtEveryRevision(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	changes := []string{
		`{"kind": "set_prose", "change": {"field": "design_philosophy", "value": ""}}`,
		`{"kind": "set_index_field", "change": {"table": "Employee", "index": "EmployeesByTitle", "field": "partition_key_justification", "value": ""}}`,
		`{"kind": "set_aggregate_field", "change": {"id": "ag1", "field": "child_independent", "value": ""}}`,
		`{"kind": "set_consideration", "change": {"field": "hot_partitions", "value": ""}}`,
		`{"kind": "set_entity_type_field", "change": {"table": "Employee", "index": 0, "field": "entity", "value": "Ghost"}}`,
		`{"kind": "set_table_field", "change": {"table": "Department", "field": "capacity_notes", "value": ""}}`,
		`{"kind": "set_prose", "change": {"field": "design_philosophy", "value": "Aggregates first: what is read together is stored together."}}`,
		`{"kind": "set_index_field", "change": {"table": "Employee", "index": "EmployeesByTitle", "field": "partition_key_justification", "value": "Many titles spread the load."}}`,
		`{"kind": "set_entity_type_field", "change": {"table": "Employee", "index": 0, "field": "entity", "value": "Employee"}}`,
		`{"kind": "set_prose", "change": {"field": "trade_offs", "value": ""}}`,
		`{"kind": "set_mapping_notes", "change": {"pattern": "ap16", "notes": ""}}`,
		`{"kind": "set_pattern_field", "change": {"id": "ap16", "field": "considerations", "value": ""}}`,
		`{"kind": "delete_operation", "change": {"pattern": "ap9", "index": 0}}`,
	}
	unticked := map[string]bool{}  // every line seen not ticked, by list and text
	fragments := map[string]bool{} // the element ids the lines linked to
	var seen []string
	for step := 0; step <= len(changes); step++ {
		if step > 0 {
			if rec := a.postChange(c.EditToken, changes[step-1]); rec.Code != http.StatusOK {
				t.Fatalf("change %d: %d %s", step, rec.Code, rec.Body)
			}
		}
		var api validationResponse
		if rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/validation", "", nil); rec.Code != http.StatusOK ||
			json.Unmarshal(rec.Body.Bytes(), &api) != nil {
			t.Fatalf("validation: %d %s", rec.Code, rec.Body)
		}
		page := parseHTML(t, a.request(http.MethodGet, "/d/"+c.EditToken+"/validation", "", nil).Body.String())
		pageReq, reqLinks := pageChecklist(t, page, "requirements-checklist")
		pageModel, modelLinks := pageChecklist(t, page, "data-model-checklist")
		reqDoc := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/export/requirements-md", "", nil).Body.String()
		modelDoc := a.request(http.MethodGet, "/api/designs/"+c.ViewToken+"/export/data-model-md", "", nil).Body.String()

		for _, list := range []struct {
			name                string
			api, page, exported []checklistLine
		}{
			{"requirements", apiLines(api.Checklists.Requirements), pageReq,
				exportChecklist(t, reqDoc, "Validation Checklist", len(api.Checklists.Requirements))},
			{"data model", apiLines(api.Checklists.DataModel), pageModel,
				exportChecklist(t, modelDoc, "Validation Results", len(api.Checklists.DataModel))},
		} {
			if !slices.Equal(list.api, list.page) || !slices.Equal(list.api, list.exported) {
				t.Fatalf("revision %d, %s checklist:\nAPI    %v\npage   %v\nexport %v", api.Revision, list.name, list.api, list.page, list.exported)
			}
			for _, l := range list.api {
				if !l.OK {
					unticked[list.name+": "+l.Item] = true
				}
			}
		}
		for _, it := range append(api.Checklists.Requirements, api.Checklists.DataModel...) {
			if it.OK == (it.Path != "") {
				t.Errorf("revision %d, API line %q: ok %v with path %q", api.Revision, it.Item, it.OK, it.Path)
			}
		}
		for _, link := range append(reqLinks, modelLinks...) {
			assertLinkLandsOnAField(t, a, link)
			_, fragment, _ := strings.Cut(link, "#")
			fragments[fragment] = true
		}
		seen = append(seen, fmt.Sprintf("%d: %d links", api.Revision, len(reqLinks)+len(modelLinks)))
	}
	// The walk did untick lines of both lists, so the comparison compared something.
	for _, want := range []string{
		"data model: Reasoned step-by-step through design decisions, applying Important DynamoDB Context, Core Design Philosophy, and optimizing using Design Patterns",
		"data model: All tables and GSIs documented with full justification",
		"data model: Cross-referenced against `dynamodb_requirement.md` for accuracy",
		"data model: Cost estimates provided for high-volume operations",
		"data model: Trade-offs explicitly documented and justified",
		"data model: Integration patterns detailed for non-DynamoDB functionality",
		"requirements: Identifying relationships checked for consolidation opportunities",
		"requirements: Hot partition risks evaluated",
	} {
		if !unticked[want] {
			t.Errorf("the walk never unticked %q (%v)", want, seen)
		}
	}
	// The links named the exact fields: the write-up's, a GSI's key justification, an SK-taxonomy
	// entity, a table's capacity notes, the identifying check's answer, a mapping's notes.
	for _, want := range []string{"prose-design_philosophy", "ixf-Employee-EmployeesByTitle-partition_key_justification",
		"etf-Employee-0-entity", "tf-Department-capacity_notes", "aggf-ag1-child_independent", "mapnotes-ap16",
		"consideration-hot_partitions", "map-ap9"} {
		if !fragments[want] {
			t.Errorf("no line linked to #%s; linked to %v", want, fragments)
		}
	}
}

// Writing a section of the data model's write-up answers with the field saved and the data model
// checklist, out of band, with the line it ticks ticked; a refusal names the field and changes
// nothing.
func TestProse_savingTicksTheLineOnThePage(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Shop"}`)
	base := "/d/" + c.EditToken
	rec := a.request(http.MethodPost, base+"/prose/design_philosophy", formType, strings.NewReader(form("value", "\x07")), "HX-Request", "true")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "prose/design_philosophy") {
		t.Fatalf("control character: %d %s", rec.Code, rec.Body)
	}
	if rec := a.request(http.MethodPost, base+"/prose/nope", formType, strings.NewReader(form("value", "x")), "HX-Request", "true"); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown section: %d", rec.Code)
	}
	rec = a.request(http.MethodPost, base+"/prose/design_philosophy", formType, strings.NewReader(form("value", "Aggregates <b>first</b>.")), "HX-Request", "true")
	if rec.Code != http.StatusOK {
		t.Fatalf("save: %d %s", rec.Code, rec.Body)
	}
	doc := parseHTML(t, rec.Body.String())
	lines, _ := pageChecklist(t, doc, "data-model-checklist")
	if len(lines) != 11 || !lines[0].OK || lines[7].OK {
		t.Errorf("the checklist answered: %v", lines)
	}
	var oob, saved bool
	for _, n := range elements(doc, "*") {
		oob = oob || (attr(n, "id") == "data-model-checklist" && attr(n, "hx-swap-oob") != "")
		saved = saved || attr(n, "data-testid") == "field-saved"
	}
	if !oob || !saved || strings.Contains(rec.Body.String(), "<b>first") {
		t.Errorf("answer: oob checklist %v, saved %v:\n%s", oob, saved, rec.Body)
	}
	var got struct {
		Prose struct {
			DesignPhilosophy string `json:"design_philosophy"`
		} `json:"prose"`
	}
	json.Unmarshal(a.request(http.MethodGet, "/api/designs/"+c.ViewToken, "", nil).Body.Bytes(), &got)
	if got.Prose.DesignPhilosophy != "Aggregates <b>first</b>." {
		t.Errorf("stored %q", got.Prose.DesignPhilosophy)
	}
}

// On a blank design no line is ticked, and each links to where its first step is taken: a field of
// the overview or the write-up, or the form or list that adds what the line asks for.
func TestChecklists_blankDesignLinksLandOnFields(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Blank"}`)
	page := parseHTML(t, a.request(http.MethodGet, "/d/"+c.EditToken+"/validation", "", nil).Body.String())
	req, reqLinks := pageChecklist(t, page, "requirements-checklist")
	model, modelLinks := pageChecklist(t, page, "data-model-checklist")
	if len(reqLinks) != len(req) || len(modelLinks) != len(model) {
		t.Fatalf("%d of %d and %d of %d lines link somewhere", len(reqLinks), len(req), len(modelLinks), len(model))
	}
	for _, link := range append(reqLinks, modelLinks...) {
		assertLinkLandsOnAField(t, a, link)
	}
}

// A section of the write-up is shown on the Validation step alone: a page on any other step gets
// the side panel alone, and the Validation step is drawn again with the line it ticks.
func TestRefresh_proseCostsOtherStepsTheSidePanel(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"example": "hr-employees"}`)
	_, rev := a.design(created.EditToken)
	edit := "/d/" + created.EditToken
	if rec := a.hx(edit+"/prose/trade_offs", "value", "Salaries apart."); rec.Code != http.StatusOK {
		t.Fatalf("prose: %d %s", rec.Code, rec.Body)
	}
	for _, step := range []string{"", "/entities", "/patterns", "/aggregates", "/tables", "/mapping"} {
		rec := a.refreshStep(edit+step, rev)
		if rec.Header().Get(fragmentsHeader) != "0" || strings.Count(rec.Body.String(), "hx-swap-oob") != 1 {
			t.Fatalf("%q: want the side panel alone, got %v", step, rec.Header())
		}
	}
	if rec := a.refreshStep(edit+"/validation", rev); rec.Header().Get(fragmentsHeader) != "" || !strings.Contains(rec.Body.String(), "Salaries apart.") {
		t.Fatalf("/validation shows the write-up: want it whole, got %v", rec.Header())
	}
}
