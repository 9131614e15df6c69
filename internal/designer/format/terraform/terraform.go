// Package terraform writes the terraform export: one aws_dynamodb_table resource of the AWS
// provider per table of the design, written with hclwrite. docs/exports.md ("terraform") says how.
package terraform

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/tabledef"
)

// ProviderVersion is the AWS provider whose aws_dynamodb_table schema the export is checked
// against (test/terraform): @cdktf/provider-aws 21.22.1 is generated from it.
const ProviderVersion = "6.25.0"

// Export writes the design's tables as Terraform: a name_prefix and a point_in_time_recovery
// variable, then one aws_dynamodb_table per table with its keys, indexes, projections, TTL,
// billing, point-in-time recovery and table class, under a comment listing what it left out. A
// name DynamoDB would refuse, or a key or index DynamoDB cannot create, is a *ValidationError
// naming the field, as the CloudFormation export refuses it.
func Export(d designer.Design) ([]byte, error) {
	if len(d.Tables) == 0 {
		return nil, designer.Invalid("tables", "the design has no tables; a Terraform file of DynamoDB tables needs at least one")
	}
	defs, err := tabledef.Tables(d, true)
	if err != nil {
		return nil, err
	}
	if err := tabledef.SetClasses(d, defs); err != nil {
		return nil, err
	}

	f := hclwrite.NewEmptyFile()
	root := f.Body()
	root.AppendUnstructuredTokens(comment(header(d)))
	root.AppendNewline()

	prefix := root.AppendNewBlock("variable", []string{"name_prefix"})
	prefix.Body().SetAttributeRaw("type", hclwrite.TokensForIdentifier("string"))
	prefix.Body().SetAttributeValue("description", cty.StringVal("Put before every table name, such as \"dev-\"; empty by default."))
	prefix.Body().SetAttributeValue("default", cty.StringVal(""))
	root.AppendNewline()
	pitr := root.AppendNewBlock("variable", []string{"point_in_time_recovery"})
	pitr.Body().SetAttributeRaw("type", hclwrite.TokensForIdentifier("bool"))
	pitr.Body().SetAttributeValue("description", cty.StringVal("Whether the tables keep continuous backups; the design does not say."))
	pitr.Body().SetAttributeValue("default", cty.True)

	for i, label := range resourceNames(d.Tables) {
		root.AppendNewline()
		writeTable(root.AppendNewBlock("resource", []string{"aws_dynamodb_table", label}).Body(), d.Tables[i], defs[i])
	}
	return f.Bytes(), nil
}

// LeftOut lists what the Terraform file cannot hold of d: everything beyond the tables'
// definitions, and each GSI whose key has several attributes, which the provider's
// global_secondary_index cannot write (one hash_key, one range_key).
func LeftOut(d designer.Design) []string {
	out := tabledef.NotTables(d)
	for _, t := range d.Tables {
		for _, ix := range t.GSIs {
			if multiAttribute(ix) {
				out = append(out, fmt.Sprintf("GSI %s of table %s, whose key has several attributes (%s): the AWS provider %s takes one hash_key and one range_key per index", ix.Name, t.Name, keyList(ix), ProviderVersion))
			}
		}
	}
	return out
}

func multiAttribute(ix designer.Index) bool { return len(ix.PartitionKey) > 1 || len(ix.SortKey) > 1 }

func keyList(ix designer.Index) string {
	names := func(ks []designer.KeyAttribute) string {
		var s []string
		for _, k := range ks {
			s = append(s, k.Name)
		}
		return strings.Join(s, " + ")
	}
	if len(ix.SortKey) == 0 {
		return names(ix.PartitionKey)
	}
	return names(ix.PartitionKey) + " / " + names(ix.SortKey)
}

func header(d designer.Design) []string {
	name := oneLine(d.Name)
	lines := []string{"Amazon DynamoDB tables of the Dynaloom design “" + name + "”, for the AWS provider (hashicorp/aws 6.x)."}
	if strings.TrimSpace(name) == "" {
		lines[0] = "Amazon DynamoDB tables of a Dynaloom design, for the AWS provider (hashicorp/aws 6.x)."
	}
	left := LeftOut(d)
	if len(left) == 0 {
		return append(lines, "", "This file holds the whole design.")
	}
	lines = append(lines, "", "What this file leaves out of the design:")
	for _, l := range left {
		lines = append(lines, "- "+oneLine(l))
	}
	return lines
}

// oneLine keeps a name or line from ending its comment: control characters become spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

func comment(lines []string) hclwrite.Tokens {
	var ts hclwrite.Tokens
	for _, l := range lines {
		text := "#"
		if l != "" {
			text += " " + l
		}
		ts = append(ts, &hclwrite.Token{Type: hclsyntax.TokenComment, Bytes: []byte(text + "\n")})
	}
	return ts
}

