package format

import (
	"strconv"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestLeftOutHeader_asciiAndBounded(t *testing.T) {
	if got := LeftOutHeader(nil); got != "" {
		t.Errorf("nothing left out gives %q", got)
	}
	if got, want := LeftOutHeader([]string{"3 entities", "Ünïcode\nline"}), "3 entities; ?n?code?line"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	long := make([]string, 200)
	for i := range long {
		long[i] = strings.Repeat("x", 20)
	}
	got := LeftOutHeader(long)
	if len(got) > leftOutHeaderMax || !strings.HasSuffix(got, " more") {
		t.Errorf("%d bytes, ending %q", len(got), got[len(got)-20:])
	}
	// 20 bytes a line and "; " between: the lines that fit, then the count of the rest.
	kept := strings.Count(got, "x") / 20
	if !strings.HasSuffix(got, "; and "+strconv.Itoa(200-kept)+" more") {
		t.Errorf("kept %d lines but says %q", kept, got[len(got)-20:])
	}
}

// Each markdown document names the other document's part of the design and what neither holds.
func TestLeftOut_markdownDocumentsNameEachOthersPart(t *testing.T) {
	d := designertest.OrdersDesign()
	d.Comments = []designer.Comment{{}}
	req, _ := FindExportFormat("requirements-md")
	dm, _ := FindExportFormat("data-model-md")
	r, m := strings.Join(req.LeftOutOf(d), "\n"), strings.Join(dm.LeftOutOf(d), "\n")
	for _, want := range []string{"tables with their indexes", "data model document", "1 comment"} {
		if !strings.Contains(r, want) {
			t.Errorf("the requirement's list does not say %q:\n%s", want, r)
		}
	}
	for _, want := range []string{"requirement document", "1 comment"} {
		if !strings.Contains(m, want) {
			t.Errorf("the data model's list does not say %q:\n%s", want, m)
		}
	}
	if got := req.LeftOutOf(designer.Design{}); len(got) != 0 {
		t.Errorf("an empty design leaves out %q", got)
	}
}
