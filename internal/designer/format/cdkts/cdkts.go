// Package cdkts writes the cdk-ts export: an AWS CDK stack in TypeScript with one
// dynamodb.TableV2 per table of the design. docs/exports.md ("cdk-ts") says how.
package cdkts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/tabledef"
)

// StackClass is the name of the stack class the file exports.
const StackClass = "DynamoDBTablesStack"

// Export writes the design's tables as a CDK stack: one TableV2 per table with its keys, indexes
// (multi-attribute GSI keys as partitionKeys and sortKeys), projections, TTL, billing,
// point-in-time recovery, table class and removalPolicy RETAIN, under a comment listing what it
// left out. A name DynamoDB would refuse, or a key or index DynamoDB cannot create, is a
// *ValidationError naming the field, as the CloudFormation export refuses it.
func Export(d designer.Design) ([]byte, error) {
	if len(d.Tables) == 0 {
		return nil, designer.Invalid("tables", "the design has no tables; a CDK stack of DynamoDB tables needs at least one")
	}
	defs, err := tabledef.Tables(d, true)
	if err != nil {
		return nil, err
	}
	if err := tabledef.SetClasses(d, defs); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, l := range header(d) {
		b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
	}
	b.WriteString(`
import * as cdk from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export interface ` + StackClass + `Props extends cdk.StackProps {
  /** Put before every table name, such as "dev-"; empty by default. */
  readonly namePrefix?: string;
  /** Whether the tables keep continuous backups; the design does not say. On by default. */
  readonly pointInTimeRecovery?: boolean;
}

export class ` + StackClass + ` extends cdk.Stack {
  constructor(scope: Construct, id: string, props: ` + StackClass + `Props = {}) {
    super(scope, id, props);
    const prefix = props.namePrefix ?? '';
    const pointInTimeRecoverySpecification = { pointInTimeRecoveryEnabled: props.pointInTimeRecovery ?? true };
`)
	for i, id := range tabledef.LogicalIDs(d.Tables) {
		b.WriteString("\n")
		writeTable(&b, id, d.Tables[i], defs[i])
	}
	b.WriteString("  }\n}\n")
	return b.Bytes(), nil
}

// LeftOut lists what the stack cannot hold of d: everything beyond the tables' definitions.
// TableV2 holds every key, index, projection, TTL, billing mode and class a design gives.
func LeftOut(d designer.Design) []string { return tabledef.NotTables(d) }

func header(d designer.Design) []string {
	name := oneLine(d.Name)
	lines := []string{"Amazon DynamoDB tables of the Dynaloom design “" + name + "”, as an AWS CDK stack (aws-cdk-lib 2, TableV2)."}
	if strings.TrimSpace(name) == "" {
		lines[0] = "Amazon DynamoDB tables of a Dynaloom design, as an AWS CDK stack (aws-cdk-lib 2, TableV2)."
	}
	lines = append(lines, "Use it in a CDK app: new "+StackClass+"(app, 'Tables', { namePrefix: 'dev-' });", "")
	left := LeftOut(d)
	if len(left) == 0 {
		return append(lines, "This file holds the whole design.")
	}
	lines = append(lines, "What this file leaves out of the design:")
	for _, l := range left {
		lines = append(lines, "- "+oneLine(l))
	}
	return lines
}

// oneLine keeps a name or line from ending its comment: control characters and the line
// separators JavaScript reads as line ends become spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

