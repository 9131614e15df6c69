package server

import (
	"net/http"
	"strings"
	"testing"
)

// ?diagrams=mermaid on the export API adds the Mermaid block to the markdown documents only; a
// wrong value, or diagrams asked of a machine format, is a 400 naming the field.
func TestExportAPI_mermaidDiagrams(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	base := "/api/designs/" + c.ViewToken + "/export/"
	for format, kind := range map[string]string{"requirements-md": "erDiagram", "data-model-md": "flowchart LR"} {
		with := a.request(http.MethodGet, base+format+"?diagrams=mermaid", "", nil)
		if with.Code != http.StatusOK || strings.Count(with.Body.String(), "```mermaid\n"+kind+"\n") != 1 {
			t.Errorf("%s?diagrams=mermaid: %d, no %s block", format, with.Code, kind)
		}
		plain := a.request(http.MethodGet, base+format, "", nil)
		if plain.Code != http.StatusOK || strings.Contains(plain.Body.String(), "mermaid") {
			t.Errorf("%s: %d, carries a diagram without being asked", format, plain.Code)
		}
	}
	for _, target := range []string{"data-model-md?diagrams=dot", "workbench-json?diagrams=mermaid"} {
		rec := a.request(http.MethodGet, base+target, "", nil)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "diagrams") {
			t.Errorf("%s: %d %s, want 400 naming diagrams", target, rec.Code, rec.Body)
		}
	}
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/export", "", nil).Body.String()
	if !strings.Contains(page, `/export/data-model-md?diagrams=mermaid"`) {
		t.Error("the Export step offers no download with Mermaid diagrams")
	}
}
