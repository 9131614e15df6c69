package designer_test

import (
	"bytes"
	"os"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// FuzzParseJSON checks that ParseJSON never panics, and that whatever it accepts survives
// MarshalJSON → ParseJSON → MarshalJSON unchanged.
func FuzzParseJSON(f *testing.F) {
	hr, err := os.ReadFile("examples/hr-employees.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range [][]byte{
		hr,
		designertest.MustMarshal(f, everyValueDesign()),
		[]byte(`{"name":"Orders"}`),
		[]byte(`{}`),
		[]byte(`null`),
		[]byte(`{"format":"dynaloom/1","name":"  spaced  ","overview":{"notes":"a\r\nb"}}`),
		[]byte(`{"tables":[{"name":"T","partition_key":{"name":"id","type":"N"},"items":[{"id":"x","item":{"id":{"N":"1e5"},"s":{"NS":["1","01.5"]},"b":{"B":null}}}]}]}`),
		[]byte(`{"access_patterns":[{"number":1,"peak_rps":-0,"mapping":{"operations":[{"op":"Query","table":"T","values":{":v":{"M":{"a":{"L":[{"NULL":true}]}}}},"expected":[]}]}}]}`),
		[]byte(`{"entities":[{"name":"A","attributes":null}],"revision":{"n":1}}`),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := designer.ParseJSON(data)
		if err != nil {
			return
		}
		first, err := designer.MarshalJSON(d)
		if err != nil {
			t.Fatalf("MarshalJSON of an accepted design: %v", err)
		}
		again, err := designer.ParseJSON(first)
		if err != nil {
			t.Fatalf("ParseJSON refused what MarshalJSON wrote: %v\n%s", err, first)
		}
		second, err := designer.MarshalJSON(again)
		if err != nil {
			t.Fatalf("MarshalJSON again: %v", err)
		}
		if !bytes.Equal(first, second) {
			t.Fatalf("round trip changed the document:\n%s", designertest.FirstDifference(first, second))
		}
	})
}
