package server

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// One classifier decides every status: a refused change or undo shown where it was made is 422
// (htmx swaps it in), the same refusal on the error page or through the API is classify's 400 or
// 409, and an error that is not a refusal is never shown on a field.
func TestRefusal_422WhereShownClassify400Elsewhere(t *testing.T) {
	t.Parallel()
	invalid := fmt.Errorf("save: %w", designer.Invalid("peak_rps", "%q is not a number.", "abc"))
	undo := &storage.UndoError{Code: "undo_conflict", Message: "Your change of revision 2 was not undone."}
	for _, tc := range []struct {
		name              string
		err               error
		shown             bool
		status, elsewhere int
		message           string
	}{
		{"refused change", invalid, true, http.StatusUnprocessableEntity, http.StatusBadRequest, `Not saved: "abc" is not a number.`},
		{"refused undo", undo, true, http.StatusUnprocessableEntity, http.StatusConflict, undo.Message},
		{"bad input", badInput("index: %q is not a whole number", "x"), false, 0, http.StatusBadRequest, ""},
		{"edit conflict", &storage.ConflictError{Revision: 3, Author: "Bo", Head: 4}, false, 0, http.StatusConflict, ""},
		{"storage full", fmt.Errorf("write: %w", storage.ErrFull), false, 0, http.StatusInsufficientStorage, ""},
	} {
		r, shown := refusal(tc.err)
		if shown != tc.shown {
			t.Errorf("%s: shown where made = %v, want %v", tc.name, shown, tc.shown)
			continue
		}
		if shown && (r.Status != tc.status || r.Message != tc.message || !errors.Is(r.err, tc.err)) {
			t.Errorf("%s: refusal %d %q, want %d %q", tc.name, r.Status, r.Message, tc.status, tc.message)
		}
		if got := classify(tc.err).Status; got != tc.elsewhere {
			t.Errorf("%s: classify says %d, want %d", tc.name, got, tc.elsewhere)
		}
	}
}
