// Package mermaid_test checks the Mermaid diagrams the markdown exports write (?diagrams=mermaid,
// --diagrams mermaid) with Mermaid itself, the library GitHub draws them with: each block is parsed
// and drawn by mermaid.min.js in headless Chromium, and the drawing is read back for the names and
// key templates it must show as written.
package mermaid_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
)

const script = "node_modules/mermaid/dist/mermaid.min.js"

// page loads Mermaid and offers draw(text), which parses text and draws it, answering the drawing's
// text or the error Mermaid gives.
const page = `<!doctype html><html><head><meta charset="utf-8"><script src="/mermaid.min.js"></script></head><body>
<script>
mermaid.initialize({startOnLoad: false, securityLevel: "strict"});
let n = 0;
async function draw(text) {
  try {
    await mermaid.parse(text);
    const {svg} = await mermaid.render("d" + (++n), text);
    const box = document.createElement("div");
    box.innerHTML = svg;
    box.querySelectorAll("style").forEach(s => s.remove());
    return JSON.stringify({text: box.textContent, svg: svg.length});
  } catch (e) {
    return JSON.stringify({error: String(e && e.message || e)});
  }
}
</script></body></html>`

// requireMermaid finds Chromium and Mermaid's script, or stops the test: it fails under CI, which
// requires both, and elsewhere skips saying what is missing.
func requireMermaid(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped under -short, the quick tier; go test without -short (as CI does) runs it")
	}
	missing := ""
	if _, err := os.Stat(script); err != nil {
		missing = "Mermaid is not installed: run npm ci --prefix test/mermaid"
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil && missing == "" {
		missing = "Chromium is not installed: apt-get install chromium"
	}
	if missing != "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI requires it: " + missing)
		}
		t.Skip("Mermaid check skipped: " + missing)
	}
	return chromium
}

func TestMermaidDrawsTheExportedDiagrams(t *testing.T) {
	chromium := requireMermaid(t)
	js, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mermaid.min.js" {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(js)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	t.Cleanup(cancel)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.UserDataDir(t.TempDir()))...)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(cancelTab)
	if _, err := chromedp.Run(tab, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}

	designs := map[string]designer.Design{"awkward names": awkward()}
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		designs[ex.ID] = d
	}
	for name, d := range designs {
		for _, id := range []string{"requirements-md", "data-model-md"} {
			f, err := format.FindExportFormat(id)
			if err != nil {
				t.Fatal(err)
			}
			out, err := f.WriteWith(d, time.Time{}, time.Time{}, format.Options{Diagrams: "mermaid"})
			if err != nil {
				t.Fatal(err)
			}
			blocks := mermaidBlocks(string(out))
			if len(blocks) != 1 {
				t.Fatalf("%s %s: %d Mermaid blocks, want 1", name, id, len(blocks))
			}
			arg, _ := json.Marshal(blocks[0])
			raw, err := chromedp.Run(tab, chromedp.Evaluate[string](`draw(`+string(arg)+`)`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Text, Error string
				SVG         int
			}
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				t.Fatal(err)
			}
			if got.Error != "" || got.SVG == 0 {
				t.Errorf("%s %s: Mermaid cannot draw it: %s\n%s", name, id, got.Error, blocks[0])
				continue
			}
			for _, want := range shown(d, id) {
				if !strings.Contains(got.Text, want) {
					t.Errorf("%s %s: the drawing does not show %q in %q", name, id, want, got.Text)
				}
			}
		}
	}
}

// shown is text the drawing of d's diagram in document id must show as the design writes it.
func shown(d designer.Design, id string) []string {
	var out []string
	if id == "requirements-md" {
		for _, e := range d.Entities {
			out = append(out, e.Name)
		}
		return out
	}
	for _, t := range d.Tables {
		out = append(out, t.Name)
		for _, et := range t.EntityTypes {
			out = append(out, et.PKTemplate, et.SKTemplate)
		}
		for _, ix := range t.GSIs {
			out = append(out, ix.Name)
		}
	}
	return out
}

// mermaidBlocks returns the text of each ```mermaid block of a document.
func mermaidBlocks(doc string) []string {
	var out []string
	var cur []string
	in := false
	for _, l := range strings.Split(doc, "\n") {
		switch {
		case !in && l == "```mermaid":
			in, cur = true, nil
		case in && l == "```":
			in = false
			out = append(out, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, l)
		}
	}
	return out
}

// awkward is a small design whose names hold what Mermaid and HTML read as markup.
func awkward() designer.Design {
	rps := 12.5
	d := designer.Design{Name: "Awkward", Entities: []designer.Entity{
		{Name: "Order Line", Attributes: []designer.Attribute{{Name: "order id", Type: "S"}, {Name: "2nd-try", Type: "N"}}},
		{Name: `Say "hi" 100%`, Attributes: []designer.Attribute{{Name: "x", Type: "S"}}},
		{Name: "<b>Bold</b>", Attributes: []designer.Attribute{{Name: "y", Type: "S"}}},
		{Name: "Line_item_x", Attributes: []designer.Attribute{{Name: "z_z", Type: "S"}}},
	}, Relationships: []designer.Relationship{
		{ID: "r1", From: "Order Line", To: `Say "hi" 100%`, Kind: designer.OneToMany},
		{ID: "r2", From: "<b>Bold</b>", To: "Order Line", Kind: designer.ManyToMany},
	}, Tables: []designer.Table{{
		Name: "Orders-2024", PartitionKey: designer.KeyAttribute{Name: "PK", Type: "S"},
		SortKey:     &designer.KeyAttribute{Name: "SK", Type: "S"},
		EntityTypes: []designer.EntityType{{Entity: "Order Line", PKTemplate: "ORDER#<order_id>", SKTemplate: `LINE#<n>&"x"`}},
		BillingMode: "on-demand",
		GSIs: []designer.Index{{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: "S"}},
			Projection: designer.Projection{Type: designer.KeysOnly}, Sparse: true}},
	}}, Patterns: []designer.Pattern{{ID: "p1", Number: 1, Description: `Find <script>alert(1)</script> "lines" #1`, Type: designer.Read, PeakRPS: &rps,
		Mapping: designer.Mapping{Operations: []designer.Operation{{Op: "Query", Table: "Orders-2024", Index: "ByStatus"}}}}},
	}
	return designer.Normalize(d)
}
