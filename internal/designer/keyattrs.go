package designer

import (
	"strings"
)

// ParseKeyAttributes reads an index key as people type it: attribute names separated by commas or
// "+", each optionally followed by ":S", ":N" or ":B" ("tenant_id + region", "status:S, created_at").
// A name without a type takes the type the table declares for it, else S.
func ParseKeyAttributes(text string, t Table) ([]KeyAttribute, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	var out []KeyAttribute
	for _, part := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == '+' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, typ, hasType := strings.Cut(part, ":")
		name = strings.TrimSpace(name)
		if _, err := CleanName("key", name); err != nil {
			return nil, err
		}
		k := KeyAttribute{Name: name, Type: t.DeclaredType(name)}
		if hasType {
			k.Type = Type(strings.ToUpper(strings.TrimSpace(typ)))
			if !k.Type.KeyType() {
				return nil, Invalid("key", "%s has type %q; key attributes are S, N or B", name, strings.TrimSpace(typ))
			}
		}
		out = append(out, k)
	}
	return out, nil
}

// FormatKeyAttributes writes an index key the way ParseKeyAttributes reads it.
func FormatKeyAttributes(keys []KeyAttribute) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.Name + ":" + string(k.Type)
	}
	return strings.Join(parts, ", ")
}

// DeclaredType is the type the table gives an attribute: its key schema first, then its declared
// attributes; S when it declares none.
func (t Table) DeclaredType(name string) Type {
	if t.PartitionKey.Name == name && t.PartitionKey.Type != "" {
		return t.PartitionKey.Type
	}
	if t.SortKey != nil && t.SortKey.Name == name && t.SortKey.Type != "" {
		return t.SortKey.Type
	}
	for _, a := range t.Attributes {
		if a.Name == name && a.Type.KeyType() {
			return a.Type
		}
	}
	return S
}