// str writes s as a TypeScript string literal: JSON's string syntax is JavaScript's, and
// encoding/json escapes U+2028 and U+2029 too.
func str(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(fmt.Sprintf("cdkts: encode a string: %v", err)) // a Go string always encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}

var attributeTypes = map[designer.Type]string{designer.S: "STRING", designer.N: "NUMBER", designer.B: "BINARY"}

func attribute(defs []tabledef.AttributeDefinition, name string) string {
	typ := designer.S
	for _, a := range defs {
		if a.AttributeName == name {
			typ = a.AttributeType
		}
	}
	return "{ name: " + str(name) + ", type: dynamodb.AttributeType." + attributeTypes[typ] + " }"
}

func writeTable(b *bytes.Buffer, id string, t designer.Table, def tabledef.Table) {
	const in = "      "
	fmt.Fprintf(b, "    new dynamodb.TableV2(this, %s, {\n", str(id))
	fmt.Fprintf(b, "%stableName: prefix + %s,\n", in, str(def.TableName))
	fmt.Fprintf(b, "%spartitionKey: %s,\n", in, attribute(def.AttributeDefinitions, def.KeySchema[0].AttributeName))
	if len(def.KeySchema) > 1 {
		fmt.Fprintf(b, "%ssortKey: %s,\n", in, attribute(def.AttributeDefinitions, def.KeySchema[1].AttributeName))
	}
	if tp := def.ProvisionedThroughput; tp != nil {
		fmt.Fprintf(b, "%sbilling: dynamodb.Billing.provisioned({ %s }),\n", in, capacity(*tp))
	} else {
		fmt.Fprintf(b, "%sbilling: dynamodb.Billing.onDemand(),\n", in)
	}
	if len(def.GlobalSecondaryIndexes) > 0 {
		fmt.Fprintf(b, "%sglobalSecondaryIndexes: [\n", in)
		for _, ix := range def.GlobalSecondaryIndexes {
			var hash, rng []string
			for _, e := range ix.KeySchema {
				a := attribute(def.AttributeDefinitions, e.AttributeName)
				if e.KeyType == "HASH" {
					hash = append(hash, a)
				} else {
					rng = append(rng, a)
				}
			}
			fmt.Fprintf(b, "%s  {\n%s    indexName: %s,\n", in, in, str(ix.IndexName))
			writeKeys(b, in+"    ", "partitionKey", hash)
			writeKeys(b, in+"    ", "sortKey", rng)
			writeProjection(b, in+"    ", ix.Projection)
			if tp := ix.ProvisionedThroughput; tp != nil {
				fmt.Fprintf(b, "%s    %s,\n", in, capacity(*tp))
			}
			fmt.Fprintf(b, "%s  },\n", in)
		}
		fmt.Fprintf(b, "%s],\n", in)
	}
	if len(def.LocalSecondaryIndexes) > 0 {
		fmt.Fprintf(b, "%slocalSecondaryIndexes: [\n", in)
		for _, ix := range def.LocalSecondaryIndexes {
			fmt.Fprintf(b, "%s  {\n%s    indexName: %s,\n", in, in, str(ix.IndexName))
			fmt.Fprintf(b, "%s    sortKey: %s,\n", in, attribute(def.AttributeDefinitions, ix.KeySchema[len(ix.KeySchema)-1].AttributeName))
			writeProjection(b, in+"    ", ix.Projection)
			fmt.Fprintf(b, "%s  },\n", in)
		}
		fmt.Fprintf(b, "%s],\n", in)
	}
	if ttl := def.TimeToLiveSpecification; ttl != nil {
		fmt.Fprintf(b, "%stimeToLiveAttribute: %s,\n", in, str(ttl.AttributeName))
	}
	if def.TableClass != "" {
		fmt.Fprintf(b, "%stableClass: dynamodb.TableClass.%s,\n", in, def.TableClass)
	}
	fmt.Fprintf(b, "%spointInTimeRecoverySpecification,\n", in)
	fmt.Fprintf(b, "%sremovalPolicy: cdk.RemovalPolicy.RETAIN,\n", in)
	b.WriteString("    });\n")
}

// capacity writes a table's or GSI's units. TableV2 takes write capacity only as autoscaled
// (AWS::DynamoDB::GlobalTable has no fixed write units), so the design's units are pinned:
// minCapacity and maxCapacity both.
func capacity(tp tabledef.Throughput) string {
	return fmt.Sprintf("readCapacity: dynamodb.Capacity.fixed(%d), writeCapacity: dynamodb.Capacity.autoscaled({ minCapacity: %d, maxCapacity: %d })",
		tp.ReadCapacityUnits, tp.WriteCapacityUnits, tp.WriteCapacityUnits)
}

// writeKeys writes one attribute as partitionKey or sortKey, several as partitionKeys or sortKeys.
func writeKeys(b *bytes.Buffer, in, field string, attrs []string) {
	switch len(attrs) {
	case 0:
	case 1:
		fmt.Fprintf(b, "%s%s: %s,\n", in, field, attrs[0])
	default:
		fmt.Fprintf(b, "%s%ss: [\n", in, field)
		for _, a := range attrs {
			fmt.Fprintf(b, "%s  %s,\n", in, a)
		}
		fmt.Fprintf(b, "%s],\n", in)
	}
}

func writeProjection(b *bytes.Buffer, in string, p tabledef.Projection) {
	fmt.Fprintf(b, "%sprojectionType: dynamodb.ProjectionType.%s,\n", in, p.ProjectionType)
	if len(p.NonKeyAttributes) == 0 {
		return
	}
	names := make([]string, len(p.NonKeyAttributes))
	for i, a := range p.NonKeyAttributes {
		names[i] = str(a)
	}
	fmt.Fprintf(b, "%snonKeyAttributes: [%s],\n", in, strings.Join(names, ", "))
}
