package server

import (
	"encoding/json"
	"math"
	"net/http"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
)

// getCapacity reads /capacity with token, failing the test on anything but 200.
func (a *testApp) getCapacity(token string) capacityResponse {
	a.t.Helper()
	rec := a.request(http.MethodGet, "/api/designs/"+token+"/capacity", "", nil)
	var got capacityResponse
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &got) != nil {
		a.t.Fatalf("capacity: %d %s", rec.Code, rec.Body)
	}
	return got
}

func sameFigure(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

// The capacity answer follows the design revision by revision: it lists every pattern, table,
// index and partition key; raising a pattern's peak RPS raises its peak units in proportion and
// says the rate is the design's; a price the team sets shows with "design" as its source and
// scales what it prices.
func TestAPICapacity_followsTheDesignRevisionByRevision(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	var d designer.Design
	if rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken, "", nil); rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &d) != nil {
		t.Fatalf("design: %d", rec.Code)
	}
	before := a.getCapacity(c.ViewToken)
	if before.Revision != 1 {
		t.Errorf("revision %d, want 1", before.Revision)
	}
	if len(before.Patterns) != len(d.Patterns) {
		t.Errorf("%d patterns, the design has %d", len(before.Patterns), len(d.Patterns))
	}
	resources, keys := 0, 0
	for _, tb := range d.Tables {
		resources += 1 + len(tb.GSIs) + len(tb.LSIs)
		keys += 1 + len(tb.GSIs)
	}
	if len(before.Resources) != resources || len(before.PartitionKeys) != keys {
		t.Errorf("%d resources and %d partition keys, want %d and %d (a table and each index; a table's and each GSI's key)",
			len(before.Resources), len(before.PartitionKeys), resources, keys)
	}
	for _, k := range before.PartitionKeys {
		if k.Cardinality.Source == "" || k.ReadLimit != capacity.PartitionReadLimit || k.WriteLimit != capacity.PartitionWriteLimit || k.Status == "" {
			t.Errorf("partition key %s/%s %s: no source of its values, limits or status: %+v", k.Table, k.Index, k.Attribute, k)
		}
	}
	if p := before.Prices.ReadRequest; before.Prices.Region != "us-east-1" || p.Dollars != 0.125 || p.Source == "" || p.AsOf == "" {
		t.Errorf("default prices: %+v", before.Prices)
	}
	if before.Settings.TargetUtilizationFrom != capacity.FromDefault {
		t.Errorf("settings: %+v", before.Settings)
	}

	p := before.Patterns[0]
	body := `{"kind": "set_pattern_field", "change": {"id": "` + p.ID + `", "field": "peak_rps", "value": "` +
		capacity.Figure(2*p.PeakRPS) + `"}}`
	if rec := a.postChange(c.EditToken, body); rec.Code != http.StatusOK {
		t.Fatalf("%s: %d %s", body, rec.Code, rec.Body)
	}
	after := a.getCapacity(c.ViewToken)
	q := after.Patterns[0]
	if after.Revision != 2 || q.ID != p.ID || !sameFigure(q.PeakRPS, 2*p.PeakRPS) || q.PeakFrom != capacity.FromDesign {
		t.Errorf("after doubling pattern %d's peak RPS: revision %d, peak %v RPS from %q; want 2, %v from %q",
			p.Number, after.Revision, q.PeakRPS, q.PeakFrom, 2*p.PeakRPS, capacity.FromDesign)
	}
	if !sameFigure(q.Peak.RCU, 2*p.Peak.RCU) || !sameFigure(q.Peak.WCU, 2*p.Peak.WCU) {
		t.Errorf("pattern %d's peak units went from %+v to %+v; want them doubled", p.Number, p.Peak, q.Peak)
	}

	if rec := a.postChange(c.EditToken, `{"kind": "set_capacity_field", "change": {"field": "read_request_price", "value": "$0.25"}}`); rec.Code != http.StatusOK {
		t.Fatalf("set price: %d %s", rec.Code, rec.Body)
	}
	priced := a.getCapacity(c.ViewToken)
	if rp := priced.Prices.ReadRequest; rp.Dollars != 0.25 || rp.Source != capacity.DesignSource {
		t.Errorf("read request price after setting it: %+v", rp)
	}
	if !sameFigure(priced.Total.OnDemand.Reads, 2*after.Total.OnDemand.Reads) {
		t.Errorf("on-demand reads cost %v a month at $0.25 per million RRU, %v at $0.125; want twice", priced.Total.OnDemand.Reads, after.Total.OnDemand.Reads)
	}
	// The answer is the report of the revision, the same object the CLI prints.
	var now designer.Design
	if rec := a.request(http.MethodGet, "/api/designs/"+c.ViewToken, "", nil); json.Unmarshal(rec.Body.Bytes(), &now) != nil {
		t.Fatal("design")
	}
	want, _ := json.Marshal(capacity.NewDocument(now, capacity.Compute(now, nil)))
	got, _ := json.Marshal(priced.Document)
	if string(want) != string(got) {
		t.Errorf("the API's report differs from capacity.Compute's of the same design:\napi:     %.400s\ncompute: %.400s", got, want)
	}

	if rec := a.request(http.MethodGet, "/api/designs/NOSUCHTOKEN0000000000000000/capacity", "", nil); rec.Code != http.StatusNotFound {
		t.Errorf("unknown token: %d, want 404", rec.Code)
	}
}
