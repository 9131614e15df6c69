package sdkcode

import (
	"fmt"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// The Python calls boto3's low-level DynamoDB client, which takes values in DynamoDB's own
// typed form ({"N": "42"}): numbers keep every digit and nothing needs converting.

func pyName(r Request) string {
	return strings.Join(append([]string{"pattern", strings.ToLower(r.ID)}, words(r.Description)...), "_")
}

// pyMethod is the client's method for an operation: BatchWriteItem → batch_write_item.
func pyMethod(op string) string {
	var b strings.Builder
	for i, r := range op {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}

func pyFunction(r Request, n *node) string {
	call := block{open: "client." + pyMethod(r.Operation) + "(", close: ")", broken: true}
	for _, m := range n.members {
		call.parts = append(call.parts, prefixed(m.name+"=", pyNode(m.node)))
	}
	var b strings.Builder
	b.WriteString(summary(r, "# "))
	b.WriteString("def " + pyName(r) + "(client):\n    return ")
	call.write(&b, 1, "    ")
	b.WriteString("\n")
	return b.String()
}

func pyNode(n *node) block {
	switch n.kind {
	case kString:
		return leaf(jsString(n.str)) // JSON's escapes are Python's too
	case kInt:
		return leaf(strconv.Itoa(n.num))
	case kBool:
		return leaf(pyBool(n.boolean))
	case kList:
		b := block{open: "[", close: "]"}
		for _, e := range n.elems {
			b.parts = append(b.parts, pyNode(e))
		}
		return b
	case kAttrVal:
		return pyValue(n.value)
	}
	b := block{open: "{", close: "}"}
	for _, m := range n.members {
		b.parts = append(b.parts, prefixed(jsString(m.name)+": ", pyNode(m.node)))
	}
	return b
}

// pyValue is an attribute value in DynamoDB's typed form, binaries as bytes.
func pyValue(v designer.Value) block {
	typed := func(inner block) block {
		return block{open: "{", close: "}", parts: []block{prefixed(jsString(string(v.Type))+": ", inner)}}
	}
	switch v.Type {
	case designer.S, designer.N:
		return typed(leaf(jsString(v.S)))
	case designer.B:
		return typed(leaf(pyBytes(v.B)))
	case designer.BOOL:
		return typed(leaf(pyBool(v.Bool)))
	case designer.NULL:
		return typed(leaf("True"))
	case designer.M:
		b := block{open: "{", close: "}"}
		for _, k := range sortedKeys(v.M) {
			b.parts = append(b.parts, prefixed(jsString(k)+": ", pyValue(v.M[k])))
		}
		return typed(b)
	}
	b := block{open: "[", close: "]"}
	switch v.Type {
	case designer.L:
		for _, e := range v.L {
			b.parts = append(b.parts, pyValue(e))
		}
	case designer.SS, designer.NS:
		for _, s := range v.SS {
			b.parts = append(b.parts, leaf(jsString(s)))
		}
	case designer.BS:
		for _, s := range v.BS {
			b.parts = append(b.parts, leaf(pyBytes(s)))
		}
	}
	return typed(b)
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// pyBytes is a bytes literal: printable ASCII as it is, everything else escaped.
func pyBytes(data []byte) string {
	var b strings.Builder
	b.WriteString(`b"`)
	for _, c := range data {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func pyFile(name string, fns []string, table []string) []byte {
	var b strings.Builder
	b.WriteString("# Code per access pattern for " + oneLineText(name) + ": boto3's DynamoDB client, written\n")
	b.WriteString("# by Dynaloom from the design's mappings. Each function sends one pattern's request, with the\n")
	b.WriteString("# values the pattern was proved with:\n#\n")
	b.WriteString("#   import boto3\n")
	b.WriteString("#   client = boto3.client(\"dynamodb\")\n")
	if len(table) > 0 {
		b.WriteString("#   answer = PATTERNS[" + jsString(table[0]) + "](client)\n")
	}
	for _, f := range fns {
		b.WriteString("\n\n" + f)
	}
	b.WriteString("\n\n# Every pattern's function by its number, to run them all (a smoke test after a deploy).\n")
	writeTable(&b, "PATTERNS = {", "    ", "}\n", table)
	return []byte(b.String())
}
