// Package cloudformation writes the cloudformation-json export: a CloudFormation template with one
// AWS::DynamoDB::Table per table of the design. docs/exports.md ("cloudformation-json") says how.
package cloudformation

import (
	"strings"
	"unicode/utf8"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/tabledef"
)

// formatVersion is the only template format version CloudFormation has.
const formatVersion = "2010-09-09"

// descriptionMax is CloudFormation's limit on a template description, in bytes.
const descriptionMax = 1024

type template struct {
	AWSTemplateFormatVersion string              `json:"AWSTemplateFormatVersion"`
	Description              string              `json:"Description"`
	Resources                map[string]resource `json:"Resources"`
}

type resource struct {
	Type       string         `json:"Type"`
	Properties tabledef.Table `json:"Properties"`
}

// Export writes the design's tables as a CloudFormation template (JSON): one
// AWS::DynamoDB::Table per table with its keys, indexes, projections, TTL, billing mode and table
// class. A name
// DynamoDB would refuse, or a key or index DynamoDB cannot create, is a *ValidationError naming
// the field, such as tables/2/name.
func Export(d designer.Design) ([]byte, error) {
	if len(d.Tables) == 0 {
		return nil, designer.Invalid("tables", "the design has no tables; a CloudFormation template needs at least one resource")
	}
	defs, err := tabledef.Tables(d, true)
	if err != nil {
		return nil, err
	}
	tpl := template{
		AWSTemplateFormatVersion: formatVersion,
		Description:              description(d.Name),
		Resources:                make(map[string]resource, len(defs)),
	}
	if err := tabledef.SetClasses(d, defs); err != nil {
		return nil, err
	}
	for i, id := range tabledef.LogicalIDs(d.Tables) {
		tpl.Resources[id] = resource{Type: "AWS::DynamoDB::Table", Properties: defs[i]}
	}
	return tabledef.EncodeIndented(tpl)
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
