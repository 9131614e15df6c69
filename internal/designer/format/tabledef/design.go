package tabledef

import (
	"fmt"
	"slices"

	"dynaloom/internal/designer"
)

// DesignTable is the design's table a definition describes, read back from a CloudFormation
// template or a CreateTable request; p is the definition's place for errors, such as
// Resources/OrdersTable. Notes say what the design does not hold of it. A key that names an
// attribute with no definition, or a key DynamoDB cannot have, is a *ValidationError naming the
// field.
func DesignTable(p string, def Table) (designer.Table, []string, error) {
	var notes []string
	name, err := designer.CleanName(p+"/TableName", def.TableName)
	if err != nil {
		return designer.Table{}, nil, err
	}
	t := designer.Table{Name: name, BillingMode: def.BillingMode, TableClass: def.TableClass}
	types := map[string]designer.Type{}
	for i, a := range def.AttributeDefinitions {
		if err := designer.OneOf(fmt.Sprintf("%s/AttributeDefinitions/%d/AttributeType", p, i), string(a.AttributeType), string(designer.S), string(designer.N), string(designer.B)); err != nil {
			return designer.Table{}, nil, err
		}
		types[a.AttributeName] = a.AttributeType
	}
	key := func(field string, ks []KeySchemaElement) (hash, rng []designer.KeyAttribute, err error) {
		for i, k := range ks {
			f := fmt.Sprintf("%s/KeySchema/%d", field, i)
			typ, ok := types[k.AttributeName]
			if !ok {
				return nil, nil, designer.Invalid(f+"/AttributeName", "is %q, which no AttributeDefinitions entry gives a type", k.AttributeName)
			}
			ka := designer.KeyAttribute{Name: k.AttributeName, Type: typ}
			switch k.KeyType {
			case "HASH":
				hash = append(hash, ka)
			case "RANGE":
				rng = append(rng, ka)
			default:
				return nil, nil, designer.OneOf(f+"/KeyType", k.KeyType, "HASH", "RANGE")
			}
		}
		if len(hash) == 0 {
			return nil, nil, designer.Invalid(field+"/KeySchema", "has no HASH element; a key needs a partition key")
		}
		return hash, rng, nil
	}
	hash, rng, err := key(p, def.KeySchema)
	if err != nil {
		return designer.Table{}, nil, err
	}
	if len(hash) > 1 || len(rng) > 1 {
		return designer.Table{}, nil, designer.Invalid(p+"/KeySchema", "has %d HASH and %d RANGE elements; a table's key is one of each at most", len(hash), len(rng))
	}
	t.PartitionKey = hash[0]
	if len(rng) == 1 {
		t.SortKey = &rng[0]
	}
	if t.BillingMode == "" {
		t.BillingMode = designer.Provisioned // as CloudFormation and CreateTable take it
	}
	if err := designer.OneOf(p+"/BillingMode", t.BillingMode, designer.OnDemand, designer.Provisioned); err != nil {
		return designer.Table{}, nil, err
	}
	if tp := def.ProvisionedThroughput; tp != nil && t.BillingMode == designer.Provisioned {
		r, w := tp.ReadCapacityUnits, tp.WriteCapacityUnits
		t.ReadUnits, t.WriteUnits = &r, &w
	}
	for i, ix := range def.GlobalSecondaryIndexes {
		f := fmt.Sprintf("%s/GlobalSecondaryIndexes/%d", p, i)
		d, err := designIndex(f, ix, key)
		if err != nil {
			return designer.Table{}, nil, err
		}
		if tp := ix.ProvisionedThroughput; tp != nil && t.ReadUnits != nil && (tp.ReadCapacityUnits != *t.ReadUnits || tp.WriteCapacityUnits != *t.WriteUnits) {
			notes = append(notes, fmt.Sprintf("GSI %s of table %s has %d read and %d write units; the design records units per table (%d and %d)",
				ix.IndexName, name, tp.ReadCapacityUnits, tp.WriteCapacityUnits, *t.ReadUnits, *t.WriteUnits))
		}
		t.GSIs = append(t.GSIs, d)
	}
	for i, ix := range def.LocalSecondaryIndexes {
		d, err := designIndex(fmt.Sprintf("%s/LocalSecondaryIndexes/%d", p, i), ix, key)
		if err != nil {
			return designer.Table{}, nil, err
		}
		t.LSIs = append(t.LSIs, d)
	}
	if s := def.TimeToLiveSpecification; s != nil && s.Enabled {
		t.TTLAttribute = s.AttributeName
	}
	// The key attributes of the table and its indexes, as the definitions type them.
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	slices.Sort(names)
	declare := func(k designer.KeyAttribute) {
		if _, _, ok := t.AttributeByName(k.Name); !ok {
			t.Attributes = append(t.Attributes, designer.Attribute{Name: k.Name, Type: k.Type})
		}
	}
	declare(t.PartitionKey)
	if t.SortKey != nil {
		declare(*t.SortKey)
	}
	for _, n := range names {
		declare(designer.KeyAttribute{Name: n, Type: types[n]})
	}
	return t, notes, nil
}

func designIndex(f string, ix Index, key func(string, []KeySchemaElement) ([]designer.KeyAttribute, []designer.KeyAttribute, error)) (designer.Index, error) {
	name, err := designer.CleanName(f+"/IndexName", ix.IndexName)
	if err != nil {
		return designer.Index{}, err
	}
	hash, rng, err := key(f, ix.KeySchema)
	if err != nil {
		return designer.Index{}, err
	}
	typ := ix.Projection.ProjectionType
	if err := designer.OneOf(f+"/Projection/ProjectionType", typ, designer.KeysOnly, designer.Include, designer.All); err != nil {
		return designer.Index{}, err
	}
	return designer.Index{Name: name, PartitionKey: hash, SortKey: rng,
		Projection: designer.Projection{Type: typ, Attributes: slices.Clone(ix.Projection.NonKeyAttributes)}}, nil
}
