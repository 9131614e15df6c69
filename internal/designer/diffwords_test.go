package designer_test

import (
	"testing"

	"dynaloom/internal/designer"
)

func TestFieldWords_namesFieldsAsThePageDoes(t *testing.T) {
	t.Parallel()
	for field, want := range map[string]string{
		"mapping.operations[0].values.:c":      "operation 1, value :c",
		"mapping.operations[1].key_condition":  "operation 2, key condition",
		"mapping.operations[0].names.#s":       "operation 1, name #s",
		"mapping.notes":                        "notes",
		"projection.type":                      "projection type",
		"peak_rps":                             "peak RPS",
		"attributes[2].type":                   "attribute 3, type",
		"partition_key[0].name":                "partition key attribute 1, name",
		"mapping.operations[0].expected[1].pk": "operation 1, expected item 2, pk",
		"order":                                "order",
	} {
		if got := designer.FieldWords(field); got != want {
			t.Errorf("FieldWords(%q) = %q, want %q", field, got, want)
		}
	}
}
