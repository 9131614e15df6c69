package format

import (
	"strings"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/cdkts"
	"dynaloom/internal/designer/format/cloudformation"
	"dynaloom/internal/designer/format/datamodelmd"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/format/mcpmodel"
	"dynaloom/internal/designer/format/reqmd"
	"dynaloom/internal/designer/format/terraform"
	"dynaloom/internal/designer/format/workbench"
)

// ExportFormat is one of the documents a design can be written as (docs/contract.md "Export formats").
type ExportFormat struct {
	ID          string // the name --to and /export/{format} take
	Title       string
	Filename    string // the file name a download is saved under
	MediaType   string
	Description string
	Markdown    bool // a document people read, which the export page previews
	Write       func(designer.Design) ([]byte, error)
	// dated, when set, gives the design the dates the format records before it is written.
	dated func(d designer.Design, created, modified time.Time) designer.Design
	// drawn, set for the markdown documents, writes the design with the options' diagrams.
	drawn func(designer.Design, markdown.ExportOptions) []byte
	// from, set for the markdown documents, writes the revision x was made from, reading what
	// they show of its derived results from x.
	from func(x Derived, o markdown.ExportOptions) []byte
}

// Derived is what the markdown documents show of a revision that is worked out from it: its
// validation checklists, capacity report, table orders and index views. derive.Derived has them,
// worked out once per revision; Design is the revision, normalized, as every stored revision is.
type Derived interface {
	datamodelmd.Derived
	reqmd.Derived
}

// Options are what a person may ask of an export beyond its format.
type Options struct {
	// Diagrams is "" for none — the document is exactly the seed's template — or "mermaid": the
	// requirement document then carries the entity diagram and the data model the model map, each
	// as a Mermaid code block GitHub draws, which the importers skip.
	Diagrams string
}

// ParseOptions reads the options of an export as a person gives them (the export API's
// ?diagrams=, the CLI's --diagrams): diagrams is "", "none" or "mermaid".
func ParseOptions(diagrams string) (Options, error) {
	switch strings.ToLower(strings.TrimSpace(diagrams)) {
	case "", "none":
		return Options{}, nil
	case "mermaid":
		return Options{Diagrams: "mermaid"}, nil
	}
	return Options{}, designer.Invalid("diagrams", "there are no %q diagrams; use mermaid, or none", diagrams)
}

// WriteDated writes d as Write does, after giving it the times a stored design was created and last
// changed where the format records them and the design has none of its own: the Workbench model's
// DateCreated and DateLastModified. The same revision gives the same bytes.
func (f ExportFormat) WriteDated(d designer.Design, created, modified time.Time) ([]byte, error) {
	if f.dated != nil {
		d = f.dated(d, created, modified)
	}
	return f.Write(d)
}

// WriteWith writes d as WriteDated does, with the options o. Only the markdown documents carry
// diagrams; asking another format for them is an error naming the field.
func (f ExportFormat) WriteWith(d designer.Design, created, modified time.Time, o Options) ([]byte, error) {
	if o.Diagrams == "" {
		return f.WriteDated(d, created, modified)
	}
	if f.drawn == nil {
		return nil, designer.Invalid("diagrams", "the %s export carries no diagrams; only the two markdown documents do", f.ID)
	}
	return f.drawn(d, markdown.ExportOptions{Mermaid: true}), nil
}

// WriteFrom writes the revision x was made from as WriteWith does, giving the same bytes; the
// markdown documents read the checklists, capacity, table orders and index views from x instead of
// working them out again; the other formats need none of them.
func (f ExportFormat) WriteFrom(x Derived, created, modified time.Time, o Options) ([]byte, error) {
	if f.from == nil {
		return f.WriteWith(x.Design(), created, modified, o)
	}
	return f.from(x, markdown.ExportOptions{Mermaid: o.Diagrams != ""}), nil
}

// exportFormats lists the formats in the order the export page shows them.
var exportFormats = []ExportFormat{
	{"requirements-md", "Requirements", "dynamodb_requirement.md", "text/markdown; charset=utf-8",
		"The requirement document of the method: overview, entities, access patterns with RPS, aggregate analysis.", true,
		func(d designer.Design) ([]byte, error) { return reqmd.Export(d), nil }, nil, reqmd.ExportWith,
		func(x Derived, o markdown.ExportOptions) []byte { return reqmd.ExportFrom(x, o) }},
	{"data-model-md", "Data model", "dynamodb_data_model.md", "text/markdown; charset=utf-8",
		"The data model document: tables and indexes with sample items, the access pattern mapping, hot partitions, trade-offs and the validation checklist.", true,
		func(d designer.Design) ([]byte, error) { return datamodelmd.Export(d), nil }, nil, datamodelmd.ExportWith,
		func(x Derived, o markdown.ExportOptions) []byte { return datamodelmd.ExportFrom(x, o) }},
	{"workbench-json", "NoSQL Workbench model", "dynaloom-workbench-model.json", "application/json",
		"A NoSQL Workbench data model (version 3.0): tables, indexes, facets from the entity types, and the sample items.", false, workbench.Export,
		workbench.Dated, nil, nil},
	{"cloudformation-json", "CloudFormation template", "dynaloom-tables.cfn.json", "application/json",
		"One AWS::DynamoDB::Table per table: key attributes, GSIs, LSIs, projections, TTL and billing mode.", false, cloudformation.Export, nil, nil, nil},
	{"terraform", "Terraform", "dynamodb.tf", "text/plain; charset=utf-8",
		"One aws_dynamodb_table per table for the AWS provider: keys, GSIs, LSIs, projections, TTL, billing, point-in-time recovery and a name prefix.", false, terraform.Export, nil, nil, nil},
	{"cdk-ts", "AWS CDK stack (TypeScript)", "dynamodb-stack.ts", "text/plain; charset=utf-8",
		"An AWS CDK stack with one TableV2 per table: keys, GSIs, LSIs, projections, TTL, billing, point-in-time recovery, retained on delete.", false, cdkts.Export, nil, nil, nil},
	{"mcp-model-json", "DynamoDB MCP validator model", "dynamodb_data_model.json", "application/json",
		"The executable model the AWS DynamoDB MCP server's validator reads: tables, items and one aws dynamodb command per access pattern.", false, mcpmodel.Export, nil, nil, nil},
	{"design-json", "Dynaloom design", "dynaloom-design.json", "application/json",
		"Dynaloom's own lossless document (format dynaloom/1), to move a design between servers or keep it in a repository.", false, designer.MarshalJSON, nil, nil, nil},
}

// ExportFormats returns every export format, in the order the export page shows them.
func ExportFormats() []ExportFormat {
	return exportFormats
}

// FindExportFormat returns the format with the given id, or an error naming the formats there are.
func FindExportFormat(id string) (ExportFormat, error) {
	ids := make([]string, len(exportFormats))
	for i, f := range exportFormats {
		if f.ID == id {
			return f, nil
		}
		ids[i] = f.ID
	}
	return ExportFormat{}, designer.Invalid("format", "there is no export format %q; use one of %s", id, designer.ListOr(ids))
}
