package server

import (
	"net/http"
	"strings"
	"testing"
)

// An export that cannot hold all of the design says what it left out in the Dynaloom-Left-Out
// header, and the Export step lists it under the format; design-json, which holds everything,
// sends no such header.
func TestExportAPI_saysWhatItLeavesOut(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	base := "/api/designs/" + c.ViewToken + "/export/"
	for _, f := range []string{"terraform", "cloudformation-yaml", "cdk-ts"} {
		rec := a.request(http.MethodGet, base+f, "", nil)
		left := rec.Header().Get("Dynaloom-Left-Out")
		if rec.Code != http.StatusOK || !strings.Contains(left, "sample items") || !strings.Contains(left, "access patterns") {
			t.Errorf("%s: %d, Dynaloom-Left-Out %q; want the sample items and access patterns named", f, rec.Code, left)
		}
	}
	if rec := a.request(http.MethodGet, base+"design-json", "", nil); rec.Header().Get("Dynaloom-Left-Out") != "" {
		t.Errorf("design-json leaves out %q", rec.Header().Get("Dynaloom-Left-Out"))
	}
	yaml := a.request(http.MethodGet, base+"cloudformation-yaml", "", nil).Body.String()
	if !strings.HasPrefix(yaml, "# Left out of this template") || !strings.Contains(yaml, "#   - ") {
		t.Errorf("the YAML does not open with what it leaves out:\n%.300s", yaml)
	}
	page := a.request(http.MethodGet, "/d/"+c.EditToken+"/export", "", nil).Body.String()
	i := strings.Index(page, `data-testid="export-terraform"`)
	if i < 0 || !strings.Contains(page[i:], `data-testid="left-out"`) || !strings.Contains(page[i:], "sample items") {
		t.Error("the Export step does not list what the Terraform export leaves out")
	}
}
