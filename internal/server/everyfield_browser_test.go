package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"dynaloom/internal/designer"
)

// everyFieldDesign has a row of every kind a step edits: entities with attributes, a
// relationship, a pattern with an operation, an aggregate analysis, a consolidation review, two
// tables (one with a GSI and an item) and capacity settings.
const everyFieldDesign = `{"name": "Every field",
 "entities": [
  {"name": "Customer", "attributes": [{"name": "customer_id", "type": "S"}, {"name": "email", "type": "S"}]},
  {"name": "Order", "attributes": [{"name": "order_id", "type": "S"}, {"name": "total", "type": "N"}]}],
 "relationships": [{"from": "Customer", "to": "Order", "kind": "1:M", "avg_count": 3, "max_count": 50}],
 "access_patterns": [
  {"number": 1, "description": "Get a customer", "type": "read", "peak_rps": 10, "avg_rps": 5, "status": "open", "entities": ["Customer"],
   "mapping": {"operations": [{"op": "GetItem", "table": "Customers", "key_condition": "customer_id = :c", "values": {":c": {"S": "c1"}}}]}}],
 "aggregates": [{"entity_a": "Customer", "entity_b": "Order", "correlation_pct": 20}],
 "consolidations": [{"parent": "Customer", "child": "Order", "relationship": "1:M"}],
 "tables": [
  {"name": "Customers", "partition_key": {"name": "customer_id", "type": "S"}, "billing_mode": "PAY_PER_REQUEST",
   "attributes": [{"name": "customer_id", "type": "S"}, {"name": "email", "type": "S"}],
   "entity_types": [{"entity": "Customer", "pk_template": "{customer_id}"}],
   "gsis": [{"name": "ByEmail", "partition_key": [{"name": "email", "type": "S"}], "projection": {"type": "KEYS_ONLY"}}],
   "items": [{"item": {"customer_id": {"S": "c1"}, "email": {"S": "a@example.com"}}}]},
  {"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}, "billing_mode": "PAY_PER_REQUEST"}],
 "capacity": {"region": "us-east-1"}}`

