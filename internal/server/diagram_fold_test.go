package server

import (
	"net/http"
	"strings"
	"testing"

	"dynaloom/internal/designer/designertest"
)

// The Tables step of 50 tables and 500 patterns folds its model map: the page offers to draw it
// instead of carrying its 1,150 boxes and lines, and following the offer draws it, with the
// address saying so; a small design's map is drawn at once.
func TestTablesStep_aHugeModelMapIsDrawnWhenAskedFor(t *testing.T) {
	a := newTestAppWith(t, Options{BodyLimit: 64 << 20})
	c, _ := a.createLarge(designertest.Size{Tables: 50, Items: 100, GSIs: 100, Patterns: 500})
	doc := parseHTML(t, a.request(http.MethodGet, "/d/"+c.EditToken+"/tables", "", nil).Body.String())
	var open string
	for _, n := range elements(doc, "a", "svg") {
		if attr(n, "data-diagram") == "model_map" {
			t.Fatal("the folded model map is drawn")
		}
		if attr(n, "data-testid") == "model-map-open" {
			open = attr(n, "href")
		}
	}
	if !strings.Contains(open, drawParam+"=drawn") {
		t.Fatalf("no link draws the folded model map (%q)", open)
	}
	drawn := a.request(http.MethodGet, strings.Split(open, "#")[0], "", nil).Body.String()
	if !strings.Contains(drawn, `<svg xmlns="http://www.w3.org/2000/svg" class="diagram-svg"`) || strings.Contains(drawn, `data-testid="model-map-open"`) {
		t.Fatal("following the link does not draw the model map")
	}

	small := a.createJSON(`{"example": "hr-employees"}`)
	if page := a.request(http.MethodGet, "/d/"+small.EditToken+"/tables", "", nil).Body.String(); !strings.Contains(page, `class="diagram-svg"`) {
		t.Fatal("a small design's model map is folded")
	}
}
