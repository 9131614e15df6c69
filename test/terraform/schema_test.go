// Package terraform checks the terraform export against the AWS provider's own schema of
// aws_dynamodb_table, as @cdktf/provider-aws generates it from the provider (pinned in
// package.json; install it with `npm ci --prefix test/terraform`).
//
// Why not `terraform validate`: no Terraform binary installs here. Debian has none, npm's
// `terraform` is an unrelated template engine, and `@jahed/terraform` downloads Terraform from
// HashiCorp when it first runs, which fails on a machine that reaches the package registries only.
// The provider's schema is what validate would check the resource against; the Terraform
// language itself (variables, references, templates) is checked by parsing and evaluating the
// file with hcl/v2.
package terraform

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	tf "dynaloom/internal/designer/format/terraform"
)

// schemaFile is the generated binding of aws_dynamodb_table: for the resource and each nested
// block, a function that writes its arguments and blocks under their Terraform names.
const schemaFile = "node_modules/@cdktf/provider-aws/lib/dynamodb-table/index.js"

// field is one argument or nested block of the schema.
type field struct {
	block   bool
	storage string // string, number, boolean, stringList, … for an argument
	child   string // the nested block's schema, for a block
}

type schema map[string]map[string]field // by block schema name ("" for the resource), by name

var (
	blockFunc = regexp.MustCompile(`(?m)^function (dynamodbTable\w*)ToHclTerraform\(struct\) \{`)
	entry     = regexp.MustCompile(`(\w+): \{\s*value: ([^\n]*),\s*isBlock: (true|false),\s*type: "\w+",\s*storageClassType: "(\w+)",\s*\}`)
	childRef  = regexp.MustCompile(`(dynamodbTable\w*)ToHclTerraform`)
)

func loadSchema(t *testing.T) schema {
	t.Helper()
	src, err := os.ReadFile(schemaFile)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI requires the AWS provider's schema: %v; run npm ci --prefix test/terraform", err)
		}
		t.Skipf("the AWS provider's schema is not installed (%v); run npm ci --prefix test/terraform", err)
	}
	text := string(src)
	s := schema{}
	parse := func(name, body string) {
		fields := map[string]field{}
		for _, m := range entry.FindAllStringSubmatch(body, -1) {
			f := field{block: m[3] == "true", storage: m[4]}
			if f.block {
				c := childRef.FindStringSubmatch(m[2])
				if c == nil {
					t.Fatalf("block %s of %q names no schema: %s", m[1], name, m[2])
				}
				f.child = c[1]
			}
			fields[m[1]] = f
		}
		s[name] = fields
	}
	locs := blockFunc.FindAllStringSubmatchIndex(text, -1)
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := text[l[1]:end]
		if c := strings.Index(body, "\nclass "); c >= 0 {
			body = body[:c]
		}
		parse(text[l[2]:l[3]], body)
	}
	root := strings.Index(text, "synthesizeHclAttributes() {")
	if root < 0 {
		t.Fatalf("%s has no synthesizeHclAttributes: the binding's layout changed", schemaFile)
	}
	parse("", text[root:])
	for _, want := range []string{"hash_key", "global_secondary_index", "ttl", "attribute"} {
		if _, ok := s[""][want]; !ok {
			t.Fatalf("the schema read from %s lacks %s (read %d fields): the binding's layout changed", schemaFile, want, len(s[""]))
		}
	}
	return s
}

