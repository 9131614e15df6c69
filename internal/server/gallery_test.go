package server

import (
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// The home page's gallery shows each example's model map as an image of an SVG file served once
// drawn, kept by the browser for good (its address carries its content hash), named for a screen
// reader; an unknown example has none.
func TestGallery_thumbnailsAreTheExamplesModelMaps(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	home := a.request(http.MethodGet, "/", "", nil).Body.String()
	for _, ex := range designer.Examples() {
		m := regexp.MustCompile(`<img src="(/examples/` + ex.ID + `/model-map\.svg\?v=[0-9a-f]{12})" alt="([^"]*)"`).FindStringSubmatch(home)
		if m == nil {
			t.Errorf("the gallery has no thumbnail for %s", ex.ID)
			continue
		}
		if want := "Model map of " + ex.Title; html.UnescapeString(m[2]) != want {
			t.Errorf("%s thumbnail alt = %q, want %q", ex.ID, m[2], want)
		}
		res := a.request(http.MethodGet, html.UnescapeString(m[1]), "", nil)
		body := res.Body.String()
		if res.Code != http.StatusOK || res.Header().Get("Content-Type") != "image/svg+xml" {
			t.Fatalf("%s thumbnail: %d %s", ex.ID, res.Code, res.Header().Get("Content-Type"))
		}
		if got := res.Header().Get("Cache-Control"); !strings.Contains(got, "immutable") {
			t.Errorf("%s thumbnail Cache-Control = %q, want it kept for good", ex.ID, got)
		}
		if !strings.HasPrefix(body, `<?xml`) || !strings.Contains(body, `<svg xmlns="http://www.w3.org/2000/svg"`) ||
			!strings.Contains(body, "<title>Model map of "+html.EscapeString(ex.Title)+"</title>") {
			t.Errorf("%s thumbnail is not the model map as an SVG file: %.200s", ex.ID, body)
		}
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range d.Tables {
			if !strings.Contains(body, ">Table "+tb.Name+"<") {
				t.Errorf("%s thumbnail does not draw table %s", ex.ID, tb.Name)
			}
		}
		if strings.Contains(body, "<a ") {
			t.Errorf("%s thumbnail has links; an image cannot follow them", ex.ID)
		}
	}
	for _, path := range []string{"/examples/nope/model-map.svg", "/examples/../model-map.svg", "/examples/hr-employees/entity-diagram.svg"} {
		if res := a.request(http.MethodGet, path, "", nil); res.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, res.Code)
		}
	}
}