// Every field of every step, typed into as a person does, reaches the design, or is refused
// with a message on the field. The fields are found on the pages, not listed here: a control
// that saves itself when it changes (an input, text area or select with hx-post, or inside a
// form with hx-post, triggered by change). Each is typed into, left, and then the design is read
// back through the API: the value must be in a member of the row the field names.
func TestBrowser_everyFieldSavesOrSaysWhyNot(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	created := createOver(t, base, everyFieldDesign)
	ctx, errs := newBrowserWithin(t, 12*time.Minute)
	edit := base + "/d/" + created.EditToken
	openAndJoin(t, ctx, edit, "Ada")
	steps := get(t, ctx, "read the steps", chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#steps-list a[data-testid^=step-]")).map(a => a.getAttribute("href"))`))
	if len(steps) < 9 {
		t.Fatalf("the steps rail lists %d steps: %v", len(steps), steps)
	}
	ft := &fieldTyper{t: t, ctx: ctx, errs: errs, base: base, token: created.EditToken}
	for _, step := range steps {
		name := strings.TrimPrefix(strings.TrimPrefix(step, "/d/"+created.EditToken), "/")
		if name == "" {
			name = "overview"
		}
		var tally fieldTally
		// A step that shows one row at a time (a table) has a tab per row: each is a page.
		for page := 0; ; page++ {
			ft.open(base + step)
			tabs := get(t, ctx, "read the tabs of "+name, chromedp.Evaluate[[]string](
				`Array.from(document.querySelectorAll("#main nav.tabs a[href]")).map(a => a.getAttribute("href"))`))
			if page > 0 && page >= len(tabs) {
				break
			}
			if page < len(tabs) {
				ft.open(base + tabs[page])
			}
			tally.add(ft.typeEveryField(name + "#" + strconv.Itoa(page)))
			if len(tabs) == 0 {
				break
			}
		}
		t.Logf("%s: %d fields typed, %d read back from the design, %d refused on the field", name, tally.typed, tally.saved, tally.refused)
		ft.total.add(tally)
	}
	t.Logf("all steps: %d fields typed, %d read back, %d refused", ft.total.typed, ft.total.saved, ft.total.refused)
	if ft.total.saved < 100 {
		t.Errorf("only %d fields were read back from the design: the pages offer fewer fields than they should, or the test finds them no more", ft.total.saved)
	}
}

type fieldTally struct{ typed, saved, refused int }

func (a *fieldTally) add(b fieldTally) {
	a.typed, a.saved, a.refused = a.typed+b.typed, a.saved+b.saved, a.refused+b.refused
}

// fieldTyper types into the fields of the page open in its tab, one after another.
type fieldTyper struct {
	t           *testing.T
	ctx         context.Context
	errs        *pageErrors
	base, token string
	n           int // fields typed so far: each value typed is made distinct with it
	total       fieldTally
}

// editField is one control that saves itself, as the page shows it.
type editField struct {
	ID      string            `json:"id"`
	Box     string            `json:"box"`     // the cell or form the save's answer replaces, where a refusal shows
	Tag     string            `json:"tag"`     // INPUT, TEXTAREA or SELECT
	Mode    string            `json:"mode"`    // the input's inputmode
	Label   string            `json:"label"`   // its aria-label, else its label's text
	Action  string            `json:"action"`  // the address it posts to
	Vals    map[string]string `json:"vals"`    // what it posts beside its value (hx-vals)
	Value   string            `json:"value"`   // what it shows
	Options []string          `json:"options"` // a select's choices, or the suggestions of an input's list
}

// key names the field within its page across edits that rename its row or its column: its
// address, its posted field, and how many fields of the same address and field come before it.
func (f editField) key(seen map[string]int) string {
	k := f.Action + " " + f.Vals["field"]
	seen[k]++
	return k + " " + strconv.Itoa(seen[k])
}

// field is the member the control edits: its posted field, the attribute of an item's cell, or
// the last part of its address (/overview/domain).
func (f editField) field() string {
	if v := f.Vals["field"]; v != "" {
		return v
	}
	if v := f.Vals["attribute"]; v != "" {
		return v
	}
	return f.Action[strings.LastIndex(f.Action, "/")+1:]
}

// editFieldsJS lists the controls of the page that save themselves when they change.
const editFieldsJS = `(function(){
	var token = location.pathname.split("/")[2];
	var out = [];
	document.querySelectorAll("input, textarea, select").forEach(function(el){
		if (el.type === "hidden" || el.disabled || el.readOnly) return;
		var poster = el.closest("[hx-post]");
		if (!poster || poster.getAttribute("hx-trigger") !== "change") return;
		var box = el.closest(".cell, form.field") || poster;
		var label = el.getAttribute("aria-label") || (el.labels && el.labels[0] ? el.labels[0].textContent : "");
		var vals = {};
		try { vals = JSON.parse(el.getAttribute("hx-vals") || "{}"); } catch (e) {}
		var choices = el.tagName === "SELECT" ? Array.from(el.options) : el.list ? Array.from(el.list.options) : [];
		out.push({id: el.id, box: box.id, tag: el.tagName, mode: el.getAttribute("inputmode") || "",
			label: label.replace(/\s+/g, " ").trim(), action: poster.getAttribute("hx-post").replace("/d/" + token, ""),
			vals: vals, value: el.value, options: choices.map(function(o){ return o.value; })});
	});
	return out;
})()`

// openJS opens what a person opens to reach every field (notes, collapsed cards) and counts the
// page's requests, so that a save can be waited for.
const openJS = `(function(){
	if (!window.__efRequests) {
		window.__efRequests = {pending: 0, at: Date.now()};
		document.addEventListener("htmx:beforeRequest", function(ev){
			var xhr = ev.detail.xhr;
			if (!xhr) return;
			window.__efRequests.pending++;
			xhr.addEventListener("loadend", function(){ window.__efRequests.pending--; window.__efRequests.at = Date.now(); });
		});
	}
	document.querySelectorAll("#main details:not([open])").forEach(function(d){ d.open = true; });
})()`

// idleJS holds when the page has no request in flight and none ended in the last 300 ms (a save
// answered with a redraw of the step asks for it next).
const idleJS = `document.readyState === "complete" && !!window.__efRequests && window.__efRequests.pending === 0 &&
	Date.now() - window.__efRequests.at > 300 && !document.querySelector(".htmx-request, details.mapping[data-detail]:not([data-loaded])")`

func (ft *fieldTyper) open(url string) {
	ft.t.Helper()
	do(ft.t, ft.ctx, "open "+url, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("#main")))
	ft.settle()
}

