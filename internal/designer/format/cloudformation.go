package format

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// The cloudformation-json export is a CloudFormation template with one AWS::DynamoDB::Table per
// table of the design. Its table properties are the same as the tables of the mcp-model-json
// export (mcpmodel.go), because CloudFormation and CreateTable use the same property names; only
// TimeToLiveSpecification is CloudFormation's alone. Decisions worth knowing:
//
//   - AttributeDefinitions lists only the key attributes of the table and its indexes, each once,
//     sorted by name: DynamoDB refuses a definition that no key schema uses.
//   - A multi-attribute GSI key is written as CloudFormation writes it since November 2025: several
//     HASH elements, then several RANGE elements, in key order.
//   - An INCLUDE projection leaves out the key attributes it lists and any repeats, and becomes
//     KEYS_ONLY when nothing is left; the index is the same, since every entry holds its keys, and
//     DynamoDB refuses the list otherwise.
//   - A PROVISIONED table gives each of its GSIs the table's read and write units, since the design
//     records capacity units per table only. LSIs share the table's capacity and take none.
//   - Logical ids are the table name's letters and digits in CamelCase followed by "Table"
//     ("order-items" → OrderItemsTable); a name that gives the id of an earlier table gets "2",
//     "3", … after it.

// cfnFormatVersion is the only template format version CloudFormation has.
const cfnFormatVersion = "2010-09-09"

// cfnDescriptionMax is CloudFormation's limit on a template description, in bytes.
const cfnDescriptionMax = 1024

