package dynamo

import (
	"maps"
	"testing"
)

func TestAliasReserved_reservedAttributeNamesGetPlaceholders(t *testing.T) {
	cases := []struct {
		expr   string
		names  map[string]string
		update bool
		want   string
		added  map[string]string
	}{
		{"status = :status AND begins_with(day, :d)", nil, false,
			"#status = :status AND begins_with(#day, :d)", map[string]string{"#status": "status", "#day": "day"}},
		{"customer_id = :c", nil, false, "customer_id = :c", nil},
		{"size(#n) > :min AND attribute_exists(name)", map[string]string{"#n": "tags"}, false,
			"size(#n) > :min AND attribute_exists(#name)", map[string]string{"#n": "tags", "#name": "name"}},
		{"address.city, parts[0].name", nil, false, "address.city, parts[0].#name", map[string]string{"#name": "name"}},
		{"status = :s", map[string]string{"#status": "state"}, false,
			"#status_2 = :s", map[string]string{"#status": "state", "#status_2": "status"}},
		{"status = :s", map[string]string{"#st": "status"}, false, "#st = :s", map[string]string{"#st": "status"}},
		{"SET status = :s, amount = amount + :one REMOVE comment", nil, true,
			"SET #status = :s, amount = amount + :one REMOVE #comment", map[string]string{"#status": "status", "#comment": "comment"}},
		{"SET a = :a REMOVE set", nil, true, "SET a = :a REMOVE #set", map[string]string{"#set": "set"}},
		{"status = = ~", nil, false, "status = = ~", nil},
	}
	for _, c := range cases {
		got, names := AliasReserved(c.expr, c.names, c.update)
		if got != c.want || !maps.Equal(names, c.added) {
			t.Errorf("AliasReserved(%q) = %q, %v; want %q, %v", c.expr, got, names, c.want, c.added)
		}
	}
}

func TestAliasReserved_leavesTheCallersNamesAlone(t *testing.T) {
	names := map[string]string{"#a": "a"}
	AliasReserved("status = :s", names, false)
	if len(names) != 1 {
		t.Fatalf("the caller's names changed: %v", names)
	}
}

func TestPlaceholderAttribute(t *testing.T) {
	cases := []struct{ expr, ph, want string }{
		{"owner_id = :owner_id AND pet_id = :p", ":p", "pet_id"},
		{":p <= created_at", ":p", "created_at"},
		{"pk = :pk AND begins_with(#sk, :prefix)", ":prefix", "sk"},
		{"pk = :pk AND day BETWEEN :from AND :to", ":to", "day"},
		{"pk = :pk AND day BETWEEN :from AND :to", ":from", "day"},
		{"SET total = :t", ":t", "total"},
		{"address.city = :c", ":c", ""},
		{"contains(tags, :t)", ":t", ""},
	}
	for _, c := range cases {
		if got := PlaceholderAttribute(c.expr, c.ph, map[string]string{"#sk": "sk"}); got != c.want {
			t.Errorf("PlaceholderAttribute(%q, %s) = %q, want %q", c.expr, c.ph, got, c.want)
		}
	}
	if got := ValuePlaceholders("a = :x AND b BETWEEN :y AND :x"); len(got) != 2 || got[0] != ":x" || got[1] != ":y" {
		t.Errorf("ValuePlaceholders = %v", got)
	}
}
