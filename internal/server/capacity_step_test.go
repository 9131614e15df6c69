package server

import (
	"net/http"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

func TestCapacity_stepListsEveryPatternTableAndIndexWithThePricesUsed(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	d, _ := a.design(c.EditToken)
	for _, token := range []string{c.EditToken, c.ViewToken} {
		rec := a.request(http.MethodGet, "/d/"+token+"/capacity", "", nil)
		body := rec.Body.String()
		if rec.Code != http.StatusOK {
			t.Fatalf("capacity step: %d", rec.Code)
		}
		if n := strings.Count(body, `data-testid="capacity-pattern"`); n != len(d.Patterns) {
			t.Errorf("%d pattern groups, want one per pattern (%d)", n, len(d.Patterns))
		}
		// 4 tables, 2 GSIs, and the total.
		if n := strings.Count(body, `data-testid="capacity-resource"`); n != 7 {
			t.Errorf("%d table and index rows, want 4 tables + 2 GSIs + the total", n)
		}
		for _, want := range []string{"Employee › EmployeesByDepartment", "$0.125 per million RRU", "$0.25 per GB-month",
			`data-testid="source-legend"`, `aria-current="page"`} {
			if !strings.Contains(body, want) {
				t.Errorf("the step does not show %q", want)
			}
		}
	}
	view := a.request(http.MethodGet, "/d/"+c.ViewToken+"/capacity", "", nil).Body.String()
	if strings.Contains(view, "/capacity/setting") {
		t.Error("a view link offers to change the settings")
	}
}

func TestCapacity_aSettingSavesAndAnswersWithTheFiguresItMoves(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	rec := a.hx("/d/"+c.EditToken+"/capacity/setting", "field", "storage_price", "value", "$0.30")
	body := rec.Body.String()
	if rec.Code != http.StatusOK {
		t.Fatalf("save: %d %s", rec.Code, body)
	}
	if !strings.Contains(body, `id="capset-storage_price"`) || !strings.Contains(body, `value="0.3"`) {
		t.Error("the answer is not the setting's cell with its value")
	}
	if !strings.Contains(body, `id="capacity-figures"`) || !strings.Contains(body, `hx-swap-oob="morph"`) ||
		!strings.Contains(body, "$0.3 per GB-month") || !strings.Contains(body, "set for this design") {
		t.Error("the answer does not carry the figures with the new price, out of band")
	}
	d, _ := a.design(c.EditToken)
	if d.Capacity.StoragePrice == nil || *d.Capacity.StoragePrice != 0.3 {
		t.Fatalf("stored storage price = %v", d.Capacity.StoragePrice)
	}
	if rec := a.hx("/d/"+c.EditToken+"/capacity/setting", "field", "storage_price", "value", ""); rec.Code != http.StatusOK {
		t.Fatalf("clear: %d", rec.Code)
	}
	if d, _ := a.design(c.EditToken); d.Capacity.StoragePrice != nil {
		t.Error("an empty setting did not go back to its default")
	}
}

// A team that declares zipf sees the model on the step; at write rates that put keys over a
// partition, each such key's row is followed by its write-sharding suggestion.
func TestCapacity_hotKeyModelAndShardingShowOnTheStep(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	for _, set := range [][2]string{{"hot_key_model", "zipf"}, {"hot_key_zipf_s", "1.5"}} {
		if rec := a.hx("/d/"+c.EditToken+"/capacity/setting", "field", set[0], "value", set[1]); rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", set[0], rec.Code, rec.Body)
		}
	}
	body := a.request(http.MethodGet, "/d/"+c.EditToken+"/capacity", "", nil).Body.String()
	for _, want := range []string{"Hot-key model: zipf (design), s = 1.5 (design)", "zipf s = 1.5", `<option value="zipf" selected`} {
		if !strings.Contains(body, want) {
			t.Errorf("the step does not show %q", want)
		}
	}
	if strings.Contains(body, `data-testid="capacity-shard"`) {
		t.Error("a sharding suggestion at rates no key is hot at")
	}
	d, _ := a.design(c.EditToken)
	for _, p := range d.Patterns {
		if p.Type != designer.Write {
			continue
		}
		change := `{"kind": "set_pattern_field", "change": {"id": "` + p.ID + `", "field": "peak_rps", "value": "20000"}}`
		if rec := a.postChange(c.EditToken, change, "Cookie", participantCookie+"=Ada"); rec.Code != http.StatusOK {
			t.Fatalf("peak_rps: %d %s", rec.Code, rec.Body)
		}
	}
	body = a.request(http.MethodGet, "/d/"+c.EditToken+"/capacity", "", nil).Body.String()
	for _, want := range []string{`data-testid="capacity-shard"`, "Write-shard into", "{dept_no}#{shard}, shard = hash(item id) %",
		"Query of the key becomes", "a month more at"} {
		if !strings.Contains(body, want) {
			t.Errorf("at 20,000 writes a second the step does not show %q", want)
		}
	}
}

