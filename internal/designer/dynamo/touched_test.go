package dynamo

import (
	"reflect"
	"testing"

	"dynaloom/internal/designer"
)

func TestUpdateTouches(t *testing.T) {
	tests := []struct {
		update           string
		names            map[string]string
		written, removed []string
		ok               bool
	}{
		{update: "SET status = :s, REMOVE open_clinic_id", ok: false},
		{update: "SET status = :s REMOVE open_clinic_id", written: []string{"status"}, removed: []string{"open_clinic_id"}, ok: true},
		{update: "SET #v = :v, notes.last = :n ADD visits :one DELETE tags :t", names: map[string]string{"#v": "vet_id"},
			written: []string{"vet_id", "notes", "visits", "tags"}, ok: true},
		{update: "REMOVE notes[0], flag", written: []string{"notes"}, removed: []string{"flag"}, ok: true},
		{update: "SET a = a +", ok: false},
	}
	for _, tt := range tests {
		u, ok := UpdateTouches(designer.Operation{Op: "UpdateItem", Update: tt.update, Names: tt.names})
		if ok != tt.ok || !reflect.DeepEqual(u.Written, tt.written) || !reflect.DeepEqual(u.Removed, tt.removed) {
			t.Errorf("%q: %+v %v, want written %v removed %v %v", tt.update, u, ok, tt.written, tt.removed, tt.ok)
		}
	}
}