// settle opens what is closed and waits until the page is quiet.
func (ft *fieldTyper) settle() {
	ft.t.Helper()
	for range 3 {
		do(ft.t, ft.ctx, "open the notes and cards", chromedp.Evaluate[chromedp.Void](openJS))
		waitUntil(ft.t, ft.ctx, "the page to be quiet", idleJS)
	}
}

// typeEveryField types into each field of the open page once, finding them again after each
// save, since a save may redraw the page or bring fields it did not show.
func (ft *fieldTyper) typeEveryField(page string) fieldTally {
	t := ft.t
	t.Helper()
	var tally fieldTally
	done := map[string]bool{}
	for {
		fields := get(t, ft.ctx, "list the fields of "+page, chromedp.Evaluate[[]editField](editFieldsJS))
		seen := map[string]int{}
		var next *editField
		for i := range fields {
			if k := page + " " + fields[i].key(seen); !done[k] {
				done[k] = true
				next = &fields[i]
				break
			}
		}
		if next == nil {
			return tally
		}
		switch ft.typeInto(*next) {
		case fieldSaved:
			tally.typed++
			tally.saved++
		case fieldRefused:
			tally.typed++
			tally.refused++
		case fieldLost:
			tally.typed++
		}
	}
}

type fieldOutcome int

const (
	fieldSaved fieldOutcome = iota
	fieldRefused
	fieldLost
	fieldUnchosen // a select with no other choice
)

