package dynamo

import (
	"slices"
	"strings"
	"testing"
)

func TestParseKeyCondition(t *testing.T) {
	t.Parallel()
	names := map[string]string{"#s": "status", "#d": "created.at"}
	tests := []struct {
		in   string
		want string // terms as "attr op", or the start of the error
	}{
		{"pk = :pk", "pk ="},
		{"pk = :pk AND sk > :a", "pk =, sk >"},
		{"pk = :pk and sk between :a and :b", "pk =, sk BETWEEN"},
		{"pk = :pk AND begins_with(sk, :p)", "pk =, sk begins_with"},
		{"(pk = :pk) AND (sk <= :a)", "pk =, sk <="},
		{":pk = pk AND :a < sk", "pk =, sk >"},
		{"#s = :s AND #d >= :d", "status =, created.at >="},
		{"#x = :x", "#x = (unresolved)"},
		{"pk=:pk AND sk<>:a", "pk =, sk <>"},
		{"pk = :pk OR sk = :a", "error: a key condition joins conditions only with AND"},
		{"pk = :pk AND contains(sk, :a)", "error: a key condition allows only the function begins_with"},
		{"pk = 5", `error: Syntax error; token: "5", near: "= 5"`},
		{"pk.a = :v", "error: pk.…: a key attribute is a top-level attribute"},
		{"pk = :pk AND", `error: Syntax error; token: "<EOF>", near: "AND"`},
		{"pk = :pk sk", `error: Syntax error; token: "sk", near: ":pk sk"`},
		{"user-id = :v", `error: Syntax error; token: "-", near: "user-id = :v"`},
		{"pk BETWEEN :a", `error: Syntax error; token: "<EOF>", near: ":a"`},
		// The evaluator refuses these, so the reader does too; a reader of its own accepted them.
		{"status = :s", "status ="},
		{"((pk = :pk))", "error: The expression has redundant parentheses"},
		{"_pk = :pk", `error: Syntax error; token: "_pk"`},
		{"pk IN (:a, :b)", "error: a key condition compares with = < <= > >= BETWEEN or begins_with, not IN"},
		{"size(pk) = :n", "error: a key condition allows only the function begins_with, not size"},
		{"pk = sk", "error: = compares two attributes"},
		{"begins_with(:p, sk)", "error: begins_with takes the key attribute, then a :value"},
		{"begins_with(sk)", "error: begins_with takes the key attribute, then a :value"},
	}
	for _, tt := range tests {
		terms, err := ParseKeyCondition(tt.in, names)
		var got string
		if err != nil {
			got = "error: " + err.Error()
		} else {
			var parts []string
			for _, term := range terms {
				s := term.Attr + " " + term.Op
				if term.Unresolved {
					s += " (unresolved)"
				}
				parts = append(parts, s)
			}
			got = strings.Join(parts, ", ")
		}
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("ParseKeyCondition(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestExpressionAttributes(t *testing.T) {
	t.Parallel()
	names := map[string]string{"#s": "status", "#n": "name"}
	attrs, missing, err := ExpressionAttributes(
		"#s IN (:a, :b) AND NOT attribute_exists(deleted_at) OR size(tags) > :n AND address.city = :c AND items[0].sku = :k AND #x = :x AND #n BETWEEN :a AND :b",
		names)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"status", "deleted_at", "tags", "address", "items", "name"}; !slices.Equal(attrs, want) {
		t.Errorf("attributes = %q, want %q", attrs, want)
	}
	if !slices.Equal(missing, []string{"#x"}) {
		t.Errorf("missing = %q, want [#x]", missing)
	}
	if attrs, _, _ := ExpressionAttributes("emp_no, #n, address.city, list[2]", names); !slices.Equal(attrs, []string{"emp_no", "name", "address", "list"}) {
		t.Errorf("projection attributes = %q", attrs)
	}
}

func FuzzParseKeyCondition(f *testing.F) {
	for _, s := range []string{"pk = :pk AND begins_with(sk, :p)", "(#a = :a) AND b BETWEEN :x AND :y", ":v <= sk", "a.b[1] = :v", "pk = :pk OR"} {
		f.Add(s)
	}
	names := map[string]string{"#a": "pk"}
	f.Fuzz(func(t *testing.T, s string) {
		terms, err := ParseKeyCondition(s, names)
		if err == nil && len(terms) == 0 {
			t.Errorf("ParseKeyCondition(%q) read no condition and no error", s)
		}
		ExpressionAttributes(s, names)
	})
}