// check lists every argument or block of src that the schema does not have where it is written,
// or whose value is of another kind, and adds each resource path written to seen.
func check(t *testing.T, s schema, src []byte, seen map[string]bool) []string {
	t.Helper()
	f, diags := hclparse.NewParser().ParseHCL(src, "dynamodb.tf")
	if diags.HasErrors() {
		t.Fatalf("hcl/v2 does not parse the export: %v", diags)
	}
	body := f.Body.(*hclsyntax.Body)
	vars := map[string]cty.Value{}
	for _, b := range body.Blocks {
		if b.Type == "variable" {
			def, diags := b.Body.Attributes["default"].Expr.Value(nil)
			if diags.HasErrors() {
				t.Fatalf("variable %s: %v", b.Labels[0], diags)
			}
			vars[b.Labels[0]] = def
		}
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)}}
	var bad []string
	var walk func(path, schemaName string, b *hclsyntax.Body)
	walk = func(path, schemaName string, b *hclsyntax.Body) {
		fields := s[schemaName]
		for name, a := range b.Attributes {
			at := path + "." + name
			seen[at] = true
			fd, ok := fields[name]
			if !ok || fd.block {
				bad = append(bad, at+": no such argument")
				continue
			}
			v, diags := a.Expr.Value(ctx)
			if diags.HasErrors() {
				bad = append(bad, fmt.Sprintf("%s: %v", at, diags))
				continue
			}
			if !kindOf(fd.storage, v) {
				bad = append(bad, fmt.Sprintf("%s: a %s, the schema takes %s", at, v.Type().FriendlyName(), fd.storage))
			}
		}
		for _, nb := range b.Blocks {
			at := path + "." + nb.Type
			seen[at] = true
			fd, ok := fields[nb.Type]
			if !ok || !fd.block {
				bad = append(bad, at+": no such block")
				continue
			}
			walk(at, fd.child, nb.Body)
		}
	}
	for _, b := range body.Blocks {
		switch {
		case b.Type == "variable":
		case b.Type == "resource" && len(b.Labels) == 2 && b.Labels[0] == "aws_dynamodb_table":
			walk("aws_dynamodb_table", "", b.Body)
		default:
			bad = append(bad, fmt.Sprintf("a %s block %v, which the export is not meant to write", b.Type, b.Labels))
		}
	}
	return bad
}

func kindOf(storage string, v cty.Value) bool {
	switch storage {
	case "string":
		return v.Type() == cty.String
	case "number":
		return v.Type() == cty.Number
	case "boolean":
		return v.Type() == cty.Bool
	case "stringList":
		if !v.Type().IsTupleType() && !v.Type().IsListType() {
			return false
		}
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); e.Type() != cty.String {
				return false
			}
		}
		return true
	}
	return false
}

func TestTerraform_everyArgumentAndBlockIsInTheProviderSchema(t *testing.T) {
	s := loadSchema(t)
	designs := map[string]designer.Design{"orders": designertest.OrdersDesign(), "hr": designertest.HRDesign(t)}
	ia := designertest.OrdersDesign()
	ia.Tables[0].TableClass = designer.StandardIAClass
	designs["orders, infrequent access"] = ia
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		designs["example "+ex.ID] = d
	}
	seen := map[string]bool{}
	for name, d := range designs {
		src, err := tf.Export(d)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, b := range check(t, s, src, seen) {
			t.Errorf("%s: %s", name, b)
		}
	}
	// Each thing the export can write was written by some design above, so each was checked.
	for _, want := range []string{"name", "billing_mode", "read_capacity", "write_capacity", "hash_key", "range_key", "table_class",
		"attribute.name", "attribute.type", "ttl.attribute_name", "ttl.enabled", "point_in_time_recovery.enabled",
		"global_secondary_index.name", "global_secondary_index.hash_key", "global_secondary_index.range_key",
		"global_secondary_index.projection_type", "global_secondary_index.non_key_attributes",
		"global_secondary_index.read_capacity", "global_secondary_index.write_capacity",
		"local_secondary_index.name", "local_secondary_index.range_key", "local_secondary_index.projection_type"} {
		if !seen["aws_dynamodb_table."+want] {
			t.Errorf("no design wrote aws_dynamodb_table.%s, so it went unchecked", want)
		}
	}
	t.Logf("checked %d paths of %d designs against the AWS provider %s schema", len(seen), len(designs), tf.ProviderVersion)
}

// The check itself finds an argument the provider does not have, one in the wrong block, and a
// value of the wrong kind.
func TestTerraform_theCheckFindsWhatTheSchemaLacks(t *testing.T) {
	s := loadSchema(t)
	src := []byte(`resource "aws_dynamodb_table" "x" {
  name = "x"
  hash_keys = "id"
  read_capacity = "five"
  global_secondary_index {
    name = "g"
    attribute_name = "a"
  }
  ttl {
    enabled = true
    ttl { enabled = true }
  }
}
`)
	got := check(t, s, src, map[string]bool{})
	slices.Sort(got)
	want := []string{
		"aws_dynamodb_table.global_secondary_index.attribute_name: no such argument",
		"aws_dynamodb_table.hash_keys: no such argument",
		"aws_dynamodb_table.read_capacity: a string, the schema takes number",
		"aws_dynamodb_table.ttl.ttl: no such block",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("check found %q, want %q", got, want)
	}
}