func (ft *fieldTyper) typeInto(f editField) fieldOutcome {
	t := ft.t
	t.Helper()
	before, rev := ft.design()
	ft.n++
	value, ok := valueFor(f, before, ft.n)
	if !ok {
		return fieldUnchosen
	}
	what := fmt.Sprintf("%s (%s, %s %v) set to %q", f.Label, f.ID, f.Action, f.Vals, value)
	if f.ID == "" || f.Box == "" {
		t.Errorf("%s: the field has no id, or no cell or form a refusal could show in", what)
		return fieldLost
	}
	// A refusal is answered with 422, which the browser logs.
	ft.errs.expectFailedRequest(http.StatusUnprocessableEntity, f.Action)
	if f.Tag == "SELECT" {
		do(t, ft.ctx, "choose in "+what, chromedp.Focus(chromedp.CSS("#"+f.ID)), chromedp.SetValue(chromedp.CSS("#"+f.ID), value),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("`+f.ID+`").dispatchEvent(new Event("change", {bubbles: true}))`),
			chromedp.KeyEvent(kb.Tab))
	} else {
		typeOver(t, ft.ctx, "#"+f.ID, value)
	}
	// The save has answered when the design has a new revision or the field shows a refusal.
	type shown struct {
		Said    string `json:"said"`
		Invalid bool   `json:"invalid"`
	}
	look := refusedOnFieldJS + `(` + strconv.Quote(f.ID) + `, ` + strconv.Quote(f.Box) + `)`
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, now := ft.design(); now != rev {
			break
		}
		if r := get(t, ft.ctx, "read the refusal of "+what, chromedp.Evaluate[shown](look)); r.Said != "" {
			t.Logf("%s: refused on the field: %s", what, r.Said)
			if !r.Invalid {
				t.Errorf("%s: refused with %q, but the field is not marked invalid", what, r.Said)
			}
			ft.settle()
			return fieldRefused
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: after 10 s the design is still at revision %d and the field shows no refusal: the save was lost", what, rev)
			ft.settle()
			return fieldLost
		}
		time.Sleep(100 * time.Millisecond)
	}
	ft.settle()
	after, _ := ft.design()
	if err := arrived(before, after, f, value); err != nil {
		t.Errorf("%s: %v", what, err)
		return fieldLost
	}
	return fieldSaved
}

// design reads the design through the API, with its revision.
func (ft *fieldTyper) design() (any, int64) {
	ft.t.Helper()
	resp, err := http.Get(ft.base + "/api/designs/" + ft.token)
	if err != nil {
		ft.t.Fatal(err)
	}
	defer resp.Body.Close()
	var d map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil || resp.StatusCode != http.StatusOK {
		ft.t.Fatalf("read the design: %d %v", resp.StatusCode, err)
	}
	rev, _ := d["revision"].(float64)
	delete(d, "revision")
	return d, int64(rev)
}

// valueFor is a valid value for f, distinct by n, or false when the field offers no other value
// (a select of one choice): another choice of a select, a number where the field takes one (its
// inputmode, or the number it shows), a word otherwise, and for a field whose text has a syntax
// or names rows of the design, what fieldValues makes.
func valueFor(f editField, design any, n int) (string, bool) {
	if f.Tag == "SELECT" {
		other := slices.IndexFunc(f.Options, func(o string) bool { return o != f.Value && o != "" })
		switch {
		case other >= 0:
			return f.Options[other], true
		case f.Value != "" && slices.Contains(f.Options, ""):
			return "", true
		}
		return "", false
	}
	// Numbers from 21 to 89 fit every range a field takes (percentages, a utilisation of 20–90).
	num := strconv.Itoa(21 + n%69)
	if num == f.Value {
		num = strconv.Itoa(21 + (n+1)%69)
	}
	if value, ok := fieldValues[f.field()]; ok {
		return value(design, n, num), true
	}
	if _, err := strconv.ParseFloat(f.Value, 64); err == nil || f.Mode == "decimal" || f.Mode == "numeric" {
		return num, true
	}
	// One word, as names (of tables, indexes, attributes) take no spaces.
	return "ef" + strconv.Itoa(n) + "-typed", true
}

// number is the value of a field that takes a number the page does not mark as one (no inputmode).
func number(_ any, _ int, num string) string { return num }

// fieldValues make the values of the fields a word or a number from valueFor does not fit, by
// the field they edit, from the design as it stands, the field's number n and a number num.
var fieldValues = map[string]func(design any, n int, num string) string{
	// A state's count and its one word.
	"in_state": func(_ any, n int, num string) string { return num + " ef" + strconv.Itoa(n) },
	// Placeholders and what they stand for.
	"names":  func(_ any, n int, _ string) string { return "#ef" + strconv.Itoa(n) + "=ef" + strconv.Itoa(n) },
	"values": func(_ any, n int, _ string) string { return ":ef" + strconv.Itoa(n) + "=ef" + strconv.Itoa(n) },
	// An entity's growth and how long its items are kept, each with its unit.
	"growth":    func(_ any, _ int, num string) string { return num + " per day" },
	"retention": func(_ any, _ int, num string) string { return num + " days" },
	// A sample-data generator by its name and bounds.
	"generator": func(_ any, _ int, num string) string { return "number 1.." + num },
	// The number of a pattern of the design and the attributes it reads through the index.
	"pattern_attributes": func(design any, n int, _ string) string {
		p := design.(map[string]any)["access_patterns"].([]any)[0].(map[string]any)
		return strconv.FormatFloat(p["number"].(float64), 'f', -1, 64) + ": ef" + strconv.Itoa(n)
	},
	// A pattern's entities are entities of the design: all of them, where it names one.
	"entities": func(design any, _ int, _ string) string {
		var names []string
		for _, e := range design.(map[string]any)["entities"].([]any) {
			names = append(names, e.(map[string]any)["name"].(string))
		}
		return strings.Join(names, ", ")
	},
	// The Capacity step's prices and figures.
	"read_request_price": number, "write_request_price": number, "read_unit_hour_price": number,
	"write_unit_hour_price": number, "storage_price": number, "target_utilization": number,
	"hot_key_skew": number, "hot_key_share": number, "horizon_months": number,
	// A Zipf exponent is from 0 to 10.
	"hot_key_zipf_s": func(_ any, n int, _ string) string { return "1." + strconv.Itoa(1+n%9) },
}

// refusedOnFieldJS tells the refusal a field shows as its own: the alert in its cell or form,
// and whether the field is marked invalid there, where its label names it. The messages mostly
// do not repeat the field's name: they stand on it.
const refusedOnFieldJS = `(function(id, box){
	var b = document.getElementById(box), el = document.getElementById(id);
	var alert = b && b.querySelector("[role=alert]");
	return {said: alert ? alert.textContent.trim() : "", invalid: !!el && el.getAttribute("aria-invalid") === "true" && b.contains(el)};
})`

// arrived checks that value reached the design in a member of the row f names: among the members
// that changed between before and after, one holds the value, its path names the field, and its
// rows carry every name and id the field posts (its old name aside, which a rename changes).
func arrived(before, after any, f editField, value string) error {
	was, now := map[string]string{}, map[string]string{}
	flatten(before, nil, was)
	flatten(after, nil, now)
	var changed []string
	for p, v := range now {
		if was[p] != v {
			changed = append(changed, p)
		}
	}
	for p := range was {
		if _, ok := now[p]; !ok {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	if len(changed) == 0 {
		return fmt.Errorf("the design has a new revision but nothing in it changed")
	}
	marker := markerOf.FindString(value)
	var near []string
	for _, p := range changed {
		if !memberHolds(now[p], value, marker) {
			continue
		}
		path := strings.Split(p, "/")
		if !slices.Contains(path, jsonMember(f.field())) {
			near = append(near, p+" (not the field's member)")
			continue
		}
		if missing := rowsMissing(after, path, f); missing != "" {
			near = append(near, p+" (not in the row of "+missing+")")
			continue
		}
		return nil
	}
	return fmt.Errorf("the value is in no member of the field's row; changed: %s; holding it: %v", strings.Join(changed, ", "), near)
}

// markerOf finds the mark that makes a typed word distinct: "ef" and the field's number.
var markerOf = regexp.MustCompile(`ef[0-9]+`)

// numbersIn finds the numbers of a typed text.
var numbersIn = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)

// memberHolds reports whether a member's JSON text holds the typed value: the text itself, a text
// with its marker (a key's attribute) or one of a list, a number equal to it or to one it holds,
// or a choice's value as the design stores it.
func memberHolds(member, value, marker string) bool {
	if member == "" {
		return value == ""
	}
	var s string
	if json.Unmarshal([]byte(member), &s) == nil {
		return s == value || marker != "" && strings.Contains(s, marker) || slices.Contains(strings.Split(value, ", "), s)
	}
	if a, err := strconv.ParseFloat(member, 64); err == nil {
		// A number typed alone, or with its unit or beside another ("31 per day", "number 1..50").
		for _, n := range numbersIn.FindAllString(value, -1) {
			if b, err := strconv.ParseFloat(n, 64); err == nil && a == b {
				return true
			}
		}
		return false
	}
	switch member {
	case "true":
		return slices.Contains([]string{"yes", "desc", "true"}, value)
	case "false":
		return slices.Contains([]string{"no", "asc", "false"}, value)
	}
	return false
}

// jsonMember is the design-json member a field edits, where its key is not the member's name.
func jsonMember(field string) string {
	if m, ok := map[string]string{
		"pk_name": "partition_key", "pk_type": "partition_key", "sk_name": "sort_key", "sk_type": "sort_key",
		"include": "projection", "direction": "descending", "consistent": "consistent_read",
	}[field]; ok {
		return m
	}
	return field
}

// rowsMissing names what f posts that the rows on path do not carry, "" when they carry all: each
// posted name or id (but the field's own old value) is a member of an object on the path or a
// step of the path.
func rowsMissing(doc any, path []string, f editField) string {
	var carried []string
	at := doc
	for _, step := range path {
		carried = append(carried, step)
		switch v := at.(type) {
		case map[string]any:
			for _, m := range v {
				if s, ok := m.(string); ok {
					carried = append(carried, s)
				}
			}
			at = v[step]
		case []any:
			i, _ := strconv.Atoi(step)
			if i < len(v) {
				at = v[i]
			}
		}
	}
	for k, v := range f.Vals {
		if k == "field" || v == f.Value {
			continue
		}
		if !slices.Contains(carried, v) {
			return k + " " + v
		}
	}
	return ""
}

// flatten writes each leaf of a decoded JSON document as its path (members and indexes joined by
// "/") and its JSON text.
func flatten(v any, path []string, out map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, m := range v {
			flatten(m, append(slices.Clip(path), k), out)
		}
	case []any:
		for i, m := range v {
			flatten(m, append(slices.Clip(path), strconv.Itoa(i)), out)
		}
	default:
		b, _ := json.Marshal(v)
		out[strings.Join(path, "/")] = string(b)
	}
}

// A facilitator writes the capacity planning of four tables one after another, as fast as she
// can: she opens each table's notes, types its capacity planning and at once opens the next
// table's tab. The room works meanwhile: while she types, Bob sets the table's billing mode, and
// her page draws the step again around her. Each of the four notes reaches the design whole.
func TestBrowser_capacityNotesOfFourTablesAllSave(t *testing.T) {
	t.Parallel()
	base := startBrowserApp(t)
	tables := []string{"Customers", "Orders", "Invoices", "Shipments"}
	var defs []string
	for _, name := range tables {
		defs = append(defs, `{"name": "`+name+`", "partition_key": {"name": "id", "type": "S"}, "billing_mode": "PAY_PER_REQUEST"}`)
	}
	created := createOver(t, base, `{"name": "Four tables", "tables": [`+strings.Join(defs, ", ")+`]}`)
	ctx, _ := newBrowser(t)
	openAndJoin(t, ctx, base+"/d/"+created.EditToken+"/tables?table="+tables[0], "Ada")
	planning := func(i int) string { return "About " + strconv.Itoa(10*(i+1)) + " RPS at peak for " + tables[i] }
	for i, name := range tables {
		notes := "#" + elemID("tf", name, "capacity_notes")
		do(t, ctx, "open the notes of "+name, chromedp.WaitReady(chromedp.CSS(notes)),
			chromedp.Click(chromedp.CSS("#"+elemID("table", name)+" details.notes summary")), chromedp.WaitVisible(chromedp.CSS(notes)))
		text := planning(i)
		half := len(text) / 2
		do(t, ctx, "start the capacity planning of "+name, chromedp.Focus(chromedp.CSS(notes)), chromedp.KeyEvent(text[:half]))
		before := currentRevision(t, base, created.EditToken)
		postChange(t, base, created.EditToken, `{"kind": "set_table_field", "change": {"table": "`+name+`", "field": "billing_mode", "value": "provisioned"}}`)
		waitUntil(t, ctx, "Bob's billing mode to reach Ada's page", `document.documentElement.dataset.shownRevision !== "`+before+`" && !document.querySelector(".htmx-request")`)
		// Keys typed with the focus elsewhere go to the page's shortcuts: she types on only where
		// she was typing.
		state := get(t, ctx, "read where Ada types", chromedp.Evaluate[string](
			`(document.activeElement ? document.activeElement.id : "") + (document.querySelector("`+notes+`").closest("details").open ? "" : ", the notes closed")`))
		if state != strings.TrimPrefix(notes, "#") {
			t.Errorf("Bob's change took Ada's field from under her typing in the notes of %s: the focus is on %q", name, state)
		} else {
			do(t, ctx, "finish the capacity planning of "+name, chromedp.KeyEvent(text[half:]))
		}
		if i+1 == len(tables) {
			do(t, ctx, "leave the last notes", chromedp.KeyEvent(kb.Tab))
		} else {
			do(t, ctx, "open the tab of "+tables[i+1], chromedp.Click(chromedp.CSS("[data-testid=table-tab-"+elemID("t", tables[i+1])+"]")))
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		d := designOf(t, base, created.EditToken)
		var missing []string
		for i, tb := range d.Tables {
			if tb.Capacity != planning(i) {
				missing = append(missing, fmt.Sprintf("%s holds %q", tb.Name, tb.Capacity))
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d tables' capacity planning did not reach the design whole: %s", len(missing), len(tables), strings.Join(missing, "; "))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// postChange sends one change through the API, as a script or another participant's tool does.
func postChange(t *testing.T, base, token, change string) {
	t.Helper()
	resp, err := http.Post(base+"/api/designs/"+token+"/changes", "application/json", strings.NewReader(change))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("post %s: %d", change, resp.StatusCode)
	}
}

// designOf reads the design through the API of the server at base.
func designOf(t *testing.T, base, token string) designer.Design {
	t.Helper()
	resp, err := http.Get(base + "/api/designs/" + token)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d designer.Design
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("read the design: %d %v", resp.StatusCode, err)
	}
	return d
}
