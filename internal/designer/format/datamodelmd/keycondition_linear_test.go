package datamodelmd

import (
	"fmt"
	"strings"
	"testing"

	"dynaloom/internal/designer/dynamo"
)

func TestParseKeyCondition_deepParenthesesAreRefused(t *testing.T) {
	t.Parallel()
	// The evaluator refuses parentheses around parentheses (DynamoDB calls them redundant) and this
	// deep a nest, so the reader does too; a reader of its own once accepted both.
	for _, n := range []int{2, dynamo.MaxExpressionDepth} {
		in := strings.Repeat("(", n) + "a = :v" + strings.Repeat(")", n)
		_, _, refusal := dynamo.ParseCondition(in, dynamo.NewExprContext(nil, nil))
		if _, err := dynamo.ParseKeyCondition(in, nil); err == nil || refusal == "" {
			t.Fatalf("%d levels: the reader says %v, the evaluator %q", n, err, refusal)
		}
	}
	in := strings.Repeat("(", 100_000) + "a = :v" + strings.Repeat(")", 100_000)
	_, err := dynamo.ParseKeyCondition(in, nil)
	if want := fmt.Sprintf("the condition nests parentheses deeper than %d levels", dynamo.MaxExpressionDepth); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestExpressionAttributes_namesEachAttributeOnceInOrder(t *testing.T) {
	t.Parallel()
	attrs, missing, err := dynamo.ExpressionAttributes("b, a, #x, b.c, #y, #x, size(a)", map[string]string{"#x": "c"})
	if err != nil || fmt.Sprint(attrs) != "[b a c]" || fmt.Sprint(missing) != "[#y]" {
		t.Errorf("attrs %v, missing %v, err %v", attrs, missing, err)
	}
}

// BenchmarkExpressionAttributes_distinctNames reads projections of 10,000 and 40,000 distinct
// names; the time per name stays the same when the names are kept in a set.
func BenchmarkExpressionAttributes_distinctNames(b *testing.B) {
	for _, n := range []int{10_000, 40_000} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("a%d", i)
		}
		in := strings.Join(names, ", ")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				dynamo.ExpressionAttributes(in, nil)
			}
		})
	}
}
