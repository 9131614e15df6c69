package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
)

// badNumbers are the values every numeric member of a change is tried with.
var badNumbers = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e308, -1, 0}

// numericLeaf is one number inside a change value: where it is, its JSON name, and how to set it.
type numericLeaf struct {
	path, name string
	set        func(float64)
}

// numericLeaves lists the numbers v (a pointer to a change) holds or can hold (a nil pointer to a
// number is one, set by allocating it), the first element of each list and every map entry.
// members records each numeric member reached as "Type.field", to show which of the change
// types' numeric members were tried.
func numericLeaves(v reflect.Value, path, name, owner string, members map[string]bool, out *[]numericLeaf) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			if k := v.Type().Elem().Kind(); k == reflect.Float64 || k == reflect.Int || k == reflect.Int64 {
				members[owner+"."+name] = true
				*out = append(*out, numericLeaf{path, name, func(f float64) {
					v.Set(reflect.New(v.Type().Elem()))
					setNumber(v.Elem(), f)
				}})
			}
			return
		}
		numericLeaves(v.Elem(), path, name, owner, members, out)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || n == "-" {
				continue
			}
			if n == "" {
				n = f.Name
			}
			numericLeaves(v.Field(i), path+"/"+n, n, v.Type().Name(), members, out)
		}
	case reflect.Slice:
		if v.Len() > 0 {
			numericLeaves(v.Index(0), path+"/0", name, owner, members, out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			var inner []numericLeaf
			numericLeaves(e, path+"/"+fmt.Sprint(k), name, owner, members, &inner)
			for _, l := range inner {
				set := l.set
				*out = append(*out, numericLeaf{l.path, l.name, func(f float64) { set(f); v.SetMapIndex(k, e) }})
			}
			break // one entry is enough: they are all of one type
		}
	case reflect.Float64, reflect.Int, reflect.Int64:
		members[owner+"."+name] = true
		*out = append(*out, numericLeaf{path, name, func(f float64) { setNumber(v, f) }})
	}
}

// setNumber sets a float or an int; an int takes the largest int64 for what it cannot hold.
func setNumber(v reflect.Value, f float64) {
	if v.Kind() == reflect.Float64 {
		v.SetFloat(f)
		return
	}
	if !math.IsNaN(f) && !math.IsInf(f, 0) && math.Abs(f) < 1e18 {
		v.SetInt(int64(f))
	} else {
		v.SetInt(math.MaxInt64)
	}
}

// richDesign is the HR example at the point of docs/changes.md, taking its examples in order,
// where it holds the most numbers: rows of every kind, settings, places on the diagrams.
func richDesign(t *testing.T) designer.Design {
	a := newTestAppWith(t, Options{WriteLimit: NoLimit, CostlyLimit: NoLimit, WriteBytesLimit: NoLimit})
	created := a.createJSON(`{"example": "hr-employees"}`)
	best, most := designer.Design{}, -1
	for _, ex := range changesDoc(t) {
		if rec := a.postChange(created.EditToken, ex.example, "Cookie", participantCookie+"=Ada"); rec.Code != http.StatusOK {
			t.Fatalf("docs/changes.md:%d: %s: %d %s", ex.line, ex.kind, rec.Code, rec.Body)
		}
		d, _ := a.design(created.EditToken)
		probe, _ := a.design(created.EditToken)
		members := map[string]bool{}
		var leaves []numericLeaf
		numericLeaves(reflect.ValueOf(&probe), "", "", "", members, &leaves)
		if n := len(members)*10000 + len(leaves); n > most {
			best, most = d, n
		}
	}
	return best
}

