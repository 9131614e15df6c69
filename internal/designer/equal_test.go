package designer

import "testing"

// The cases on which the five equalities that came before Equal and Identical disagreed: numbers
// written differently and sets in another order are DynamoDB's same value, but not the same text.
func TestValue_equalAndIdentical(t *testing.T) {
	t.Parallel()
	set := func(typ Type, members ...string) Value { return Value{Type: typ, SS: members} }
	tests := []struct {
		name             string
		a, b             Value
		equal, identical bool
	}{
		{"same string", Str("a"), Str("a"), true, true},
		{"string and number of one text", Str("1"), Num("1"), false, false},
		{"1.0 and 1", Num("1.0"), Num("1"), true, false},
		{"1.50 and 15E-1", Num("1.50"), Num("15E-1"), true, false},
		{"-0 and 0", Num("-0"), Num("0"), true, false},
		{"different numbers", Num("1"), Num("1.01"), false, false},
		{"same bytes", Bin([]byte{0, 1}), Bin([]byte{0, 1}), true, true},
		{"string set in another order", set(SS, "a", "b"), set(SS, "b", "a"), true, false},
		{"number set in another order and spelling", set(NS, "1", "2"), set(NS, "2", "1.0"), true, false},
		{"sets of another size", set(SS, "a"), set(SS, "a", "b"), false, false},
		{"binary set in another order", Value{Type: BS, BS: [][]byte{{1}, {2}}}, Value{Type: BS, BS: [][]byte{{2}, {1}}}, true, false},
		{"list in another order", List(Num("1"), Num("2")), List(Num("2"), Num("1")), false, false},
		{"list with 1.0 and 1", List(Num("1.0")), List(Num("1")), true, false},
		{"map with 1.0 and 1", Map(map[string]Value{"n": Num("1.0")}), Map(map[string]Value{"n": Num("1")}), true, false},
		{"null", Null(), Null(), true, true},
		{"booleans", Boolean(true), Boolean(false), false, false},
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
	tb := Table{PartitionKey: KeyAttribute{Name: "pk", Type: N}, SortKey: &KeyAttribute{Name: "sk", Type: S}}
	if !SameKey(tb, Item{"pk": Num("1.0"), "sk": Str("x")}, Item{"pk": Num("1"), "sk": Str("x")}) {
		t.Error("keys 1.0 and 1 name different items; DynamoDB stores them as one")
	}
	if SameKey(tb, Item{"pk": Num("1"), "sk": Str("x")}, Item{"pk": Num("1"), "sk": Str("X")}) {
		t.Error("sort keys x and X name the same item")
	}
}
