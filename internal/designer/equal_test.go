package designer_test

import (
	"testing"

	"dynaloom/internal/designer"
)

// The cases on which the five equalities that came before Equal and Identical disagreed: numbers
// written differently and sets in another order are DynamoDB's same value, but not the same text.
func TestValue_equalAndIdentical(t *testing.T) {
	t.Parallel()
	set := func(typ designer.Type, members ...string) designer.Value {
		return designer.Value{Type: typ, SS: members}
	}
	tests := []struct {
		name             string
		a, b             designer.Value
		equal, identical bool
	}{
		{"same string", designer.Str("a"), designer.Str("a"), true, true},
		{"string and number of one text", designer.Str("1"), designer.Num("1"), false, false},
		{"1.0 and 1", designer.Num("1.0"), designer.Num("1"), true, false},
		{"1.50 and 15E-1", designer.Num("1.50"), designer.Num("15E-1"), true, false},
		{"-0 and 0", designer.Num("-0"), designer.Num("0"), true, false},
		{"different numbers", designer.Num("1"), designer.Num("1.01"), false, false},
		{"same bytes", designer.Bin([]byte{0, 1}), designer.Bin([]byte{0, 1}), true, true},
		{"string set in another order", set(designer.SS, "a", "b"), set(designer.SS, "b", "a"), true, false},
		{"number set in another order and spelling", set(designer.NS, "1", "2"), set(designer.NS, "2", "1.0"), true, false},
		{"sets of another size", set(designer.SS, "a"), set(designer.SS, "a", "b"), false, false},
		{"binary set in another order", designer.Value{Type: designer.BS, BS: [][]byte{{1}, {2}}}, designer.Value{Type: designer.BS, BS: [][]byte{{2}, {1}}}, true, false},
		{"list in another order", designer.List(designer.Num("1"), designer.Num("2")), designer.List(designer.Num("2"), designer.Num("1")), false, false},
		{"list with 1.0 and 1", designer.List(designer.Num("1.0")), designer.List(designer.Num("1")), true, false},
		{"map with 1.0 and 1", designer.Map(map[string]designer.Value{"n": designer.Num("1.0")}), designer.Map(map[string]designer.Value{"n": designer.Num("1")}), true, false},
		{"null", designer.Null(), designer.Null(), true, true},
		{"booleans", designer.Boolean(true), designer.Boolean(false), false, false},
		{"same boolean", designer.Boolean(true), designer.Boolean(true), true, true},
		{"same string with quotes and accents", designer.Str(`"é"`), designer.Str(`"é"`), true, true},
		{"strings that differ in an accent", designer.Str("é"), designer.Str("e"), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.a.Equal(tt.b); got != tt.equal {
				t.Errorf("Equal = %v, want %v", got, tt.equal)
			}
			if got := tt.b.Equal(tt.a); got != tt.equal {
				t.Errorf("Equal the other way round = %v, want %v", got, tt.equal)
			}
			if got := tt.a.Identical(tt.b); got != tt.identical {
				t.Errorf("Identical = %v, want %v", got, tt.identical)
			}
		})
	}
}

func TestSameKey_numbersCompareByValue(t *testing.T) {
	t.Parallel()
	tb := designer.Table{PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.N}, SortKey: &designer.KeyAttribute{Name: "sk", Type: designer.S}}
	if !designer.SameKey(tb, designer.Item{"pk": designer.Num("1.0"), "sk": designer.Str("x")}, designer.Item{"pk": designer.Num("1"), "sk": designer.Str("x")}) {
		t.Error("keys 1.0 and 1 name different items; DynamoDB stores them as one")
	}
	if designer.SameKey(tb, designer.Item{"pk": designer.Num("1"), "sk": designer.Str("x")}, designer.Item{"pk": designer.Num("1"), "sk": designer.Str("X")}) {
		t.Error("sort keys x and X name the same item")
	}
}
