// Package cloudformation writes the CloudFormation exports, cloudformation-json and
// cloudformation-yaml: a template with one AWS::DynamoDB::Table per table of the design, built
// with goformation. docs/exports.md ("cloudformation-json") says how; import.go reads templates.
package cloudformation

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	cfn "github.com/awslabs/goformation/v7/cloudformation"
	"github.com/awslabs/goformation/v7/cloudformation/dynamodb"
	"github.com/awslabs/goformation/v7/cloudformation/policies"
	"gopkg.in/yaml.v3"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/tabledef"
)

// descriptionMax is CloudFormation's limit on a template description, in bytes.
const descriptionMax = 1024

// The template's parameters, the value of BillingMode that keeps each table's own mode, and the
// conditions the parameters make.
const (
	NamePrefixParam = "NamePrefix"
	BillingParam    = "BillingMode"
	PITRParam       = "PointInTimeRecovery"
	AsDesigned      = "AS_DESIGNED"

	// provisionedUnlessOnDemand holds for a table the design provisions unless the stack asks
	// for on-demand; forcedProvisioned for an on-demand table when the stack asks for provisioned.
	provisionedUnlessOnDemand = "ProvisionedUnlessOnDemand"
	forcedProvisioned         = "ForcedProvisioned"
	pitrOn                    = "PointInTimeRecoveryOn"
)

// defaultUnits are the read and write units a table the design gives none takes when the stack
// makes it PROVISIONED.
const defaultUnits = 5

// Export writes the design's tables as a CloudFormation template in JSON: one
// AWS::DynamoDB::Table per table with its keys, indexes, projections, TTL, billing mode and table
// class. A name DynamoDB would refuse, or a key or index DynamoDB cannot create, is a
// *ValidationError naming the field, such as tables/2/name.
func Export(d designer.Design) ([]byte, error) {
	tpl, err := build(d)
	if err != nil {
		return nil, err
	}
	return tabledef.EncodeIndented(tpl)
}

// ExportYAML writes the template Export writes as YAML, after comments saying what of the design
// it leaves out.
func ExportYAML(d designer.Design) ([]byte, error) {
	tpl, err := build(d)
	if err != nil {
		return nil, err
	}
	body, err := yaml.Marshal(tpl)
	if err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	var b strings.Builder
	if left := LeftOut(d); len(left) > 0 {
		b.WriteString("# Left out of this template (CloudFormation has no place for it):\n")
		for _, l := range left {
			b.WriteString("#   - " + l + "\n")
		}
	}
	b.Write(body)
	return []byte(b.String()), nil
}

// LeftOut lists what of d a template of its tables cannot hold.
func LeftOut(d designer.Design) []string { return tabledef.NotTables(d) }

// build makes the template with goformation and returns it as plain JSON values, with the
// parameters' intrinsic functions set in: goformation types TableName, BillingMode and
// ProvisionedThroughput as plain values, which cannot hold Fn::Sub or Fn::If.
func build(d designer.Design) (map[string]any, error) {
	if len(d.Tables) == 0 {
		return nil, designer.Invalid("tables", "the design has no tables; a CloudFormation template needs at least one resource")
	}
	defs, err := tabledef.Tables(d, true)
	if err != nil {
		return nil, err
	}
	if err := tabledef.SetClasses(d, defs); err != nil {
		return nil, err
	}
	tpl := cfn.NewTemplate()
	tpl.Description = description(d.Name)
	tpl.Parameters[NamePrefixParam] = cfn.Parameter{
		Type:           "String",
		Description:    cfn.String("Put before every table name, such as dev- or prod-"),
		Default:        "",
		AllowedPattern: cfn.String("[a-zA-Z0-9_.-]*"),
		MaxLength:      cfn.Int(200),
	}
	tpl.Parameters[BillingParam] = cfn.Parameter{
		Type:          "String",
		Description:   cfn.String("AS_DESIGNED keeps each table's billing mode; PAY_PER_REQUEST or PROVISIONED sets every table's"),
		Default:       AsDesigned,
		AllowedValues: []any{AsDesigned, designer.OnDemand, designer.Provisioned},
	}
	tpl.Parameters[PITRParam] = cfn.Parameter{
		Type:          "String",
		Description:   cfn.String("Whether point-in-time recovery is on for every table"),
		Default:       "true",
		AllowedValues: []any{"true", "false"},
	}
	ids := tabledef.LogicalIDs(d.Tables)
	for i, id := range ids {
		tpl.Resources[id] = tableOf(defs[i])
	}
	// Marshalled as it is: tpl.JSON would resolve the intrinsic functions.
	raw, err := json.Marshal(tpl)
	if err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	ref := func(name string) map[string]any { return map[string]any{"Ref": name} }
	equals := func(v string) map[string]any { return map[string]any{"Fn::Equals": []any{ref(BillingParam), v}} }
	conditions := map[string]any{pitrOn: map[string]any{"Fn::Equals": []any{ref(PITRParam), "true"}}}
	resources := out["Resources"].(map[string]any)
	for i, id := range ids {
		props := resources[id].(map[string]any)["Properties"].(map[string]any)
		props["TableName"] = map[string]any{"Fn::Sub": "${" + NamePrefixParam + "}" + defs[i].TableName}
		props["PointInTimeRecoverySpecification"] = map[string]any{
			"PointInTimeRecoveryEnabled": map[string]any{"Fn::If": []any{pitrOn, true, false}}}
		cond := forcedProvisioned
		conditions[cond] = equals(designer.Provisioned)
		if defs[i].BillingMode == designer.Provisioned {
			cond = provisionedUnlessOnDemand
			conditions[cond] = map[string]any{"Fn::Not": []any{equals(designer.OnDemand)}}
		}
		props["BillingMode"] = map[string]any{"Fn::If": []any{cond, designer.Provisioned, designer.OnDemand}}
		props["ProvisionedThroughput"] = underCondition(cond, props["ProvisionedThroughput"], d.Tables[i])
		if gsis, ok := props["GlobalSecondaryIndexes"].([]any); ok {
			for _, g := range gsis {
				g := g.(map[string]any)
				g["ProvisionedThroughput"] = underCondition(cond, g["ProvisionedThroughput"], d.Tables[i])
			}
		}
	}
	out["Conditions"] = conditions
	return out, nil
}

