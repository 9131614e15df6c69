package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/server"
	"dynaloom/internal/storage"
)

// The month a team decides on reads the same wherever it looks: the Capacity step, the cost chart
// on it, GET /capacity, `dynaloom cost` (text and JSON) and the data-model export's Cost Report,
// on a design with every input of the cost model set through the API: a Standard-IA table, two
// replica regions, a reserved term and failed conditions on a write.
func TestSameMonthEverywhere(t *testing.T) {
	store, err := storage.Open(t.Context(), filepath.Join(t.TempDir(), "same.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	srv := server.New(store, slog.New(slog.NewTextHandler(io.Discard, nil)), server.Options{CreateLimit: server.NoLimit, WriteLimit: server.NoLimit})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	call := func(method, path, body string) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", ts.URL)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, out)
		}
		return out
	}
	var created struct{ EditToken, ViewToken string }
	if err := json.Unmarshal(call("POST", "/api/designs", `{"example": "hr-employees"}`), &struct {
		EditToken *string `json:"edit_token"`
		ViewToken *string `json:"view_token"`
	}{&created.EditToken, &created.ViewToken}); err != nil {
		t.Fatal(err)
	}
	var d struct {
		Tables []struct {
			Name string `json:"name"`
		} `json:"tables"`
		Patterns []struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"access_patterns"`
	}
	json.Unmarshal(call("GET", "/api/designs/"+created.ViewToken, ""), &d)
	write := ""
	for _, p := range d.Patterns {
		if p.Type == "write" && write == "" {
			write = p.ID
		}
	}
	for _, change := range []string{
		`{"kind": "set_table_field", "change": {"table": "` + d.Tables[0].Name + `", "field": "table_class", "value": "Standard-IA"}}`,
		`{"kind": "set_capacity_field", "change": {"field": "replica_regions", "value": "eu-west-1, ap-south-1"}}`,
		`{"kind": "set_capacity_field", "change": {"field": "reserved_capacity", "value": "3 years"}}`,
		`{"kind": "set_pattern_field", "change": {"id": "` + write + `", "field": "conditional_failure_pct", "value": "8"}}`,
	} {
		call("POST", "/api/designs/"+created.EditToken+"/changes", change)
	}

	var doc capacity.Document
	if err := json.Unmarshal(call("GET", "/api/designs/"+created.ViewToken+"/capacity", ""), &doc); err != nil {
		t.Fatal(err)
	}
	month := fmt.Sprintf("$%.2f", doc.Total.OnDemand.Total)
	if doc.Total.OnDemand.Replication == 0 || doc.Total.Reserved == nil || doc.TableClasses[0].Class != "STANDARD_INFREQUENT_ACCESS" {
		t.Fatalf("the inputs did not reach the figures: %+v", doc.Total)
	}
	reserved := fmt.Sprintf("$%.2f", doc.Total.Reserved.Total)

	page := string(call("GET", "/d/"+created.ViewToken+"/capacity", ""))
	onDemand := regexp.MustCompile(`A month, all on demand</span>\s*<strong>([^<]+)</strong>`).FindStringSubmatch(page)
	if onDemand == nil || onDemand[1] != month {
		t.Errorf("Capacity step's on-demand month = %v, /capacity says %s", onDemand, month)
	}
	if !strings.Contains(page, reserved+" a month") {
		t.Errorf("Capacity step lacks the reserved month %s", reserved)
	}
	// The cost chart's bars add up to the same month.
	chart := 0.0
	for _, m := range regexp.MustCompile(`data-testid="chart-total">\$([0-9.,]+)<`).FindAllStringSubmatch(page, -1) {
		var v float64
		fmt.Sscanf(strings.ReplaceAll(m[1], ",", ""), "%f", &v)
		chart += v
	}
	// Each bar's total is rounded to the cent.
	if chart == 0 || abs(chart-doc.Total.OnDemand.Total) > 0.005*float64(len(doc.Resources)) {
		t.Errorf("the cost chart's bars add up to $%.2f, /capacity says %s", chart, month)
	}

	model := string(call("GET", "/api/designs/"+created.ViewToken+"/export/data-model-md", ""))
	if want := "**Total Monthly Cost: " + month + "**"; !strings.Contains(model, want) {
		t.Errorf("Cost Report lacks %q", want)
	}

	file := filepath.Join(t.TempDir(), "design.json")
	if err := os.WriteFile(file, call("GET", "/api/designs/"+created.ViewToken, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := dynaloomCLI(t)
	code, out, errOut := cli("cost", file)
	if code != 0 {
		t.Fatalf("cost: %d %s", code, errOut)
	}
	if !strings.Contains(out, month+" a month on demand") || !strings.Contains(out, "provisioned "+reserved+" a month") {
		t.Errorf("dynaloom cost does not say %s on demand and %s reserved:\n%s", month, reserved, out)
	}
	code, out, _ = cli("cost", "--format", "json", file)
	var fromCLI capacity.Document
	if code != 0 || json.Unmarshal([]byte(out), &fromCLI) != nil || fromCLI.Total.OnDemand.Total != doc.Total.OnDemand.Total {
		t.Errorf("dynaloom cost --format json total = %v, /capacity says %v", fromCLI.Total.OnDemand.Total, doc.Total.OnDemand.Total)
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
