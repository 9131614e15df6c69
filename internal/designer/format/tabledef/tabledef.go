// Package tabledef describes a design's tables as CreateTable and AWS::DynamoDB::Table do, checked
// against what DynamoDB can create: the table properties the CloudFormation template and the MCP
// validator's model both write (the two formats use the same property names), and the indented
// JSON both are written as.
package tabledef

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Table is one table as CreateTable and AWS::DynamoDB::Table describe it.
type Table struct {
	TableName              string                `json:"TableName"`
	AttributeDefinitions   []AttributeDefinition `json:"AttributeDefinitions"`
	KeySchema              []KeySchemaElement    `json:"KeySchema"`
	GlobalSecondaryIndexes []Index               `json:"GlobalSecondaryIndexes,omitempty"`
	LocalSecondaryIndexes  []Index               `json:"LocalSecondaryIndexes,omitempty"`
	BillingMode            string                `json:"BillingMode"`
	ProvisionedThroughput  *Throughput           `json:"ProvisionedThroughput,omitempty"`
	// TableClass is written by the CloudFormation template alone, when the design sets one.
	TableClass              string            `json:"TableClass,omitempty"`
	TimeToLiveSpecification *TTLSpecification `json:"TimeToLiveSpecification,omitempty"`
}

// AttributeDefinition gives a key attribute its type.
type AttributeDefinition struct {
	AttributeName string        `json:"AttributeName"`
	AttributeType designer.Type `json:"AttributeType"`
}

// KeySchemaElement is one attribute of a key: HASH or RANGE.
type KeySchemaElement struct {
	AttributeName string `json:"AttributeName"`
	KeyType       string `json:"KeyType"`
}

// Index is one global or local secondary index of a Table.
type Index struct {
	IndexName             string             `json:"IndexName"`
	KeySchema             []KeySchemaElement `json:"KeySchema"`
	Projection            Projection         `json:"Projection"`
	ProvisionedThroughput *Throughput        `json:"ProvisionedThroughput,omitempty"`
}

// Projection says which attributes an Index holds.
type Projection struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// Throughput is a PROVISIONED table's or GSI's capacity units.
type Throughput struct {
	ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
	WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
}

// TTLSpecification names the TTL attribute, which CloudFormation alone takes.
type TTLSpecification struct {
	AttributeName string `json:"AttributeName"`
	Enabled       bool   `json:"Enabled"`
}

// EncodeIndented writes v as JSON indented by two spaces, ending with a newline. "<", ">" and "&"
// stay as written: expressions such as "price > :min" are common and would read badly escaped.
func EncodeIndented(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	return buf.Bytes(), nil
}

// Tables checks the design's tables against what DynamoDB can create and describes each
// one; withTTL adds the TimeToLiveSpecification only CloudFormation reads.
func Tables(d designer.Design, withTTL bool) ([]Table, error) {
	out := make([]Table, len(d.Tables))
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
		def, err := tableOf(p, t)
		if err != nil {
			return nil, err
		}
		if withTTL && t.TTLAttribute != "" {
			def.TimeToLiveSpecification = &TTLSpecification{AttributeName: t.TTLAttribute, Enabled: true}
		}
		out[i] = def
	}
	return out, nil
}

func tableOf(p string, t designer.Table) (Table, error) {
	def := Table{TableName: t.Name, BillingMode: t.BillingMode}
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
		def.ProvisionedThroughput = &Throughput{ReadCapacityUnits: *t.ReadUnits, WriteCapacityUnits: *t.WriteUnits}
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
	def.KeySchema = []KeySchemaElement{{pk.Name, "HASH"}}
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
		def.KeySchema = append(def.KeySchema, KeySchemaElement{sk.Name, "RANGE"})
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
			ixDef, err := indexOf(ip, t, ix, group.local, &attrs)
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

// indexOf checks one index's key and projection and describes it, adding its key
// attributes to attrs.
func indexOf(ip string, t designer.Table, ix designer.Index, local bool, attrs *attributeSet) (Index, error) {
	pk, sk, err := designer.IndexKey(t, local, ix.PartitionKey, ix.SortKey)
	if err != nil {
		return Index{}, underIndex(ip, ix.Name, err)
	}
	if local {
		pk = []designer.KeyAttribute{dynamo.KeyAttr(t, t.PartitionKey)}
	}
	def := Index{IndexName: ix.Name}
	for _, part := range []struct {
		field, keyType string
		keys           []designer.KeyAttribute
	}{{"partition_key", "HASH", pk}, {"sort_key", "RANGE", sk}} {
		for _, k := range part.keys {
			if err := attrs.add(ip+"/"+part.field, k); err != nil {
				return def, err
			}
			def.KeySchema = append(def.KeySchema, KeySchemaElement{k.Name, part.keyType})
		}
	}
	def.Projection = Projection{ProjectionType: ix.Projection.Type}
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

func (s *attributeSet) sorted() []AttributeDefinition {
	out := make([]AttributeDefinition, 0, len(s.types))
	for name, t := range s.types {
		out = append(out, AttributeDefinition{name, t})
	}
	slices.SortFunc(out, func(a, b AttributeDefinition) int { return strings.Compare(a.AttributeName, b.AttributeName) })
	return out
}
