package designer

import "strings"

func init() {
	register[SetCapacityField]()
}

// SetCapacityField sets one of the design's capacity settings (CapacityFields) from what a person
// typed; blank puts the default back.
type SetCapacityField struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

func (SetCapacityField) Kind() string { return "set_capacity_field" }

func (c SetCapacityField) Apply(d Design) (Design, error) {
	f, ok := FieldNamed(CapacityFields, c.Field)
	if !ok {
		return d, Invalid("field", "the capacity settings have no field %q; use one of %s", c.Field, capacityFieldKeys())
	}
	if err := f.set(&d, &d.Capacity, "capacity/"+f.Key, c.Value); err != nil {
		return d, fieldError("capacity/"+f.Key, err)
	}
	return d, nil
}

func (c SetCapacityField) Summary() string {
	f, ok := FieldNamed(CapacityFields, c.Field)
	if !ok {
		f.Label = strings.ReplaceAll(c.Field, "_", " ")
	}
	return f.summary("the %s", c.Value)
}
func (c SetCapacityField) Paths() []Path { return []Path{CapacityPath(c.Field)} }

func capacityFieldKeys() string {
	keys := make([]string, len(CapacityFields))
	for i, f := range CapacityFields {
		keys[i] = f.Key
	}
	return strings.Join(keys, ", ")
}