// tableDefinition is one table as CreateTable and AWS::DynamoDB::Table describe it.
type tableDefinition struct {
	TableName               string                `json:"TableName"`
	AttributeDefinitions    []attributeDefinition `json:"AttributeDefinitions"`
	KeySchema               []keySchemaElement    `json:"KeySchema"`
	GlobalSecondaryIndexes  []indexDefinition     `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes   []indexDefinition     `json:"LocalSecondaryIndexes,omitempty"`
	BillingMode             string                `json:"BillingMode"`
	ProvisionedThroughput   *throughput           `json:"ProvisionedThroughput,omitempty"`
	TimeToLiveSpecification *ttlSpecification     `json:"TimeToLiveSpecification,omitempty"`
}

type attributeDefinition struct {
	AttributeName string        `json:"AttributeName"`
	AttributeType designer.Type `json:"AttributeType"`
}

type keySchemaElement struct {
	AttributeName string `json:"AttributeName"`
	KeyType       string `json:"KeyType"`
}

type indexDefinition struct {
	IndexName             string               `json:"IndexName"`
	KeySchema             []keySchemaElement   `json:"KeySchema"`
	Projection            projectionDefinition `json:"Projection"`
	ProvisionedThroughput *throughput          `json:"ProvisionedThroughput,omitempty"`
}

type projectionDefinition struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

type throughput struct {
	ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
	WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
}

type ttlSpecification struct {
	AttributeName string `json:"AttributeName"`
	Enabled       bool   `json:"Enabled"`
}

type cfnTemplate struct {
	AWSTemplateFormatVersion string                 `json:"AWSTemplateFormatVersion"`
	Description              string                 `json:"Description"`
	Resources                map[string]cfnResource `json:"Resources"`
}

type cfnResource struct {
	Type       string          `json:"Type"`
	Properties tableDefinition `json:"Properties"`
}

// ExportCloudFormationJSON writes the design's tables as a CloudFormation template (JSON): one
// AWS::DynamoDB::Table per table with its keys, indexes, projections, TTL and billing mode. A name
// DynamoDB would refuse, or a key or index DynamoDB cannot create, is a *ValidationError naming
// the field, such as tables/2/name.
func ExportCloudFormationJSON(d designer.Design) ([]byte, error) {
	if len(d.Tables) == 0 {
		return nil, designer.Invalid("tables", "the design has no tables; a CloudFormation template needs at least one resource")
	}
	defs, err := tableDefinitions(d, true)
	if err != nil {
		return nil, err
	}
	tpl := cfnTemplate{
		AWSTemplateFormatVersion: cfnFormatVersion,
		Description:              cfnDescription(d.Name),
		Resources:                make(map[string]cfnResource, len(defs)),
	}
	for i, id := range logicalIDs(d.Tables) {
		tpl.Resources[id] = cfnResource{Type: "AWS::DynamoDB::Table", Properties: defs[i]}
	}
	return encodeIndented(tpl)
}

func cfnDescription(name string) string {
	desc := "Amazon DynamoDB tables of the Dynaloom design “" + name + "”"
	if strings.TrimSpace(name) == "" {
		desc = "Amazon DynamoDB tables of a Dynaloom design"
	}
	if len(desc) <= cfnDescriptionMax {
		return desc
	}
	cut := cfnDescriptionMax - len("…”")
	for cut > 0 && !utf8.RuneStart(desc[cut]) {
		cut--
	}
	return desc[:cut] + "…”"
}

// encodeIndented writes v as JSON indented by two spaces, ending with a newline. "<", ">" and "&"
// stay as written: expressions such as "price > :min" are common and would read badly escaped.
func encodeIndented(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	return buf.Bytes(), nil
}

// logicalIDs derives a CloudFormation logical id from each table name: letters and digits only,
// unique in the template, the same for the same tables.
func logicalIDs(tables []designer.Table) []string {
	const maxBase = 240 // leaves room for "Table" and a counter within CloudFormation's 255
	ids := make([]string, len(tables))
	used := make(map[string]bool, len(tables))
	for i, t := range tables {
		var b strings.Builder
		upper := true
		for _, r := range t.Name {
			isAlnum := 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
			switch {
			case !isAlnum:
				upper = true
			case b.Len() >= maxBase:
			case upper:
				b.WriteRune(unicode.ToUpper(r))
				upper = false
			default:
				b.WriteRune(r)
			}
		}
		base := b.String() + "Table"
		id := base
		for n := 2; used[id]; n++ {
			id = base + strconv.Itoa(n)
		}
		used[id] = true
		ids[i] = id
	}
	return ids
}

// tableDefinitions checks the design's tables against what DynamoDB can create and describes each
// one; withTTL adds the TimeToLiveSpecification only CloudFormation reads.
func tableDefinitions(d designer.Design, withTTL bool) ([]tableDefinition, error) {
	out := make([]tableDefinition, len(d.Tables))
	seen := make(map[string]int, len(d.Tables))
	for i, t := range d.Tables {
		p := "tables/" + strconv.Itoa(i)
		if err := exportName(p+"/name", t.Name); err != nil {
			return nil, err
		}
		if j, dup := seen[t.Name]; dup {
			return nil, designer.Invalid(p+"/name", "is %q, which tables/%d already uses; table names are unique", t.Name, j)
		}
		seen[t.Name] = i
		def, err := tableDefinitionOf(p, t)
		if err != nil {
			return nil, err
		}
		if withTTL && t.TTLAttribute != "" {
			def.TimeToLiveSpecification = &ttlSpecification{AttributeName: t.TTLAttribute, Enabled: true}
		}
		out[i] = def
	}
	return out, nil
}

func tableDefinitionOf(p string, t designer.Table) (tableDefinition, error) {
	def := tableDefinition{TableName: t.Name, BillingMode: t.BillingMode}
	switch t.BillingMode {
	case "":
		def.BillingMode = designer.OnDemand
	case designer.OnDemand:
	case designer.Provisioned:
		if t.ReadUnits == nil || *t.ReadUnits < 1 {
			return def, designer.Invalid(p+"/read_capacity_units", "table %s is PROVISIONED and needs at least 1 read capacity unit", t.Name)
		}
		if t.WriteUnits == nil || *t.WriteUnits < 1 {
			return def, designer.Invalid(p+"/write_capacity_units", "table %s is PROVISIONED and needs at least 1 write capacity unit", t.Name)
		}
		def.ProvisionedThroughput = &throughput{ReadCapacityUnits: *t.ReadUnits, WriteCapacityUnits: *t.WriteUnits}
	default:
		return def, designer.OneOf(p+"/billing_mode", t.BillingMode, designer.OnDemand, designer.Provisioned)
	}

	attrs := attributeSet{types: map[string]designer.Type{}, where: map[string]string{}}
	pk := dynamo.KeyAttr(t, t.PartitionKey)
	if err := tableKeyCheck(p+"/partition_key", pk); err != nil {
		return def, err
	}
	if err := attrs.add(p+"/partition_key", pk); err != nil {
		return def, err
	}
	def.KeySchema = []keySchemaElement{{pk.Name, "HASH"}}
	if t.SortKey != nil {
		sk := dynamo.KeyAttr(t, *t.SortKey)
		if err := tableKeyCheck(p+"/sort_key", sk); err != nil {
			return def, err
		}
		if sk.Name == pk.Name {
			return def, designer.Invalid(p+"/sort_key/name", "is %s, the partition key too; a table's sort key is another attribute", sk.Name)
		}
		if err := attrs.add(p+"/sort_key", sk); err != nil {
			return def, err
		}
		def.KeySchema = append(def.KeySchema, keySchemaElement{sk.Name, "RANGE"})
	}

	if len(t.LSIs) > designer.MaxLSIs {
		return def, designer.Invalid(p+"/lsis", "table %s has %d local secondary indexes; DynamoDB allows at most %d", t.Name, len(t.LSIs), designer.MaxLSIs)
	}
	indexNames := map[string]string{}
	included := 0
	for _, group := range []struct {
		kind  string
		local bool
		list  []designer.Index
	}{{"gsis", false, t.GSIs}, {"lsis", true, t.LSIs}} {
		for j, ix := range group.list {
			ip := p + "/" + group.kind + "/" + strconv.Itoa(j)
			if err := exportName(ip+"/name", ix.Name); err != nil {
				return def, err
			}
			if other, dup := indexNames[ix.Name]; dup {
				return def, designer.Invalid(ip+"/name", "is %q, which %s already uses; the indexes of a table have distinct names", ix.Name, other)
			}
			indexNames[ix.Name] = ip
			ixDef, err := indexDefinitionOf(ip, t, ix, group.local, &attrs)
			if err != nil {
				return def, err
			}
			included += len(ixDef.Projection.NonKeyAttributes)
			if included > designer.MaxProjectedAttributesPerTable {
				return def, designer.Invalid(ip+"/projection/attributes", "brings the INCLUDE attributes across the indexes of table %s to %d; DynamoDB allows at most %d", t.Name, included, designer.MaxProjectedAttributesPerTable)
			}
			if group.local {
				def.LocalSecondaryIndexes = append(def.LocalSecondaryIndexes, ixDef)
				continue
			}
			if def.ProvisionedThroughput != nil {
				tp := *def.ProvisionedThroughput
				ixDef.ProvisionedThroughput = &tp
			}
			def.GlobalSecondaryIndexes = append(def.GlobalSecondaryIndexes, ixDef)
		}
	}
	def.AttributeDefinitions = attrs.sorted()
	return def, nil
}

// exportName checks a table or index name against DynamoDB's rule, refusing white space around it
// too: the name is written as it is, never trimmed.
func exportName(field, name string) error {
	if _, err := designer.DynamoName(field, name); err != nil {
		return err
	}
	if strings.TrimSpace(name) != name {
		return designer.Invalid(field, "%q has white space around it; DynamoDB names use only letters, digits, \"_\", \".\" and \"-\"", name)
	}
	return nil
}

// tableKeyCheck refuses a table key attribute DynamoDB cannot define.
func tableKeyCheck(field string, k designer.KeyAttribute) error {
	switch {
	case k.Name == "":
		return designer.Invalid(field+"/name", "must not be empty")
	case len(k.Name) > designer.MaxDynamoNameLen:
		return designer.Invalid(field+"/name", "is %d bytes long; DynamoDB key attribute names are at most %d", len(k.Name), designer.MaxDynamoNameLen)
	case !k.Type.KeyType():
		return designer.Invalid(field+"/type", "is %q; a key attribute is S, N or B", k.Type)
	}
	return nil
}

// indexDefinitionOf checks one index's key and projection and describes it, adding its key
// attributes to attrs.
func indexDefinitionOf(ip string, t designer.Table, ix designer.Index, local bool, attrs *attributeSet) (indexDefinition, error) {
	pk, sk, err := designer.IndexKey(t, local, ix.PartitionKey, ix.SortKey)
	if err != nil {
		return indexDefinition{}, underIndex(ip, ix.Name, err)
	}
	if local {
		pk = []designer.KeyAttribute{dynamo.KeyAttr(t, t.PartitionKey)}
	}
	def := indexDefinition{IndexName: ix.Name}
	for _, part := range []struct {
		field, keyType string
		keys           []designer.KeyAttribute
	}{{"partition_key", "HASH", pk}, {"sort_key", "RANGE", sk}} {
		for _, k := range part.keys {
			if err := attrs.add(ip+"/"+part.field, k); err != nil {
				return def, err
			}
			def.KeySchema = append(def.KeySchema, keySchemaElement{k.Name, part.keyType})
		}
	}
	def.Projection = projectionDefinition{ProjectionType: ix.Projection.Type}
	switch ix.Projection.Type {
	case "":
		def.Projection.ProjectionType = designer.All
	case designer.All, designer.KeysOnly:
	case designer.Include:
		var names []string
		for _, a := range ix.Projection.Attributes {
			if !designer.IsIndexKey(t, ix, a) && !slices.Contains(names, a) {
				names = append(names, a)
			}
		}
		if len(names) == 0 {
			def.Projection.ProjectionType = designer.KeysOnly
		}
		if len(names) > designer.MaxProjectedAttributes {
			return def, designer.Invalid(ip+"/projection/attributes", "index %s lists %d non-key attributes; DynamoDB projects at most %d into one index", ix.Name, len(names), designer.MaxProjectedAttributes)
		}
		for _, a := range names {
			if a == "" || len(a) > designer.MaxDynamoNameLen {
				return def, designer.Invalid(ip+"/projection/attributes", "index %s lists an attribute name of %d bytes; DynamoDB takes 1 to %d", ix.Name, len(a), designer.MaxDynamoNameLen)
			}
		}
		def.Projection.NonKeyAttributes = names
	default:
		return def, designer.OneOf(ip+"/projection/type", ix.Projection.Type, designer.All, designer.KeysOnly, designer.Include)
	}
	return def, nil
}

// underIndex moves an indexKey error, whose field is relative to the index, under the index's path
// and names the index in its message.
func underIndex(ip, name string, err error) error {
	var ve *designer.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	field := ip + "/" + ve.Field
	if ve.Field == "local" {
		field = ip
	}
	return designer.Invalid(field, "index %s: %s", name, ve.Message)
}

// attributeSet collects the attribute definitions of a table: one type per attribute name.
type attributeSet struct {
	types map[string]designer.Type
	where map[string]string // the field that first defined each attribute
}

func (s *attributeSet) add(field string, k designer.KeyAttribute) error {
	if t, ok := s.types[k.Name]; ok {
		if t != k.Type {
			return designer.Invalid(field, "uses %s as %s, but %s defines it as %s; an attribute has one type in every key of a table", k.Name, k.Type, s.where[k.Name], t)
		}
		return nil
	}
	s.types[k.Name] = k.Type
	s.where[k.Name] = field
	return nil
}

func (s *attributeSet) sorted() []attributeDefinition {
	out := make([]attributeDefinition, 0, len(s.types))
	for name, t := range s.types {
		out = append(out, attributeDefinition{name, t})
	}
	slices.SortFunc(out, func(a, b attributeDefinition) int { return strings.Compare(a.AttributeName, b.AttributeName) })
	return out
}
