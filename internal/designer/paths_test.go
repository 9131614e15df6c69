package designer_test

import (
	"testing"

	"dynaloom/internal/designer"
)

func TestPathsOverlap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b []string
		want bool
	}{
		{"same path", []string{"name"}, []string{"name"}, true},
		{"a row and one of its fields", []string{"access_patterns/ap1"}, []string{"access_patterns/ap1/description"}, true},
		{"a field and its row", []string{"access_patterns/ap1/description"}, []string{"access_patterns/ap1"}, true},
		{"two fields of one row", []string{"access_patterns/ap1/description"}, []string{"access_patterns/ap1/peak_rps"}, false},
		{"a row whose id is a prefix of another's", []string{"access_patterns/ap1"}, []string{"access_patterns/ap10"}, false},
		{"a name that is a prefix of another", []string{"overview/scale"}, []string{"overview/scale_note"}, false},
		{"the whole design and a field", []string{""}, []string{"tables/t1/name"}, true},
		{"a field and the whole design", []string{"name"}, []string{""}, true},
		{"any of several", []string{"name", "tables/t1"}, []string{"entities", "tables/t1/gsis/g1"}, true},
		{"none of several", []string{"name", "tables/t1"}, []string{"entities", "tables/t2"}, false},
		{"no paths", nil, []string{""}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := designer.PathsOverlap(tc.a, tc.b); got != tc.want {
				t.Fatalf("PathsOverlap(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
