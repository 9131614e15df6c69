package capacity

import (
	"math"
	"reflect"

	"dynaloom/internal/designer"
)

// bounded is v within lo and hi. A design's numbers are checked as they are set (designer's
// MaxNumber), but a revision stored before a bound existed replays as it was accepted: its
// figures are worked out from its numbers brought within the bounds, so they stay finite.
func bounded(v, lo, hi float64) float64 {
	if math.IsNaN(v) {
		return lo
	}
	return math.Min(hi, math.Max(lo, v))
}

// upTo is v within 0 and designer.MaxNumber.
func upTo(v float64) float64 { return bounded(v, 0, designer.MaxNumber) }

// finiteFloats replaces, in what v points to, every float that is not finite by the nearest
// finite one (NaN by 0): the last guard of an answer, which JSON cannot carry otherwise.
func finiteFloats(v reflect.Value) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		switch f := v.Float(); {
		case math.IsNaN(f):
			v.SetFloat(0)
		case math.IsInf(f, 1):
			v.SetFloat(math.MaxFloat64)
		case math.IsInf(f, -1):
			v.SetFloat(-math.MaxFloat64)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			finiteFloats(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				finiteFloats(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			finiteFloats(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			finiteFloats(e)
			v.SetMapIndex(k, e)
		}
	}
}
