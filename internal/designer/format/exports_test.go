package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestWriteDated_otherFormatsKeepTheirBytes(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 3, 5, 9, 7, 0, 0, time.UTC)
	modified := time.Date(2026, 11, 21, 16, 45, 0, 0, time.UTC)
	dj, err := FindExportFormat("design-json")
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := dj.WriteDated(designertest.HRDesign(t), created, modified); bytes.Contains(out, []byte("DateCreated")) {
		t.Error("design-json gained Workbench dates")
	}
	wb, err := FindExportFormat("workbench-json")
	if err != nil {
		t.Fatal(err)
	}
	out, err := wb.WriteDated(designertest.OrdersDesign(), created, modified)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("Mar 05, 2026, 09:07 AM")) {
		t.Errorf("workbench-json lacks the stored design's creation date:\n%.400s", out)
	}
}

// FuzzExportTables checks that neither table export panics on any design ParseJSON accepts, and
// that each gives JSON or a *ValidationError.
func FuzzExportTables(f *testing.F) {
	// Small seeds: the fuzzer's mutator all but stops on a seed the size of the HR example.
	compact, err := designer.MarshalCompactJSON(designertest.OrdersDesign())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(compact)
	f.Add([]byte(`{"tables":[{"name":"Tab","partition_key":{"name":"id"},"lsis":[{"name":"Lsi","sort_key":[{"name":"x"}]}]}],` +
		`"access_patterns":[{"number":1,"mapping":{"operations":[{"op":"BatchGetItem","table":"Tab","key_condition":"id IN (:a)","values":{":a":{"S":"1"}}}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := designer.ParseJSON(data)
		if err != nil {
			return
		}
		for _, name := range []string{"cloudformation-json", "mcp-model-json"} {
			ef, err := FindExportFormat(name)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ef.Write(d)
			var ve *designer.ValidationError
			switch {
			case err != nil && !errors.As(err, &ve):
				t.Fatalf("%s: error %v is not a *ValidationError", name, err)
			case err == nil && !json.Valid(out):
				t.Fatalf("%s: not JSON:\n%s", name, out)
			}
		}
	})
}
