package server

import (
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// refusalOf is the refusal a cell shows in an answer, unescaped; "" when it shows none.
func refusalOf(body string) string {
	m := regexp.MustCompile(`data-testid="cell-error">([^<]*)<`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// saveRefused checks that a refused save answers 422 with the refusal on the cell cellID (the field
// a person edited, which names it) saying want, and leaves the design at revision rev.
func (a *testApp) saveRefused(token, path string, rev int64, cellID, want string, values ...string) {
	a.t.Helper()
	rec := a.hx("/d/"+token+path, values...)
	body := rec.Body.String()
	onCell := regexp.MustCompile(`class="cell[^"]*has-error"\s+id="`+regexp.QuoteMeta(cellID)+`-cell"`).MatchString(body) &&
		strings.Contains(body, `id="`+cellID+`"`) && strings.Contains(body, `aria-invalid="true"`)
	if got := refusalOf(body); rec.Code != http.StatusUnprocessableEntity || !onCell || !strings.Contains(got, want) {
		a.t.Errorf("%q: %d, refusal %q on the cell %s: %v; want 422 saying %q", values, rec.Code, got, cellID, onCell, want)
	}
	if _, now := a.design(token); now != rev {
		a.t.Errorf("%q: a refused value changed the design (revision %d, want %d)", values, now, rev)
	}
}

func TestTables_tableClassSelectSavesAndRefuses(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}}]}`)
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/tables", "", nil).Body.String()
	sel := regexp.MustCompile(`(?s)<select id="` + elemID("tf", "Orders", "table_class") + `"[^>]*aria-label="Table class".*?</select>`).FindString(page)
	if sel == "" || !strings.Contains(sel, `<option value="" selected>Standard</option>`) || !strings.Contains(sel, "Standard-IA") {
		t.Fatalf("the Tables step has no table class select showing Standard: %q", sel)
	}
	rec := a.hx("/d/"+c.EditToken+"/tables/field", "table", "Orders", "field", "table_class", "value", designer.StandardIAClass)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `value="`+designer.StandardIAClass+`" selected`) {
		t.Fatalf("save Standard-IA: %d %.500s", rec.Code, rec.Body)
	}
	d, rev := a.design(c.EditToken)
	if d.Tables[0].TableClass != designer.StandardIAClass {
		t.Fatalf("table class = %q, want %s", d.Tables[0].TableClass, designer.StandardIAClass)
	}
	a.saveRefused(c.EditToken, "/tables/field", rev, elemID("tf", "Orders", "table_class"), "not a table class", "table", "Orders", "field", "table_class", "value", "GLACIER")
	if d, _ := a.design(c.EditToken); d.Tables[0].TableClass != designer.StandardIAClass {
		t.Errorf("a refused class changed it to %q", d.Tables[0].TableClass)
	}
	// Standard again is the default, not the class spelt out.
	a.hx("/d/"+c.EditToken+"/tables/field", "table", "Orders", "field", "table_class", "value", "")
	if d, _ := a.design(c.EditToken); d.Tables[0].TableClass != "" {
		t.Errorf("Standard chosen leaves class %q, want the default", d.Tables[0].TableClass)
	}
}

func TestPatterns_failedConditionsOnWritesSavesAndRefuses(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	d, _ := a.design(c.EditToken)
	w := slices.IndexFunc(d.Patterns, func(p designer.Pattern) bool { return p.Type == designer.Write })
	r := slices.IndexFunc(d.Patterns, func(p designer.Pattern) bool { return p.Type == designer.Read })
	if w < 0 || r < 0 {
		t.Fatal("the example has no write pattern or no read pattern")
	}
	write, read := d.Patterns[w], d.Patterns[r]
	field := designer.PatternField.ConditionalFailurePct.Key
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/patterns", "", nil).Body.String()
	if !strings.Contains(page, `<th scope="col" title="`+failureHint+`">Failed conditions %</th>`) {
		t.Error("the patterns table has no Failed conditions % column saying what it counts")
	}
	if !strings.Contains(page, `<input type="text" id="`+patternCellID(write.ID, field)+`"`) {
		t.Error("a write pattern's failed conditions are not editable")
	}
	if strings.Contains(page, `id="`+patternCellID(read.ID, field)+`"`) || !strings.Contains(page, `id="`+patternCellID(read.ID, field)+`-cell"`) {
		t.Error("a read pattern's failed conditions are editable, or not shown")
	}

	rec := a.hx("/d/"+c.EditToken+"/patterns/field", "id", write.ID, "field", field, "value", "2.5 %")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `value="2.5"`) {
		t.Fatalf("save 2.5 %%: %d %.500s", rec.Code, rec.Body)
	}
	d, rev := a.design(c.EditToken)
	if v := d.Patterns[w].ConditionalFailurePct; v == nil || *v != 2.5 {
		t.Fatalf("failed conditions = %v, want 2.5", v)
	}
	for _, bad := range []string{"-5", "NaN", "1001", "often"} {
		a.saveRefused(c.EditToken, "/patterns/field", rev, patternCellID(write.ID, field), `"`+bad+`" is not a percentage from 0 to 1000`,
			"id", write.ID, "field", field, "value", bad)
	}
	if d, _ := a.design(c.EditToken); *d.Patterns[w].ConditionalFailurePct != 2.5 {
		t.Errorf("refused values changed the rate to %v", *d.Patterns[w].ConditionalFailurePct)
	}

	// Another page of the step gets the cell; a type changed to read makes it a dash there and
	// in the editor's answer.
	if rec := a.refreshStep("/d/"+c.ViewToken+"/patterns", rev-1); rec.Header().Get(fragmentsHeader) != "1" ||
		!strings.Contains(rec.Body.String(), ">2.5<") {
		t.Errorf("a rate change refreshes the step with %q parts: %.500s", rec.Header().Get(fragmentsHeader), rec.Body)
	}
	rec = a.hx("/d/"+c.EditToken+"/patterns/field", "id", write.ID, "field", "type", "value", designer.Read)
	if body := rec.Body.String(); rec.Code != http.StatusOK || !regexp.MustCompile(`id="`+patternCellID(write.ID, field)+`-cell"[^>]*hx-swap-oob="morph">—<`).MatchString(body) ||
		strings.Contains(body, `id="`+patternCellID(write.ID, field)+`"`) {
		t.Errorf("a type changed to read: want the rate's cell, not editable, out of band: %.800s", body)
	}
	if rec := a.refreshStep("/d/"+c.EditToken+"/patterns", rev); rec.Header().Get(fragmentsHeader) != "2" {
		t.Errorf("a type change refreshes the step with %q parts, want the type and the rate", rec.Header().Get(fragmentsHeader))
	}
}

func TestCapacity_replicaAndReservedSettings(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/capacity", "", nil).Body.String()
	for _, want := range []string{
		"other regions a Global Table replicates to, comma-separated; each is written and stores everything again",
		"none, 1 year or 3 years; provisioned Standard tables only",
		`<select id="` + elemID("capset", "reserved_capacity") + `"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the Capacity step lacks %q", want)
		}
	}
	if rec := a.hx("/d/"+c.EditToken+"/capacity/setting", "field", "reserved_capacity", "value", designer.Reserved3Year); rec.Code != http.StatusOK ||
		!strings.Contains(rec.Body.String(), `<option value="3y" selected>3 years</option>`) {
		t.Fatalf("save 3 years: %d %.500s", rec.Code, rec.Body)
	}
	if rec := a.hx("/d/"+c.EditToken+"/capacity/setting", "field", "replica_regions", "value", "eu-west-1, ap-south-1"); rec.Code != http.StatusOK ||
		!strings.Contains(rec.Body.String(), `value="eu-west-1, ap-south-1"`) {
		t.Fatalf("save replicas: %d %.500s", rec.Code, rec.Body)
	}
	d, rev := a.design(c.EditToken)
	if d.Capacity.ReservedCapacity != designer.Reserved3Year || !slices.Equal(d.Capacity.ReplicaRegions, []string{"eu-west-1", "ap-south-1"}) {
		t.Fatalf("settings = %q, %q", d.Capacity.ReservedCapacity, d.Capacity.ReplicaRegions)
	}
	a.saveRefused(c.EditToken, "/capacity/setting", rev, elemID("capset", "reserved_capacity"), `"5 years" is not a reserved-capacity term`,
		"field", "reserved_capacity", "value", "5 years")
	a.saveRefused(c.EditToken, "/capacity/setting", rev, elemID("capset", "replica_regions"), `"x y"`, "field", "replica_regions", "value", "eu-west-1, x\ny")
}

