package designer

import (
	"bytes"
	"errors"
	"testing"
)

// hrDesign returns the bundled HR example, failing the test if it does not load.
func hrDesign(tb testing.TB) Design {
	tb.Helper()
	d, err := ExampleDesign("hr-employees")
	if err != nil {
		tb.Fatalf("ExampleDesign(hr-employees): %v", err)
	}
	return d
}

func mustMarshal(tb testing.TB, d Design) []byte {
	tb.Helper()
	b, err := MarshalJSON(d)
	if err != nil {
		tb.Fatalf("MarshalJSON: %v", err)
	}
	return b
}

// wantValidationError fails unless err is a *ValidationError for field.
func wantValidationError(tb testing.TB, err error, field string) {
	tb.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		tb.Fatalf("error = %v (%T), want *ValidationError for %q", err, err, field)
	}
	if ve.Field != field {
		tb.Fatalf("ValidationError.Field = %q (%v), want %q", ve.Field, ve, field)
	}
}

// assertUnchanged fails if d no longer marshals to before.
func assertUnchanged(tb testing.TB, before []byte, d Design) {
	tb.Helper()
	if after := mustMarshal(tb, d); !bytes.Equal(before, after) {
		tb.Fatalf("Apply modified the design it was given")
	}
}
