package sdkcode

import (
	"go/format"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// The Go is a package of functions over the AWS SDK for Go v2's *dynamodb.Client, its input
// structures written out member by member.

func goName(r Request) string {
	return camel(true, append([]string{"pattern" + r.ID}, words(r.Description)...)...)
}

func goFunction(r Request, n *node) string {
	input := goNode(n, false)
	input.broken = true
	var b strings.Builder
	lines := strings.SplitN(summary(r, ""), "\n", 3)
	b.WriteString("// " + goName(r) + " sends pattern " + r.ID + "'s " + lines[1] + ":\n// " + strings.TrimPrefix(lines[0], r.ID+". ") + "\n")
	b.WriteString("func " + goName(r) + "(ctx context.Context, client *dynamodb.Client) (*dynamodb." + r.Operation + "Output, error) {\n")
	b.WriteString("\treturn client." + r.Operation + "(ctx, ")
	input.write(&b, 1, "\t")
	b.WriteString(")\n}\n")
	return b.String()
}

// goNode writes n; elided leaves out the type of a struct inside a list or map, which Go infers.
func goNode(n *node, elided bool) block {
	switch n.kind {
	case kString:
		return leaf("aws.String(" + strconv.Quote(n.str) + ")")
	case kInt:
		return leaf("aws.Int32(" + strconv.Itoa(n.num) + ")")
	case kBool:
		return leaf("aws.Bool(" + strconv.FormatBool(n.boolean) + ")")
	case kStruct:
		b := block{open: "{", close: "}"}
		if !elided {
			b.open = n.goType + "{"
			if n.pointer || strings.HasPrefix(n.goType, "dynamodb.") {
				b.open = "&" + b.open
			}
		}
		for _, m := range n.members {
			b.parts = append(b.parts, prefixed(m.name+": ", goNode(m.node, false)))
		}
		return b
	case kList:
		b := block{open: "[]" + n.goType + "{", close: "}"}
		if elided {
			b.open = "{"
		}
		for _, e := range n.elems {
			b.parts = append(b.parts, goNode(e, true))
		}
		return b
	case kMap:
		b := block{open: "map[string]" + n.goType + "{", close: "}"}
		for _, m := range n.members {
			b.parts = append(b.parts, prefixed(strconv.Quote(m.name)+": ", goNode(m.node, true)))
		}
		return b
	case kNames:
		b := block{open: "map[string]string{", close: "}"}
		for _, m := range n.members {
			b.parts = append(b.parts, leaf(strconv.Quote(m.name)+": "+strconv.Quote(m.node.str)))
		}
		return b
	case kItem:
		b := block{open: "map[string]types.AttributeValue{", close: "}"}
		if elided {
			b.open = "{"
		}
		for _, m := range n.members {
			b.parts = append(b.parts, prefixed(strconv.Quote(m.name)+": ", goValue(m.node.value)))
		}
		return b
	}
	return goValue(n.value)
}

// goValue is an attribute value as one of the SDK's AttributeValueMember types.
func goValue(v designer.Value) block {
	member := func(inner block) block {
		return block{open: "&types.AttributeValueMember" + string(v.Type) + "{", close: "}",
			parts: []block{prefixed("Value: ", inner)}}
	}
	switch v.Type {
	case designer.S, designer.N:
		return member(leaf(strconv.Quote(v.S)))
	case designer.B:
		return member(leaf(goBytes(v.B)))
	case designer.BOOL:
		return member(leaf(strconv.FormatBool(v.Bool)))
	case designer.NULL:
		return member(leaf("true"))
	case designer.M:
		b := block{open: "map[string]types.AttributeValue{", close: "}"}
		for _, k := range sortedKeys(v.M) {
			b.parts = append(b.parts, prefixed(strconv.Quote(k)+": ", goValue(v.M[k])))
		}
		return member(b)
	case designer.L:
		b := block{open: "[]types.AttributeValue{", close: "}"}
		for _, e := range v.L {
			b.parts = append(b.parts, goValue(e))
		}
		return member(b)
	case designer.BS:
		b := block{open: "[][]byte{", close: "}"}
		for _, s := range v.BS {
			b.parts = append(b.parts, leaf(goBytes(s)))
		}
		return member(b)
	}
	b := block{open: "[]string{", close: "}"} // SS and NS
	for _, s := range v.SS {
		b.parts = append(b.parts, leaf(strconv.Quote(s)))
	}
	return member(b)
}

func goBytes(b []byte) string { return "[]byte(" + strconv.Quote(string(b)) + ")" }

// goFile is the package of every request's function, formatted as gofmt formats it.
func goFile(name string, fns []string, table []string) ([]byte, error) {
	var b strings.Builder
	b.WriteString("// Package dynamodbpatterns is code per access pattern for " + oneLineText(name) + ": the\n")
	b.WriteString("// AWS SDK for Go v2, written by Dynaloom from the design's mappings. Each function sends one\n")
	b.WriteString("// pattern's request, with the values the pattern was proved with:\n//\n")
	b.WriteString("//\tcfg, err := config.LoadDefaultConfig(ctx)\n")
	b.WriteString("//\tclient := dynamodb.NewFromConfig(cfg)\n")
	if len(table) > 0 {
		b.WriteString("//\tanswer, err := dynamodbpatterns.Patterns[" + strconv.Quote(table[0]) + "](ctx, client)\n")
	}
	b.WriteString("package dynamodbpatterns\n\nimport (\n\t\"context\"\n\n")
	body := strings.Join(fns, "\n")
	if strings.Contains(body, "aws.") {
		b.WriteString("\t\"github.com/aws/aws-sdk-go-v2/aws\"\n")
	}
	b.WriteString("\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n")
	if strings.Contains(body, "types.") {
		b.WriteString("\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n")
	}
	b.WriteString(")\n")
	for _, f := range fns {
		b.WriteString("\n" + f)
	}
	b.WriteString("\n// Patterns runs every pattern's function by its number, to run them all (a smoke test after a deploy).\n")
	b.WriteString("var Patterns = map[string]func(context.Context, *dynamodb.Client) (any, error){\n")
	for i := 0; i+1 < len(table); i += 2 {
		b.WriteString(strconv.Quote(table[i]) + ": func(ctx context.Context, c *dynamodb.Client) (any, error) {\n\treturn " +
			table[i+1] + "(ctx, c)\n},\n")
	}
	b.WriteString("}\n")
	return format.Source([]byte(b.String()))
}
