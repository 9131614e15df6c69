package designer_test

import (
	"errors"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestParseJSON_capacitySettingsAndEntityCountRoundTrip(t *testing.T) {
	in := `{"name": "Shop", "entities": [{"name": "Order", "count": 40000}],
		"capacity": {"region": "eu-west-1", "read_request_price": 0.1425, "target_utilization": 50, "hot_key_skew": 3}}`
	d, err := designer.ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c := d.Entities[0].Count; c == nil || *c != 40000 {
		t.Fatalf("entity count = %v, want 40000", c)
	}
	if d.Capacity.Region != "eu-west-1" || *d.Capacity.ReadRequestPrice != 0.1425 || *d.Capacity.TargetUtilization != 50 || *d.Capacity.HotKeySkew != 3 {
		t.Fatalf("capacity = %+v", d.Capacity)
	}
	out, err := designer.MarshalJSON(d)
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
	d, err := designer.New("Plain")
	if err != nil {
		t.Fatal(err)
	}
	out, err := designer.MarshalJSON(d)
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
		{`{"capacity": {"hot_key_model": "pareto"}}`, "capacity/hot_key_model"},
		{`{"capacity": {"hot_key_share": 101}}`, "capacity/hot_key_share"},
		{`{"capacity": {"hot_key_share": -1}}`, "capacity/hot_key_share"},
		{`{"capacity": {"hot_key_zipf_s": 10.5}}`, "capacity/hot_key_zipf_s"},
		{`{"capacity": {"hot_key_zipf_s": -0.1}}`, "capacity/hot_key_zipf_s"},
		{`{"entities": [{"name": "Order", "count": -3}]}`, "entities/0/count"},
		{`{"capacity": {"reserved_capacity": "5y"}}`, "capacity/reserved_capacity"},
		{`{"capacity": {"replica_regions": ["eu-west-1", "EU-WEST-1"]}}`, "capacity/replica_regions"},
		{`{"tables": [{"name": "T", "partition_key": {"name": "pk", "type": "S"}, "billing_mode": "PAY_PER_REQUEST", "table_class": "GLACIER"}]}`, "tables/0/table_class"},
		{`{"access_patterns": [{"id": "p1", "number": 1, "description": "x", "type": "write", "status": "solved", "conditional_failure_pct": -1, "mapping": {}}]}`, "conditional_failure_pct"},
	} {
		_, err := designer.ParseJSON([]byte(tc.body))
		var ve *designer.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: err = %v, want a validation error", tc.body, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: %v does not name %s", tc.body, err, tc.field)
		}
	}
}

func TestSetCapacityField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, field, value string
		want               string // the field as a form shows it after
		wantField          string // the field a refusal names
	}{
		{name: "price with a dollar sign", field: "read_request_price", value: "$0.1425", want: "0.1425"},
		{name: "unit-hour price", field: "write_unit_hour_price", value: "0.000735", want: "0.000735"},
		{name: "free storage", field: "storage_price", value: "0", want: "0"},
		{name: "region", field: "region", value: " eu-west-1 ", want: "eu-west-1"},
		{name: "blank puts the default back", field: "region", value: "", want: ""},
		{name: "target utilisation with a percent sign", field: "target_utilization", value: "55%", want: "55"},
		{name: "skew with a times sign", field: "hot_key_skew", value: "2.5×", want: "2.5"},
		{name: "skew of 1 spreads evenly", field: "hot_key_skew", value: "1", want: "1"},
		{name: "negative price", field: "read_request_price", value: "-0.1", wantField: "capacity/read_request_price"},
		{name: "price that is words", field: "storage_price", value: "cheap", wantField: "capacity/storage_price"},
		{name: "utilisation over 90", field: "target_utilization", value: "95", wantField: "capacity/target_utilization"},
		{name: "utilisation under 20", field: "target_utilization", value: "5 %", wantField: "capacity/target_utilization"},
		{name: "skew under 1", field: "hot_key_skew", value: "0.5", wantField: "capacity/hot_key_skew"},
		{name: "zipf model in another spelling", field: "hot_key_model", value: "Zipfian", want: "zipf"},
		{name: "top-key share model", field: "hot_key_model", value: "top-key share", want: "top_key_share"},
		{name: "uniform model", field: "hot_key_model", value: "uniform", want: "uniform"},
		{name: "no model is the skew", field: "hot_key_model", value: "", want: ""},
		{name: "model that is none", field: "hot_key_model", value: "pareto", wantField: "capacity/hot_key_model"},
		{name: "share with a percent sign", field: "hot_key_share", value: "5 %", want: "5"},
		{name: "share over 100", field: "hot_key_share", value: "120", wantField: "capacity/hot_key_share"},
		{name: "share negative", field: "hot_key_share", value: "-5", wantField: "capacity/hot_key_share"},
		{name: "zipf exponent", field: "hot_key_zipf_s", value: "s = 1.2", want: "1.2"},
		{name: "zipf exponent over 10", field: "hot_key_zipf_s", value: "11", wantField: "capacity/hot_key_zipf_s"},
		{name: "zipf exponent not a number", field: "hot_key_zipf_s", value: "NaN", wantField: "capacity/hot_key_zipf_s"},
		{name: "region with a line break", field: "region", value: "eu\nwest", wantField: "capacity/region"},
		{name: "unknown setting", field: "currency", value: "EUR", wantField: "field"},
		{name: "replica regions", field: "replica_regions", value: "eu-west-1, ap-south-1", want: "eu-west-1, ap-south-1"},
		{name: "no replica regions", field: "replica_regions", value: " ", want: ""},
		{name: "a replica region twice is one", field: "replica_regions", value: "eu-west-1, eu-west-1", want: "eu-west-1"},
		{name: "a replica region that is no name", field: "replica_regions", value: "eu\nwest", wantField: "capacity/replica_regions"},
		{name: "reserved for a year", field: "reserved_capacity", value: "1 year", want: "1y"},
		{name: "reserved for three years", field: "reserved_capacity", value: "3 years", want: "3y"},
		{name: "no reservation", field: "reserved_capacity", value: "none", want: ""},
		{name: "reserved for five years", field: "reserved_capacity", value: "5 years", wantField: "capacity/reserved_capacity"},
	}
	var cases []designertest.ChangeCase
	for _, tt := range tests {
		cases = append(cases, designertest.ChangeCase{Name: tt.name, Change: designer.SetCapacityField{Field: tt.field, Value: tt.value}, Field: tt.wantField,
			Check: func(t *testing.T, before, after designer.Design) {
				f, _ := designer.FieldNamed(designer.CapacityFields, tt.field)
				if got := f.Get(after.Capacity); got != tt.want {
					t.Errorf("%s = %q, want %q", tt.field, got, tt.want)
				}
				for _, other := range designer.CapacityFields {
					if other.Key != tt.field && other.Get(after.Capacity) != other.Get(before.Capacity) {
						t.Errorf("%s changed too", other.Key)
					}
				}
			}})
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
}

