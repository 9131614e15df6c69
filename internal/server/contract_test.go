package server

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"dynaloom/internal/designer/format"
)

// docs/contract.md is the outside contract: every API route the server answers, and every export
// format, is in it, written as the page writes paths ({token} for :token).
func TestContractDoc_namesEveryAPIRouteAndFormat(t *testing.T) {
	raw, err := os.ReadFile("../../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	a := newTestApp(t)
	param := regexp.MustCompile(`:([a-z]+)`)
	seen := map[string]bool{}
	for _, r := range a.srv.echo.Routes() {
		if !strings.HasPrefix(r.Path, "/api/") && r.Path != "/healthz" || strings.HasPrefix(r.Method, "echo_") {
			continue
		}
		path := param.ReplaceAllString(r.Path, "{$1}")
		if seen[r.Method+path] {
			continue
		}
		seen[r.Method+path] = true
		if !strings.Contains(doc, "`"+r.Method+" "+path+"`") {
			t.Errorf("docs/contract.md lacks `%s %s`", r.Method, path)
		}
	}
	if len(seen) < 10 {
		t.Fatalf("only %d API routes found; the walk reads the wrong routes", len(seen))
	}
	for _, f := range format.ExportFormats() {
		if !strings.Contains(doc, "| `"+f.ID+"` | `"+f.Filename+"` |") {
			t.Errorf("docs/contract.md lacks the export format %s (%s)", f.ID, f.Filename)
		}
	}
}