// badNumbersApp is a server holding the rich design, with its edit token and id.
func badNumbersApp(t *testing.T, d designer.Design) (*testApp, string, string) {
	a := newTestAppWith(t, Options{WriteLimit: NoLimit, CostlyLimit: NoLimit, WriteBytesLimit: NoLimit})
	rec, tokens, err := a.store.Create(t.Context(), d, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	return a, tokens.Edit, rec.ID
}

// everyJSONAnswerServes fails the test when any JSON answer about the design is a 500.
// The exports, which take longest, are asked for only when withExports is set.
func (a *testApp) everyJSONAnswerServes(t *testing.T, token, after string, withExports bool) {
	t.Helper()
	targets := []string{"", "/capacity", "/validation"}
	for _, f := range format.ExportFormats() {
		if withExports {
			targets = append(targets, "/export/"+f.ID)
		}
	}
	for _, target := range targets {
		if rec := a.request(http.MethodGet, "/api/designs/"+token+target, "", nil); rec.Code >= 500 {
			t.Errorf("after %s, GET %s: %d %s", after, target, rec.Code, rec.Body)
		}
	}
}

// Every numeric member of every kind of change (found by reflection over the documented example
// of each kind, so a new member cannot be missed), set to NaN, ±Inf, 1e308, -1 or 0, is either
// refused naming its field or accepted, and after it every JSON answer about the design serves.
func TestChanges_badNumbersAreRefusedNamingTheField(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: trying every number of every kind of change takes tens of seconds")
	}
	rich := richDesign(t)
	a := newTestAppWith(t, Options{WriteLimit: NoLimit, CostlyLimit: NoLimit, WriteBytesLimit: NoLimit})
	created := a.createJSON(`{"example": "hr-employees"}`)
	id, _, err := a.store.Resolve(t.Context(), created.EditToken)
	if err != nil {
		t.Fatal(err)
	}
	reached := map[string]bool{}
	for _, ex := range changesDoc(t) {
		cur, _ := a.design(created.EditToken)
		whole := rich
		if ex.kind != "replace_design" && ex.kind != "undo_change" {
			whole = cur
		}
		for _, bad := range badNumbers {
			// Each leaf is tried on a fresh copy of the example, one leaf at a time.
			probe, err := designer.UnmarshalChange([]byte(ex.example))
			if err != nil {
				t.Fatalf("docs/changes.md:%d: %v", ex.line, err)
			}
			if ex.kind == "replace_design" || ex.kind == "undo_change" {
				probe = withDesign(probe, whole)
			}
			pv := reflect.New(reflect.TypeOf(probe))
			pv.Elem().Set(reflect.ValueOf(probe))
			var leaves []numericLeaf
			numericLeaves(pv, ex.kind, "", "", reached, &leaves)
			for i := range leaves {
				c, _ := designer.UnmarshalChange([]byte(ex.example))
				if ex.kind == "replace_design" || ex.kind == "undo_change" {
					c = withDesign(c, whole)
				}
				cv := reflect.New(reflect.TypeOf(c))
				cv.Elem().Set(reflect.ValueOf(c))
				var mine []numericLeaf
				numericLeaves(cv, ex.kind, "", "", map[string]bool{}, &mine)
				leaf := mine[i]
				leaf.set(bad)
				what := fmt.Sprintf("%s = %v", leaf.path, bad)
				_, err := a.store.Apply(t.Context(), id, "Ada", cv.Elem().Interface().(designer.Change), 0)
				var ve *designer.ValidationError
				switch {
				case err == nil:
					a.everyJSONAnswerServes(t, created.EditToken, what, bad == 1e308)
				case errors.As(err, &ve):
					if !strings.Contains(ve.Error(), leaf.name) && !strings.Contains(ve.Field, leaf.name) {
						// A refusal for another reason is fine only when the example itself is
						// refused so in this state (a row it adds already exists, an undo
						// that no longer applies).
						base, _ := designer.UnmarshalChange([]byte(ex.example))
						if ex.kind == "replace_design" || ex.kind == "undo_change" {
							base = withDesign(base, whole)
						}
						if _, berr := base.Apply(cur); berr == nil || berr.Error() != err.Error() {
							t.Errorf("%s: refused without naming %s: %v", what, leaf.name, err)
						}
					}
				case errors.As(err, new(*json.UnsupportedValueError)) && (math.IsNaN(bad) || math.IsInf(bad, 0)):
					// A number JSON cannot carry cannot come through the API, and a change
					// holding one cannot be stored: it is refused whole (an undo's design
					// beyond the parts it restores).
				default:
					t.Errorf("%s: %v, not a refusal naming the field", what, err)
				}
				if err == nil {
					// Back to the state the example is documented against.
					if _, err := a.store.Apply(t.Context(), id, "Ada", designer.ReplaceDesign{Design: cur}, 0); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if rec := a.postChange(created.EditToken, ex.example, "Cookie", participantCookie+"=Ada"); rec.Code != http.StatusOK {
			t.Fatalf("docs/changes.md:%d: %s: %d %s", ex.line, ex.kind, rec.Code, rec.Body)
		}
	}
	members := map[string]bool{}
	for _, k := range designer.ChangeKinds() {
		c, err := designer.UnmarshalChange([]byte(`{"kind": "` + k + `", "change": {}}`))
		if err != nil {
			t.Fatal(err)
		}
		typeNumbers(reflect.TypeOf(c), "", "", members, map[reflect.Type]bool{})
	}
	for m := range members {
		if !reached[m] {
			t.Errorf("no example of docs/changes.md holds %s: give an example a value there so it is tried", m)
		}
	}
}

// withDesign is c with its whole design (replace_design's, undo_change's before) set to a fresh
// copy of d, so that setting a number in it changes no other copy.
func withDesign(c designer.Change, whole designer.Design) designer.Change {
	raw, _ := designer.MarshalJSON(whole)
	d, err := designer.ParseJSON(raw)
	if err != nil {
		panic(err)
	}
	switch x := c.(type) {
	case designer.ReplaceDesign:
		x.Design = d
		return x
	case designer.UndoChange:
		x.Before = d
		return x
	}
	return c
}

// typeNumbers records the numeric members of type t and of every type within it as "Type.field".
func typeNumbers(t reflect.Type, owner, name string, out map[string]bool, seen map[reflect.Type]bool) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		typeNumbers(t.Elem(), owner, name, out, seen)
	case reflect.Struct:
		if seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || n == "-" {
				continue
			}
			if n == "" {
				n = f.Name
			}
			typeNumbers(f.Type, t.Name(), n, out, seen)
		}
	case reflect.Float64, reflect.Int, reflect.Int64:
		out[owner+"."+name] = true
	}
}

