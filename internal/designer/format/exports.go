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
	"dynaloom/internal/designer/format/sdkcode"
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
	// LeftOut lists what of a design the format cannot hold, one short line each, empty when it
	// holds all of it: the export page, the Dynaloom-Left-Out header and the CLI's stderr say it.
	LeftOut func(designer.Design) []string
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
	{ID: "requirements-md", Title: "Requirements", Filename: "dynamodb_requirement.md", MediaType: "text/markdown; charset=utf-8",
		Description: "The requirement document of the method: overview, entities, access patterns with RPS, aggregate analysis.", Markdown: true,
		Write:   func(d designer.Design) ([]byte, error) { return reqmd.Export(d), nil },
		drawn:   reqmd.ExportWith,
		from:    func(x Derived, o markdown.ExportOptions) []byte { return reqmd.ExportFrom(x, o) },
		LeftOut: requirementsLeftOut},
	{ID: "data-model-md", Title: "Data model", Filename: "dynamodb_data_model.md", MediaType: "text/markdown; charset=utf-8",
		Description: "The data model document: tables and indexes with sample items, the access pattern mapping, hot partitions, trade-offs and the validation checklist.", Markdown: true,
		Write:   func(d designer.Design) ([]byte, error) { return datamodelmd.Export(d), nil },
		drawn:   datamodelmd.ExportWith,
		from:    func(x Derived, o markdown.ExportOptions) []byte { return datamodelmd.ExportFrom(x, o) },
		LeftOut: dataModelLeftOut},
	{ID: "workbench-json", Title: "NoSQL Workbench model", Filename: "dynaloom-workbench-model.json", MediaType: "application/json",
		Description: "A NoSQL Workbench data model (version 3.0): tables, indexes, facets from the entity types, and the sample items.",
		Write:       workbench.Export, dated: workbench.Dated, LeftOut: workbench.LeftOut},
	{ID: "cloudformation-json", Title: "CloudFormation template", Filename: "dynaloom-tables.cfn.json", MediaType: "application/json",
		Description: "One AWS::DynamoDB::Table per table: key attributes, GSIs, LSIs, projections, TTL and billing mode.",
		Write:       cloudformation.Export, LeftOut: cloudformation.LeftOut},
	{ID: "cloudformation-yaml", Title: "CloudFormation template (YAML)", Filename: "dynaloom-tables.cfn.yaml", MediaType: "application/yaml",
		Description: "The same template in YAML, opening with comments that say what of the design it leaves out.",
		Write:       cloudformation.ExportYAML, LeftOut: cloudformation.LeftOut},
	{ID: "terraform", Title: "Terraform", Filename: "dynamodb.tf", MediaType: "text/plain; charset=utf-8",
		Description: "One aws_dynamodb_table per table for the AWS provider: keys, GSIs, LSIs, projections, TTL, billing, point-in-time recovery and a name prefix.",
		Write:       terraform.Export, LeftOut: terraform.LeftOut},
	{ID: "cdk-ts", Title: "AWS CDK stack (TypeScript)", Filename: "dynamodb-stack.ts", MediaType: "text/plain; charset=utf-8",
		Description: "An AWS CDK stack with one TableV2 per table: keys, GSIs, LSIs, projections, TTL, billing, point-in-time recovery, retained on delete.",
		Write:       cdkts.Export, LeftOut: cdkts.LeftOut},
	{ID: "mcp-model-json", Title: "DynamoDB MCP validator model", Filename: "dynamodb_data_model.json", MediaType: "application/json",
		Description: "The executable model the AWS DynamoDB MCP server's validator reads: tables, items and one aws dynamodb command per access pattern.",
		Write:       mcpmodel.Export, LeftOut: mcpmodel.LeftOut},
	{ID: "code-js", Title: "Code per pattern: JavaScript", Filename: "dynamodb-patterns.mjs", MediaType: "text/javascript; charset=utf-8",
		Description: "An ES module with one function per access pattern for the AWS SDK for JavaScript v3 (@aws-sdk/lib-dynamodb), with the pattern's values.",
		Write:       codeWriter(sdkcode.JavaScript), LeftOut: codeLeftOut},
	{ID: "code-python", Title: "Code per pattern: Python", Filename: "dynamodb_patterns.py", MediaType: "text/x-python; charset=utf-8",
		Description: "A module with one function per access pattern for boto3's DynamoDB client, with the pattern's values.",
		Write:       codeWriter(sdkcode.Python), LeftOut: codeLeftOut},
	{ID: "code-go", Title: "Code per pattern: Go", Filename: "dynamodb_patterns.go", MediaType: "text/x-go; charset=utf-8",
		Description: "A Go package with one function per access pattern for the AWS SDK for Go v2, with the pattern's values.",
		Write:       codeWriter(sdkcode.Go), LeftOut: codeLeftOut},
	{ID: "design-json", Title: "Dynaloom design", Filename: "dynaloom-design.json", MediaType: "application/json",
		Description: "Dynaloom's own lossless document (format dynaloom/1), to move a design between servers or keep it in a repository.",
		Write:       designer.MarshalJSON, LeftOut: func(designer.Design) []string { return nil }},
}

// LeftOutOf lists what of d the format cannot hold; nil when it holds all of it.
func (f ExportFormat) LeftOutOf(d designer.Design) []string {
	if f.LeftOut == nil {
		return nil
	}
	return f.LeftOut(d)
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