func writeTable(b *hclwrite.Body, t designer.Table, def tabledef.Table) {
	b.SetAttributeRaw("name", prefixed(def.TableName))
	b.SetAttributeValue("billing_mode", cty.StringVal(def.BillingMode))
	if tp := def.ProvisionedThroughput; tp != nil {
		b.SetAttributeValue("read_capacity", cty.NumberIntVal(tp.ReadCapacityUnits))
		b.SetAttributeValue("write_capacity", cty.NumberIntVal(tp.WriteCapacityUnits))
	}
	b.SetAttributeValue("hash_key", cty.StringVal(def.KeySchema[0].AttributeName))
	if len(def.KeySchema) > 1 {
		b.SetAttributeValue("range_key", cty.StringVal(def.KeySchema[1].AttributeName))
	}
	if def.TableClass != "" {
		b.SetAttributeValue("table_class", cty.StringVal(def.TableClass))
	}

	// Only the attributes of the keys written are declared: the provider, like DynamoDB, refuses
	// an attribute no key uses, such as one only a left-out GSI has.
	used := map[string]bool{}
	for _, e := range def.KeySchema {
		used[e.AttributeName] = true
	}
	var gsis []tabledef.Index
	for j, ix := range def.GlobalSecondaryIndexes {
		if multiAttribute(t.GSIs[j]) {
			continue
		}
		gsis = append(gsis, ix)
		for _, e := range ix.KeySchema {
			used[e.AttributeName] = true
		}
	}
	for _, ix := range def.LocalSecondaryIndexes {
		for _, e := range ix.KeySchema {
			used[e.AttributeName] = true
		}
	}
	for _, a := range def.AttributeDefinitions {
		if !used[a.AttributeName] {
			continue
		}
		b.AppendNewline()
		ab := b.AppendNewBlock("attribute", nil).Body()
		ab.SetAttributeValue("name", cty.StringVal(a.AttributeName))
		ab.SetAttributeValue("type", cty.StringVal(string(a.AttributeType)))
	}

	for _, ix := range gsis {
		b.AppendNewline()
		gb := b.AppendNewBlock("global_secondary_index", nil).Body()
		gb.SetAttributeValue("name", cty.StringVal(ix.IndexName))
		for _, e := range ix.KeySchema {
			if e.KeyType == "HASH" {
				gb.SetAttributeValue("hash_key", cty.StringVal(e.AttributeName))
			} else {
				gb.SetAttributeValue("range_key", cty.StringVal(e.AttributeName))
			}
		}
		writeProjection(gb, ix.Projection)
		if tp := ix.ProvisionedThroughput; tp != nil {
			gb.SetAttributeValue("read_capacity", cty.NumberIntVal(tp.ReadCapacityUnits))
			gb.SetAttributeValue("write_capacity", cty.NumberIntVal(tp.WriteCapacityUnits))
		}
	}
	for _, ix := range def.LocalSecondaryIndexes {
		b.AppendNewline()
		lb := b.AppendNewBlock("local_secondary_index", nil).Body()
		lb.SetAttributeValue("name", cty.StringVal(ix.IndexName))
		lb.SetAttributeValue("range_key", cty.StringVal(ix.KeySchema[len(ix.KeySchema)-1].AttributeName))
		writeProjection(lb, ix.Projection)
	}

	if ttl := def.TimeToLiveSpecification; ttl != nil {
		b.AppendNewline()
		tb := b.AppendNewBlock("ttl", nil).Body()
		tb.SetAttributeValue("attribute_name", cty.StringVal(ttl.AttributeName))
		tb.SetAttributeValue("enabled", cty.True)
	}
	b.AppendNewline()
	pb := b.AppendNewBlock("point_in_time_recovery", nil).Body()
	pb.SetAttributeTraversal("enabled", variable("point_in_time_recovery"))
}

func writeProjection(b *hclwrite.Body, p tabledef.Projection) {
	b.SetAttributeValue("projection_type", cty.StringVal(p.ProjectionType))
	if len(p.NonKeyAttributes) == 0 {
		return
	}
	names := make([]cty.Value, len(p.NonKeyAttributes))
	for i, a := range p.NonKeyAttributes {
		names[i] = cty.StringVal(a)
	}
	b.SetAttributeValue("non_key_attributes", cty.ListVal(names))
}

func variable(name string) hcl.Traversal {
	return hcl.Traversal{hcl.TraverseRoot{Name: "var"}, hcl.TraverseAttr{Name: name}}
}

// prefixed writes "${var.name_prefix}NAME". A table name is letters, digits, "_", "." and "-"
// (tabledef has checked it), none of which a template needs to escape.
func prefixed(name string) hclwrite.Tokens {
	ts := hclwrite.Tokens{
		{Type: hclsyntax.TokenOQuote, Bytes: []byte(`"`)},
		{Type: hclsyntax.TokenTemplateInterp, Bytes: []byte("${")},
	}
	ts = append(ts, hclwrite.TokensForTraversal(variable("name_prefix"))...)
	return append(ts,
		&hclwrite.Token{Type: hclsyntax.TokenTemplateSeqEnd, Bytes: []byte("}")},
		&hclwrite.Token{Type: hclsyntax.TokenQuotedLit, Bytes: []byte(name)},
		&hclwrite.Token{Type: hclsyntax.TokenCQuote, Bytes: []byte(`"`)},
	)
}

// resourceNames derives a Terraform resource name from each table name: lower-case letters,
// digits and "_" (CamelCase words split by "_"), starting with a letter, unique in the file, the same for the same tables.
func resourceNames(tables []designer.Table) []string {
	out := make([]string, len(tables))
	used := make(map[string]bool, len(tables))
	for i, t := range tables {
		var b strings.Builder
		prev := rune(0)
		for _, r := range t.Name {
			switch {
			case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
				b.WriteRune(r)
			case 'A' <= r && r <= 'Z':
				if 'a' <= prev && prev <= 'z' || '0' <= prev && prev <= '9' {
					b.WriteByte('_') // PunchLists → punch_lists
				}
				b.WriteRune(unicode.ToLower(r))
			default:
				b.WriteByte('_')
			}
			prev = r
		}
		base := b.String()
		if base == "" || base[0] < 'a' || base[0] > 'z' {
			base = "table_" + base
		}
		name := base
		for n := 2; used[name]; n++ {
			name = base + "_" + strconv.Itoa(n)
		}
		used[name] = true
		out[i] = name
	}
	return out
}