// Every numeric field people type into (every field of every row's field list), set to "NaN",
// "Inf", "-Inf", "1e308", "-1" or "0", is refused naming the field or accepted, and after it every
// JSON answer about the design serves.
func TestChanges_badNumbersTypedIntoFields(t *testing.T) {
	d := richDesign(t)
	a, token, _ := badNumbersApp(t, d)
	created := createdDesign{EditToken: token}
	type target struct {
		kind   string
		change map[string]any
		fields []string
	}
	keys := func(fs []string) []string { return fs }
	var targets []target
	add := func(kind string, change map[string]any, fields []string) {
		targets = append(targets, target{kind, change, keys(fields)})
	}
	add("set_capacity_field", map[string]any{}, fieldKeys(designer.CapacityFields))
	add("set_pattern_field", map[string]any{"id": d.Patterns[0].ID}, fieldKeys(designer.PatternFields))
	add("set_entity_field", map[string]any{"entity": d.Entities[0].Name}, fieldKeys(designer.EntityFields))
	add("set_relationship_field", map[string]any{"id": d.Relationships[0].ID}, fieldKeys(designer.RelationshipFields))
	add("set_aggregate_field", map[string]any{"id": d.Aggregates[0].ID}, fieldKeys(designer.AggregateFields))
	add("set_consolidation_field", map[string]any{"id": d.Consolidations[0].ID}, fieldKeys(designer.ConsolidationFields))
	add("set_table_field", map[string]any{"table": d.Tables[0].Name}, fieldKeys(designer.TableFields))
	for _, tg := range targets {
		for _, f := range tg.fields {
			for _, v := range []string{"NaN", "Inf", "-Inf", "1e308", "-1", "0"} {
				ch := map[string]any{"field": f, "value": v}
				for k, x := range tg.change {
					ch[k] = x
				}
				body, _ := json.Marshal(map[string]any{"kind": tg.kind, "change": ch})
				rec := a.postChange(created.EditToken, string(body), "Cookie", participantCookie+"=Ada")
				what := fmt.Sprintf("%s %s=%s", tg.kind, f, v)
				switch {
				case rec.Code == http.StatusOK:
					a.everyJSONAnswerServes(t, created.EditToken, what, v == "1e308")
				case rec.Code == http.StatusBadRequest:
					if !strings.Contains(rec.Body.String(), f) {
						t.Errorf("%s: refused without naming the field: %s", what, rec.Body)
					}
				default:
					t.Errorf("%s: %d %s", what, rec.Code, rec.Body)
				}
			}
		}
	}
}

func fieldKeys[R any](fs []designer.Field[R]) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Key
	}
	return out
}
