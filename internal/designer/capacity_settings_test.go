package designer

import (
	"errors"
	"strings"
	"testing"
)

func TestParseJSON_capacitySettingsAndEntityCountRoundTrip(t *testing.T) {
	in := `{"name": "Shop", "entities": [{"name": "Order", "count": 40000}],
		"capacity": {"region": "eu-west-1", "read_request_price": 0.1425, "target_utilization": 50, "hot_key_skew": 3}}`
	d, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c := d.Entities[0].Count; c == nil || *c != 40000 {
		t.Fatalf("entity count = %v, want 40000", c)
	}
	if d.Capacity.Region != "eu-west-1" || *d.Capacity.ReadRequestPrice != 0.1425 || *d.Capacity.TargetUtilization != 50 || *d.Capacity.HotKeySkew != 3 {
		t.Fatalf("capacity = %+v", d.Capacity)
	}
	out, err := MarshalJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"count": 40000`, `"region": "eu-west-1"`, `"read_request_price": 0.1425`, `"hot_key_skew": 3`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("written design lacks %s", want)
		}
	}
	if strings.Contains(string(out), "write_request_price") {
		t.Error("an unset price is written")
	}
}

func TestMarshalJSON_noCapacitySettingsOmitsTheMember(t *testing.T) {
	d, err := New("Plain")
	if err != nil {
		t.Fatal(err)
	}
	out, err := MarshalJSON(d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), `"capacity"`) {
		t.Errorf("a design without capacity settings writes them: %s", out)
	}
}

func TestParseJSON_refusesCapacitySettingsNoFigureComesFrom(t *testing.T) {
	for _, tc := range []struct{ body, field string }{
		{`{"capacity": {"read_request_price": -1}}`, "capacity/read_request_price"},
		{`{"capacity": {"storage_price": -0.25}}`, "capacity/storage_price"},
		{`{"capacity": {"target_utilization": 95}}`, "capacity/target_utilization"},
		{`{"capacity": {"target_utilization": 10}}`, "capacity/target_utilization"},
		{`{"capacity": {"hot_key_skew": 0.5}}`, "capacity/hot_key_skew"},
		{`{"capacity": {"region": "eu\nwest"}}`, "capacity/region"},
		{`{"entities": [{"name": "Order", "count": -3}]}`, "entities/0/count"},
	} {
		_, err := ParseJSON([]byte(tc.body))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: err = %v, want a validation error", tc.body, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: %v does not name %s", tc.body, err, tc.field)
		}
	}
}