func TestSetEntityField_count(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, entity, value string
		want                *int64
		wantField           string
	}{
		{name: "with separators", entity: "Employee", value: "300,000", want: designertest.Ptr(int64(300000))},
		{name: "zero", entity: "Department", value: "0", want: designertest.Ptr(int64(0))},
		{name: "blank clears it", entity: "Employee", value: ""},
		{name: "fraction", entity: "Employee", value: "1.5", wantField: "count"},
		{name: "negative", entity: "Employee", value: "-4", wantField: "count"},
		{name: "unknown entity", entity: "Robot", value: "4", wantField: "entity"},
	}
	var cases []designertest.ChangeCase
	for _, tt := range tests {
		cases = append(cases, designertest.ChangeCase{Name: tt.name, Change: designer.SetEntityField{Entity: tt.entity, Field: "count", Value: tt.value}, Field: tt.wantField,
			Check: func(t *testing.T, before, after designer.Design) {
				e, _, _ := after.EntityByName(tt.entity)
				if (e.Count == nil) != (tt.want == nil) || e.Count != nil && *e.Count != *tt.want {
					t.Errorf("count = %v, want %v", e.Count, tt.want)
				}
			}})
	}
	cases = append(cases, designertest.ChangeCase{Name: "unknown field", Change: designer.SetEntityField{Entity: "Employee", Field: "colour", Value: "red"}, Field: "field"})
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
	if got := (designer.SetEntityField{Entity: "Employee", Field: "count", Value: "300,000"}).Summary(); got != `Set the expected count of entity "Employee" to 300,000` {
		t.Errorf("summary = %q", got)
	}
}

func TestSetTableAndPatternField_costInputs(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	table, pattern := d.Tables[0].Name, d.Patterns[0].ID
	designertest.RunChangeCases(t, d, []designertest.ChangeCase{
		{Name: "Standard-IA", Change: designer.SetTableField{Table: table, Field: "table_class", Value: "Standard-IA"},
			Check: func(t *testing.T, _, after designer.Design) {
				if c := after.Tables[0].TableClass; c != designer.StandardIAClass {
					t.Errorf("table class = %q, want %s", c, designer.StandardIAClass)
				}
			}},
		{Name: "a class DynamoDB has not", Change: designer.SetTableField{Table: table, Field: "table_class", Value: "glacier"}, Field: "table_class"},
		{Name: "failed conditions", Change: designer.SetPatternField{ID: pattern, Field: "conditional_failure_pct", Value: "5 %"},
			Check: func(t *testing.T, _, after designer.Design) {
				if v := after.Patterns[0].ConditionalFailurePct; v == nil || *v != 5 {
					t.Errorf("conditional failures = %v, want 5", v)
				}
			}},
		{Name: "negative failures", Change: designer.SetPatternField{ID: pattern, Field: "conditional_failure_pct", Value: "-1"}, Field: "conditional_failure_pct"},
		{Name: "failures that are not a number", Change: designer.SetPatternField{ID: pattern, Field: "conditional_failure_pct", Value: "NaN"}, Field: "conditional_failure_pct"},
	})
}