// underCondition gives the units tp holds, or those of a table the design gives none, only when
// cond makes the table PROVISIONED.
func underCondition(cond string, tp any, t designer.Table) any {
	if tp == nil {
		r, w := int64(defaultUnits), int64(defaultUnits)
		if t.ReadUnits != nil {
			r = *t.ReadUnits
		}
		if t.WriteUnits != nil {
			w = *t.WriteUnits
		}
		tp = map[string]any{"ReadCapacityUnits": r, "WriteCapacityUnits": w}
	}
	return map[string]any{"Fn::If": []any{cond, tp, map[string]any{"Ref": "AWS::NoValue"}}}
}

// tableOf is one table as goformation types it, before build sets in the intrinsic functions.
func tableOf(def tabledef.Table) *dynamodb.Table {
	t := &dynamodb.Table{
		TableName:                            cfn.String(def.TableName),
		KeySchema:                            keySchema(def.KeySchema),
		BillingMode:                          cfn.String(def.BillingMode),
		ProvisionedThroughput:                throughput(def.ProvisionedThroughput),
		AWSCloudFormationDeletionPolicy:      policies.DeletionPolicy("Retain"),
		AWSCloudFormationUpdateReplacePolicy: policies.UpdateReplacePolicy("Retain"),
	}
	for _, a := range def.AttributeDefinitions {
		t.AttributeDefinitions = append(t.AttributeDefinitions, dynamodb.Table_AttributeDefinition{AttributeName: a.AttributeName, AttributeType: string(a.AttributeType)})
	}
	for _, ix := range def.GlobalSecondaryIndexes {
		t.GlobalSecondaryIndexes = append(t.GlobalSecondaryIndexes, dynamodb.Table_GlobalSecondaryIndex{
			IndexName: ix.IndexName, KeySchema: keySchema(ix.KeySchema), Projection: projection(ix.Projection),
			ProvisionedThroughput: throughput(ix.ProvisionedThroughput),
		})
	}
	for _, ix := range def.LocalSecondaryIndexes {
		t.LocalSecondaryIndexes = append(t.LocalSecondaryIndexes, dynamodb.Table_LocalSecondaryIndex{
			IndexName: ix.IndexName, KeySchema: keySchema(ix.KeySchema), Projection: projection(ix.Projection),
		})
	}
	if def.TableClass != "" {
		t.TableClass = cfn.String(def.TableClass)
	}
	if s := def.TimeToLiveSpecification; s != nil {
		t.TimeToLiveSpecification = &dynamodb.Table_TimeToLiveSpecification{AttributeName: cfn.String(s.AttributeName), Enabled: s.Enabled}
	}
	return t
}

func keySchema(ks []tabledef.KeySchemaElement) []dynamodb.Table_KeySchema {
	out := make([]dynamodb.Table_KeySchema, len(ks))
	for i, k := range ks {
		out[i] = dynamodb.Table_KeySchema{AttributeName: k.AttributeName, KeyType: k.KeyType}
	}
	return out
}

func projection(p tabledef.Projection) *dynamodb.Table_Projection {
	return &dynamodb.Table_Projection{ProjectionType: cfn.String(p.ProjectionType), NonKeyAttributes: p.NonKeyAttributes}
}

func throughput(tp *tabledef.Throughput) *dynamodb.Table_ProvisionedThroughput {
	if tp == nil {
		return nil
	}
	return &dynamodb.Table_ProvisionedThroughput{ReadCapacityUnits: int(tp.ReadCapacityUnits), WriteCapacityUnits: int(tp.WriteCapacityUnits)}
}

func description(name string) string {
	desc := "Amazon DynamoDB tables of the Dynaloom design “" + name + "”"
	if strings.TrimSpace(name) == "" {
		desc = "Amazon DynamoDB tables of a Dynaloom design"
	}
	if len(desc) <= descriptionMax {
		return desc
	}
	cut := descriptionMax - len("…”")
	for cut > 0 && !utf8.RuneStart(desc[cut]) {
		cut--
	}
	return desc[:cut] + "…”"
}