func TestEntities_growthAndRetentionSaveWithTheirSource(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Clinic", "entities": [{"name": "Appointment", "count": 5000, "count_from": "read from: Application Overview, line 4",
		"growth": 4, "growth_unit": "year", "growth_from": "read from: Application Overview, line 9"}]}`)
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/entities", "", nil).Body.String()
	for _, want := range []string{
		`<label for="ent-0-count">Expected items</label>`, "read from: Application Overview, line 4",
		`<label for="ent-0-growth">New items</label>`, `value="4 per year"`, "read from: Application Overview, line 9",
		`<label for="ent-0-retention">Kept for</label>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the entity card lacks %q", want)
		}
	}
	if n := strings.Count(page, `data-testid="scale-source"`); n != 2 {
		t.Errorf("%d sources shown, want 2 (retention has none)", n)
	}

	rec := a.hx("/d/"+c.EditToken+"/entities/field", "entity", "Appointment", "field", "retention", "value", "7 yrs")
	body := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.Contains(body, `id="ent-0-retention-figure"`) || !strings.Contains(body, `value="7 years"`) ||
		!strings.Contains(body, "set by the team") {
		t.Fatalf("save retention: %d %s", rec.Code, body)
	}
	rec = a.hx("/d/"+c.EditToken+"/entities/field", "entity", "Appointment", "field", "growth", "value", "300 per day")
	if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, `value="300 per day"`) ||
		!strings.Contains(body, "set by the team") || strings.Contains(body, "line 9") {
		t.Fatalf("save growth: %d %s", rec.Code, body)
	}
	d, rev := a.design(c.EditToken)
	e := d.Entities[0]
	if e.Retention == nil || *e.Retention != 7 || e.RetentionUnit != designer.Year || e.RetentionFrom != designer.FromTeam ||
		e.Growth == nil || *e.Growth != 300 || e.GrowthUnit != designer.Day || e.GrowthFrom != designer.FromTeam {
		t.Fatalf("scale = %v %q %q, %v %q %q", e.Retention, e.RetentionUnit, e.RetentionFrom, e.Growth, e.GrowthUnit, e.GrowthFrom)
	}
	for _, bad := range []struct{ field, value, want string }{
		{"retention", "forever", `"forever" is not a retention`},
		{"retention", "5000 years", `"5000 years" is not a retention`},
		{"retention", "-7 years", `"-7 years" is not a retention`},
		{"growth", "-5 per day", `"-5 per day" is negative`},
		{"growth", "NaN per day", `"NaN per day" is not a growth`},
	} {
		a.saveRefused(c.EditToken, "/entities/field", rev, "ent-0-"+bad.field, bad.want, "entity", "Appointment", "field", bad.field, "value", bad.value)
	}

	// Another page of the step gets the card, with the new figure and its source.
	if rec := a.refreshStep("/d/"+c.ViewToken+"/entities", rev-1); rec.Header().Get(fragmentsHeader) != "1" ||
		!strings.Contains(rec.Body.String(), "300 per day") || !strings.Contains(rec.Body.String(), "set by the team") {
		t.Errorf("a growth change refreshes the Entities step with %q parts", rec.Header().Get(fragmentsHeader))
	}
}