func TestCapacity_aBadSettingIsNamedOnItsCellAndChangesNothing(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	_, rev := a.design(c.EditToken)
	for _, tc := range []struct{ field, value, want string }{
		{"target_utilization", "95", "20–90"},
		{"target_utilization", "150", "not a percentage"},
		{"hot_key_skew", "0.5", "factor from 1 to 1,000,000"},
		{"hot_key_skew", "1e308", "factor from 1 to 1,000,000"},
		{"hot_key_share", "150", "not a share from 0 to 100"},
		{"hot_key_zipf_s", "11", "not a zipf exponent s from 0 to 10"},
		{"read_request_price", "-1", "not a price"},
		{"write_unit_hour_price", "cheap", "not a price"},
	} {
		rec := a.hx("/d/"+c.EditToken+"/capacity/setting", "field", tc.field, "value", tc.value)
		body := rec.Body.String()
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="cell-error"`) || !strings.Contains(body, tc.want) {
			t.Errorf("%s = %q: %d %s", tc.field, tc.value, rec.Code, body[:min(400, len(body))])
		}
		if !strings.Contains(body, `value="`+tc.value+`"`) {
			t.Errorf("%s: the refused value is not kept in its cell to correct", tc.field)
		}
		if strings.Contains(body, `id="capacity-figures"`) {
			t.Errorf("%s: a refusal redraws the figures", tc.field)
		}
	}
	if rec := a.hx("/d/"+c.EditToken+"/capacity/setting", "field", "colour", "value", "blue"); rec.Code < 400 || !strings.Contains(rec.Body.String(), "colour") {
		t.Errorf("an unknown setting: %d %s", rec.Code, rec.Body)
	}
	if d, now := a.design(c.EditToken); now != rev || d.Capacity.TargetUtilization != nil {
		t.Errorf("refused settings changed the design: revision %d, want %d", now, rev)
	}
	if rec := a.hx("/d/"+c.ViewToken+"/capacity/setting", "field", "storage_price", "value", "1"); rec.Code != http.StatusForbidden {
		t.Errorf("a view link saved a setting: %d", rec.Code)
	}
}

func TestEntities_expectedItemsCellSavesTheCount(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/entities", "", nil).Body.String()
	if !strings.Contains(page, `id="ent-0-count"`) || !strings.Contains(page, "Expected items") {
		t.Fatal("the entity card has no expected items cell")
	}
	rec := a.hx("/d/"+c.EditToken+"/entities/field", "entity", "Employee", "field", "count", "value", "300,000")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `id="ent-0-count"`) {
		t.Fatalf("save: %d %s", rec.Code, rec.Body)
	}
	d, rev := a.design(c.EditToken)
	if d.Entities[0].Count == nil || *d.Entities[0].Count != 300000 {
		t.Fatalf("count = %v, want 300000", d.Entities[0].Count)
	}
	bad := a.hx("/d/"+c.EditToken+"/entities/field", "entity", "Employee", "field", "count", "value", "lots")
	if bad.Code != http.StatusUnprocessableEntity || !strings.Contains(bad.Body.String(), `data-testid="cell-error"`) {
		t.Fatalf("a count that is no number: %d %s", bad.Code, bad.Body)
	}
	if d, now := a.design(c.EditToken); now != rev || *d.Entities[0].Count != 300000 {
		t.Error("a refused count changed the design")
	}
	// Another page of the Entities step gets the card, not the whole step.
	if rec := a.refreshStep("/d/"+c.ViewToken+"/entities", rev-1); rec.Header().Get(fragmentsHeader) != "1" ||
		!strings.Contains(rec.Body.String(), `id="ent-0-count"`) {
		t.Errorf("a count change refreshes the Entities step with %q parts", rec.Header().Get(fragmentsHeader))
	}
}

// Any change may move any figure: a page of the step is drawn whole, and a settings change costs
// the other steps only their side panel.
func TestCapacity_refreshesWholeAndSettingsAreUnseenElsewhere(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	d, rev := a.design(c.EditToken)
	a.hx("/d/"+c.EditToken+"/patterns/field", "id", d.Patterns[0].ID, "field", "peak_rps", "value", "900")
	rec := a.refreshStep("/d/"+c.ViewToken+"/capacity", rev)
	if rec.Header().Get(fragmentsHeader) != "" || !strings.Contains(rec.Body.String(), `id="capacity-figures"`) {
		t.Errorf("a pattern's rate refreshed the Capacity step with parts %q", rec.Header().Get(fragmentsHeader))
	}
	a.hx("/d/"+c.EditToken+"/capacity/setting", "field", "region", "value", "eu-west-1")
	for _, step := range []string{"", "/entities", "/patterns", "/tables", "/mapping", "/aggregates"} {
		rec := a.refreshStep("/d/"+c.ViewToken+step, rev+1)
		if rec.Header().Get(fragmentsHeader) != "0" {
			t.Errorf("step %q: a capacity setting refreshed %q parts, want only the side panel", step, rec.Header().Get(fragmentsHeader))
		}
	}
}
