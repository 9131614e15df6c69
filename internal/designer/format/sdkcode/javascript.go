package sdkcode

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// The JavaScript is an ES module for Node.js 18 or later with @aws-sdk/lib-dynamodb, whose
// document client takes plain values: a number JavaScript cannot hold exactly is a NumberValue,
// a binary a Buffer, a set a Set.

// jsCommands are lib-dynamodb's command classes, by API operation.
var jsCommands = map[string]string{"GetItem": "GetCommand", "PutItem": "PutCommand", "UpdateItem": "UpdateCommand",
	"DeleteItem": "DeleteCommand", "Query": "QueryCommand", "Scan": "ScanCommand", "BatchGetItem": "BatchGetCommand",
	"BatchWriteItem": "BatchWriteCommand", "TransactGetItems": "TransactGetCommand", "TransactWriteItems": "TransactWriteCommand"}

func jsName(r Request) string {
	return camel(false, append([]string{"pattern" + r.ID}, words(r.Description)...)...)
}

// jsFunction is the request's function and what it needs imported.
func jsFunction(r Request, n *node) (string, []string) {
	var w jsWriter
	cmd := jsCommands[r.Operation]
	input := w.node(n)
	input.broken = true
	var b strings.Builder
	b.WriteString(summary(r, "// "))
	b.WriteString("export function " + jsName(r) + "(doc) {\n  return doc.send(new " + cmd + "(")
	input.write(&b, 1, "  ")
	b.WriteString("));\n}\n")
	imports := []string{cmd}
	if w.numberValue {
		imports = append(imports, "NumberValue")
	}
	return b.String(), imports
}

type jsWriter struct{ numberValue bool }

func (w *jsWriter) node(n *node) block {
	switch n.kind {
	case kString:
		return leaf(jsString(n.str))
	case kInt:
		return leaf(strconv.Itoa(n.num))
	case kBool:
		return leaf(strconv.FormatBool(n.boolean))
	case kList:
		b := block{open: "[", close: "]"}
		for _, e := range n.elems {
			b.parts = append(b.parts, w.node(e))
		}
		return b
	case kAttrVal:
		return w.value(n.value)
	}
	b := block{open: "{", close: "}", spaced: true}
	for _, m := range n.members {
		b.parts = append(b.parts, prefixed(jsKey(m.name)+": ", w.node(m.node)))
	}
	return b
}

// value is an attribute value as the document client takes it.
func (w *jsWriter) value(v designer.Value) block {
	switch v.Type {
	case designer.S:
		return leaf(jsString(v.S))
	case designer.N:
		return leaf(w.number(v.S))
	case designer.B:
		return leaf(jsBinary(v.B))
	case designer.BOOL:
		return leaf(strconv.FormatBool(v.Bool))
	case designer.NULL:
		return leaf("null")
	case designer.M:
		b := block{open: "{", close: "}", spaced: true}
		for _, k := range sortedKeys(v.M) {
			b.parts = append(b.parts, prefixed(jsKey(k)+": ", w.value(v.M[k])))
		}
		return b
	case designer.L:
		b := block{open: "[", close: "]"}
		for _, e := range v.L {
			b.parts = append(b.parts, w.value(e))
		}
		return b
	}
	b := block{open: "new Set([", close: "])"}
	switch v.Type {
	case designer.SS:
		for _, s := range v.SS {
			b.parts = append(b.parts, leaf(jsString(s)))
		}
	case designer.NS:
		for _, s := range v.SS {
			b.parts = append(b.parts, leaf(w.number(s)))
		}
	case designer.BS:
		for _, s := range v.BS {
			b.parts = append(b.parts, leaf(jsBinary(s)))
		}
	}
	return b
}

// number is a JavaScript number when the document client writes it back as the same number, and
// a NumberValue otherwise: the client refuses numbers beyond Number.MAX_SAFE_INTEGER, and a
// double holds about 17 digits of DynamoDB's 38.
func (w *jsWriter) number(text string) string {
	if f, err := strconv.ParseFloat(text, 64); err == nil && math.Abs(f) <= 1<<53-1 {
		short := strconv.FormatFloat(f, 'g', -1, 64)
		if f == math.Trunc(f) {
			short = strconv.FormatFloat(f, 'f', -1, 64)
		}
		a, okA := new(big.Rat).SetString(text)
		b, okB := new(big.Rat).SetString(short)
		if okA && okB && a.Cmp(b) == 0 {
			return short
		}
	}
	w.numberValue = true
	return "NumberValue.from(" + jsString(text) + ")"
}

func jsBinary(b []byte) string {
	return "Buffer.from(" + jsString(base64.StdEncoding.EncodeToString(b)) + ", \"base64\")"
}

// jsString is s as a JavaScript string literal: JSON's, which also escapes U+2028 and U+2029.
func jsString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(buf.String(), "\n")
}

var jsIdentifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// jsKey is a property name in an object literal. "__proto__" is computed, since written plainly
// it would set the object's prototype instead of an attribute.
func jsKey(k string) string {
	switch {
	case k == "__proto__":
		return "[" + jsString(k) + "]"
	case jsIdentifier.MatchString(k):
		return k
	}
	return jsString(k)
}

// jsFile is the module of every request's function.
func jsFile(name string, fns []string, imports []string, table []string) []byte {
	var b strings.Builder
	b.WriteString("// Code per access pattern for " + oneLineText(name) + ": the AWS SDK for JavaScript v3\n")
	b.WriteString("// with @aws-sdk/lib-dynamodb, written by Dynaloom from the design's mappings. Each function\n")
	b.WriteString("// sends one pattern's request, with the values the pattern was proved with, through a\n")
	b.WriteString("// DynamoDBDocumentClient:\n//\n")
	b.WriteString("//   import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";\n")
	b.WriteString("//   import { DynamoDBDocumentClient } from \"@aws-sdk/lib-dynamodb\";\n")
	b.WriteString("//   const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n")
	if len(table) > 0 {
		b.WriteString("//   const answer = await patterns[" + jsString(table[0]) + "](doc);\n")
	}
	slices.Sort(imports)
	imports = slices.Compact(imports)
	if len(imports) > 0 {
		b.WriteString("\nimport { " + strings.Join(imports, ", ") + " } from \"@aws-sdk/lib-dynamodb\";\n")
	}
	for _, f := range fns {
		b.WriteString("\n" + f)
	}
	b.WriteString("\n// Every pattern's function by its number, to run them all (a smoke test after a deploy).\n")
	writeTable(&b, "export const patterns = {", "  ", "};\n", table)
	return []byte(b.String())
}