// The count of an entity's items in a state shows on its card with the line it was read from; a
// save makes it the team's, and a count that is not one is refused on its cell.
func TestEntities_inStateSavesWithItsSource(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Clinic", "entities": [{"name": "Appointment",
		"in_state": [{"state": "open", "count": 10000, "from": "read from: Application Overview, line 10"}]}]}`)
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/entities", "", nil).Body.String()
	for _, want := range []string{`<label for="ent-0-in_state">In a state</label>`, `value="10000 open"`, "read from: Application Overview, line 10"} {
		if !strings.Contains(page, want) {
			t.Errorf("the entity card lacks %q", want)
		}
	}
	rec := a.hx("/d/"+c.EditToken+"/entities/field", "entity", "Appointment", "field", "in_state", "value", "12,000 open; 300 overdue")
	if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, `value="12000 open, 300 overdue"`) || !strings.Contains(body, "set by the team") {
		t.Fatalf("save: %d %s", rec.Code, body)
	}
	d, rev := a.design(c.EditToken)
	if got := d.Entities[0].InState; len(got) != 2 || got[0].Count != 12000 || got[1].State != "overdue" || got[0].From != designer.FromTeam {
		t.Fatalf("in state = %+v", got)
	}
	a.saveRefused(c.EditToken, "/entities/field", rev, "ent-0-in_state", `whose count is not a whole number`,
		"entity", "Appointment", "field", "in_state", "value", "-3 open")
}
