package dynamo

import (
	"math/rand/v2"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

// parseSteps parses s as a condition and reports the parser's rule calls beside the number of
// tokens, and the answer parseCondition gives.
func parseSteps(t *testing.T, s string) (steps, tokens int, msg string) {
	t.Helper()
	toks, err := lexExpression(s)
	if err != nil {
		t.Fatalf("lex %q: %v", s, err)
	}
	ctx := NewExprContext(map[string]string{"#n": "a"}, map[string]designer.Value{":v": designer.Num("1")})
	p := &exprParser{src: s, toks: toks, ctx: ctx, pathHeads: map[string]bool{}, nestedPaths: map[string]bool{}}
	p.parseOr()
	_, _, msg = ParseCondition(s, NewExprContext(map[string]string{"#n": "a"}, map[string]designer.Value{":v": designer.Num("1")}))
	return p.steps, len(toks), msg
}

// stepsPerToken bounds the parser's rule calls per token: a packrat parser calls each rule at most
// a few times per position (measured: at most 14).
const stepsPerToken = 16

func TestParseCondition_workIsLinearInNestedParentheses(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 60; n++ {
		open := strings.Repeat("(", n)
		redundant := "The expression has redundant parentheses;"
		if n == 1 {
			redundant = ""
		}
		for _, c := range []struct{ in, want string }{
			{open + "a = :v", `Syntax error; token: "<EOF>", near: ":v"`},
			{open + " a", `Syntax error; token: "a", near: "( a"`},
			{open, `Syntax error; token: "<EOF>", near: "("`},
			{open + "a" + strings.Repeat(")", n) + " = :v", redundant},
			{open + "a = :v" + strings.Repeat(")", n), redundant},
		} {
			steps, tokens, msg := parseSteps(t, c.in)
			if steps > stepsPerToken*tokens {
				t.Fatalf("%q: %d rule calls for %d tokens", c.in, steps, tokens)
			}
			if msg != c.want {
				t.Errorf("%q: %q, want %q", c.in, msg, c.want)
			}
		}
	}
}

func TestParseCondition_tenThousandParenthesesAreTooDeep(t *testing.T) {
	t.Parallel()
	in := strings.Repeat("(", 10_000)
	steps, tokens, msg := parseSteps(t, in)
	if steps > stepsPerToken*tokens {
		t.Errorf("%d rule calls for %d tokens", steps, tokens)
	}
	if msg != "Syntax error; the expression is nested too deeply" {
		t.Errorf("message %q", msg)
	}
}

func TestParseCondition_workIsLinearInRandomNesting(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(12, 34))
	parts := []string{"(", "(", "(", "((", ")", "))", "a", "b.c", "#n", "=", ":v", "AND", "OR", "NOT", ",",
		"size(", "begins_with(", "[0]", "BETWEEN", "IN", "<"}
	for range 300 {
		var b strings.Builder
		for range 5 + r.IntN(30) {
			b.WriteString(strings.Repeat("(", r.IntN(24)))
			for range r.IntN(5) {
				b.WriteString(parts[r.IntN(len(parts))])
				b.WriteByte(' ')
			}
		}
		in := b.String()
		if steps, tokens, _ := parseSteps(t, in); steps > stepsPerToken*tokens {
			t.Fatalf("%q: %d rule calls for %d tokens", in, steps, tokens)
		}
	}
}

// BenchmarkParseCondition_unclosedParentheses parses 34 unclosed parentheses before a
// comparison, which took seconds while the parser backtracked without a memo.
func BenchmarkParseCondition_unclosedParentheses(b *testing.B) {
	in := strings.Repeat("(", 34) + "a = :v"
	for b.Loop() {
		ParseCondition(in, NewExprContext(nil, map[string]designer.Value{":v": designer.Num("1")}))
	}
}

// A request's expressions are held to DynamoDB's 4 KB before they are parsed, so a request body
// of megabytes cannot make the parser build a memo of megabytes; the refusal names the expression.
func TestEvaluateJSON_expressionsOver4KBAreRefused(t *testing.T) {
	t.Parallel()
	d := designer.Design{Tables: []designer.Table{{Name: "Tbl", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}}}}
	long := strings.Repeat("(", 4000) + "pk = :p" + strings.Repeat(")", 4000)
	body := `{"TableName":"Tbl","KeyConditionExpression":"pk = :p","FilterExpression":"` + long + `","ExpressionAttributeValues":{":p":{"S":"x"}}}`
	_, err := EvaluateJSON(d, "Query", []byte(body))
	if err == nil || !strings.Contains(err.Error(), "Invalid FilterExpression") || !strings.Contains(err.Error(), "maximum allowed size") {
		t.Fatalf("an 8 KB filter: %v", err)
	}
	ok := strings.Repeat("(", 100) + "pk = :p" + strings.Repeat(")", 100)
	body = `{"TableName":"Tbl","KeyConditionExpression":"` + ok + `","ExpressionAttributeValues":{":p":{"S":"x"}}}`
	if _, err := EvaluateJSON(d, "Query", []byte(body)); err != nil && strings.Contains(err.Error(), "maximum allowed size") {
		t.Fatalf("a short expression was refused for its size: %v", err)
	}
}

// FuzzParseCondition_workPerToken holds the parser to stepsPerToken rule calls per token on any
// input that lexes.
func FuzzParseCondition_workPerToken(f *testing.F) {
	for _, s := range []string{"a = :v", "((((a = :v", "NOT NOT NOT a", "size(size(size(a))) < :v", "a IN (:v, :v, :v)", "a BETWEEN :v AND :v AND b = :v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := lexExpression(s)
		if err != nil {
			return
		}
		ctx := NewExprContext(map[string]string{"#n": "a"}, map[string]designer.Value{":v": designer.Num("1")})
		p := &exprParser{src: s, toks: toks, ctx: ctx, pathHeads: map[string]bool{}, nestedPaths: map[string]bool{}}
		p.parseOr()
		if p.steps > stepsPerToken*(len(toks)+1) {
			t.Fatalf("%q: %d rule calls for %d tokens", s, p.steps, len(toks))
		}
	})
}
