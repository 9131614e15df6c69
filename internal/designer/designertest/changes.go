package designertest

import (
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// ChangeCase is one change applied to a base design. It must be refused when Field or Err is set:
// with a *designer.ValidationError for Field, and with an error whose message contains Err. Else it
// must be accepted, and Check (when set) judges the result.
type ChangeCase struct {
	Name   string
	Change designer.Change
	Field  string
	Err    string
	Check  func(t *testing.T, before, after designer.Design)
}

// RunChangeCases applies each case to base in a subtest and checks, besides the case's own
// expectations, that Apply left base unchanged and that an accepted change gives a valid, already
// normalized design.
func RunChangeCases(t *testing.T, base designer.Design, cases []ChangeCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			before := MustMarshal(t, base)
			// As the store makes a new edit: checked, then applied.
			err := designer.CheckChange(tt.Change, base)
			got := base
			if err == nil {
				got, err = tt.Change.Apply(base)
			}
			AssertUnchanged(t, before, base)
			if tt.Field != "" {
				WantValidationError(t, err, tt.Field)
			}
			if tt.Err != "" && (err == nil || !strings.Contains(err.Error(), tt.Err)) {
				t.Errorf("error = %v, want one containing %q", err, tt.Err)
			}
			if tt.Field != "" || tt.Err != "" {
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if err := designer.Check(got); err != nil {
				t.Fatalf("Check after Apply: %v", err)
			}
			if !reflect.DeepEqual(designer.Normalize(got), got) {
				t.Errorf("Apply left the design needing Normalize")
			}
			if tt.Check != nil {
				tt.Check(t, base, got)
			}
		})
	}
}
