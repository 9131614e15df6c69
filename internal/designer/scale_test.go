package designer_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func TestSetEntityField_scale(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, field, value string
		want, wantFrom     string // the field as a form shows it after, and its source
		wantField          string // the field a refusal names
	}{
		{name: "count the team sets", field: "count", value: "40,000", want: "40000", wantFrom: "team"},
		{name: "growth per day", field: "growth", value: "300 per day", want: "300 per day", wantFrom: "team"},
		{name: "growth with a slash", field: "growth", value: "256,000/year", want: "256000 per year", wantFrom: "team"},
		{name: "growth a month", field: "growth", value: "12 a month", want: "12 per month", wantFrom: "team"},
		{name: "retention in years", field: "retention", value: "7 years", want: "7 years", wantFrom: "team"},
		{name: "retention of one day", field: "retention", value: "1 day", want: "1 day", wantFrom: "team"},
		{name: "blank growth clears it and its source", field: "growth", value: ""},
		{name: "a source the team writes", field: "count_from", value: "clinic survey 2026", want: "clinic survey 2026"},
		{name: "negative growth", field: "growth", value: "-3 per day", wantField: "growth"},
		{name: "growth without a period", field: "growth", value: "300", wantField: "growth"},
		{name: "growth per fortnight", field: "growth", value: "300 per fortnight", wantField: "growth"},
		{name: "growth of NaN", field: "growth", value: "NaN per day", wantField: "growth"},
		{name: "zero retention", field: "retention", value: "0 days", wantField: "retention"},
		{name: "negative retention", field: "retention", value: "-7 years", wantField: "retention"},
		{name: "retention past 1,000 years", field: "retention", value: "1001 years", wantField: "retention"},
		{name: "retention without a unit", field: "retention", value: "7", wantField: "retention"},
		{name: "infinite retention", field: "retention", value: "Inf years", wantField: "retention"},
	}
	var cases []designertest.ChangeCase
	for _, tt := range tests {
		cases = append(cases, designertest.ChangeCase{Name: tt.name, Change: designer.SetEntityField{Entity: "Employee", Field: tt.field, Value: tt.value}, Field: tt.wantField,
			Check: func(t *testing.T, before, after designer.Design) {
				e, _, _ := after.EntityByName("Employee")
				f, _ := designer.FieldNamed(designer.EntityFields, tt.field)
				if got := f.Get(e); got != tt.want {
					t.Errorf("%s = %q, want %q", tt.field, got, tt.want)
				}
				if src, ok := designer.FieldNamed(designer.EntityFields, tt.field+"_from"); ok && src.Get(e) != tt.wantFrom {
					t.Errorf("%s_from = %q, want %q", tt.field, src.Get(e), tt.wantFrom)
				}
			}})
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
}

func TestEntity_growthAndRetentionInYears(t *testing.T) {
	g, r := 300.0, 90.0
	e := designer.Entity{Growth: &g, GrowthUnit: designer.Day, Retention: &r, RetentionUnit: designer.Day}
	if got, _ := e.GrowthPerYear(); got != 109500 { // 300 × 365
		t.Errorf("growth a year = %v, want 109,500", got)
	}
	if got, _ := e.RetentionYears(); got != 90.0/365 {
		t.Errorf("retention = %v years, want 90/365", got)
	}
	m := 2.0
	e = designer.Entity{Growth: &m, GrowthUnit: designer.Month}
	if got, _ := e.GrowthPerYear(); got != 24 {
		t.Errorf("growth a year = %v, want 24", got)
	}
}

func TestParseJSON_refusesAScaleNoFigureComesFrom(t *testing.T) {
	for _, tc := range []struct{ body, field string }{
		{`{"entities": [{"name": "Pet", "growth": -1, "growth_unit": "day"}]}`, "entities/0/growth"},
		{`{"entities": [{"name": "Pet", "growth": 1, "growth_unit": "fortnight"}]}`, "entities/0/growth_unit"},
		{`{"entities": [{"name": "Pet", "growth": 1}]}`, "entities/0/growth_unit"},
		{`{"entities": [{"name": "Pet", "retention": 0, "retention_unit": "year"}]}`, "entities/0/retention"},
		{`{"entities": [{"name": "Pet", "retention": 2000, "retention_unit": "year"}]}`, "entities/0/retention"},
		{`{"entities": [{"name": "Pet", "retention": 7}]}`, "entities/0/retention_unit"},
		{`{"capacity": {"horizon_months": -1}}`, "capacity/horizon_months"},
		{`{"capacity": {"horizon_months": 1201}}`, "capacity/horizon_months"},
	} {
		_, err := designer.ParseJSON([]byte(tc.body))
		var ve *designer.ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: err = %v, want a refusal naming %s", tc.body, err, tc.field)
		}
	}
}

func TestSetCapacityField_horizon(t *testing.T) {
	t.Parallel()
	var cases []designertest.ChangeCase
	for _, tt := range []struct{ value, want, wantField string }{
		{"24", "24", ""}, {"18 months", "18", ""}, {"0", "0", ""}, {"", "", ""},
		{"-1", "", "capacity/horizon_months"}, {"1201", "", "capacity/horizon_months"}, {"2 years", "", "capacity/horizon_months"},
	} {
		cases = append(cases, designertest.ChangeCase{Name: tt.value, Change: designer.SetCapacityField{Field: "horizon_months", Value: tt.value}, Field: tt.wantField,
			Check: func(t *testing.T, _, after designer.Design) {
				if got := designer.CapacityField.HorizonMonths.Get(after.Capacity); got != tt.want {
					t.Errorf("horizon = %q, want %q", got, tt.want)
				}
			}})
	}
	designertest.RunChangeCases(t, designertest.HRDesign(t), cases)
}

func TestSetEntityField_inState(t *testing.T) {
	t.Parallel()
	d := designertest.HRDesign(t)
	entity := d.Entities[0].Name
	designertest.RunChangeCases(t, d, []designertest.ChangeCase{
		{Name: "counts in states", Change: designer.SetEntityField{Entity: entity, Field: "in_state", Value: "10,000 open; 40 Overdue"},
			Check: func(t *testing.T, _, after designer.Design) {
				got := after.Entities[0].InState
				want := []designer.StateCount{{State: "open", Count: 10000, From: designer.FromTeam}, {State: "overdue", Count: 40, From: designer.FromTeam}}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("in state = %+v, want %+v", got, want)
				}
				if f := designer.EntityField.InState.Get(after.Entities[0]); f != "10000 open, 40 overdue" {
					t.Errorf("field reads %q", f)
				}
			}},
		{Name: "a count that is no number", Change: designer.SetEntityField{Entity: entity, Field: "in_state", Value: "many open"}, Field: "in_state"},
		{Name: "a state of two words", Change: designer.SetEntityField{Entity: entity, Field: "in_state", Value: "5 not seen"}, Field: "in_state"},
		{Name: "a negative count", Change: designer.SetEntityField{Entity: entity, Field: "in_state", Value: "-5 open"}, Field: "in_state"},
		{Name: "none", Change: designer.SetEntityField{Entity: entity, Field: "in_state", Value: ""},
			Check: func(t *testing.T, _, after designer.Design) {
				if after.Entities[0].InState != nil {
					t.Errorf("in state = %+v, want none", after.Entities[0].InState)
				}
			}},
	})
}
