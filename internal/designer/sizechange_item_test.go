package designer

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The size of an item row, measured without encoding/json, is what encoding/json writes for it
// (with HTML left alone, as design-json writes it), plus the separating comma.
func TestPartSize_itemIsWhatEncodingJSONWrites(t *testing.T) {
	for _, it := range []SampleItem{
		{ID: "i1", Item: Item{"pk": Str("ORDER#1"), "n": Num("12.50")}},
		{ID: "i\"2", Item: Item{"note": Str("Üñï \"quoted\" <b>&</b>\n\ttab"), "ok": Boolean(true), "gone": Null()}},
		{ID: "i3", Item: Item{"m": Map(map[string]Value{"z": Str("1"), "a": List(Num("1"), Str("x"))}), "ss": {Type: SS, SS: []string{"a", "b"}}, "b": Bin([]byte{0, 1, 0xff})}},
		{ID: "i4"},
		{ID: "i5", Item: Item{}},
	} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(it); err != nil {
			t.Fatal(err)
		}
		if got := partSize(it); got != buf.Len() {
			t.Errorf("item %s: partSize = %d, encoding/json writes %d bytes and a newline: %s", it.ID, got, buf.Len(), buf.Bytes())
		}
	}
}
