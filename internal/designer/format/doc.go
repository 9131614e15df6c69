// Package format is the dispatcher of the files a design is read from and written as. Each format
// is a package of its own — the requirement document (reqmd), the data model document with its
// operation-cell parser (datamodelmd), free-form design documents such as an ADR or a layout page
// (freeform, read only), the NoSQL Workbench model (workbench), the CloudFormation
// template (cloudformation) and the MCP validator's model (mcpmodel) — and shares code with
// another only through the helpers markdown (both markdown documents) and tabledef (the
// CreateTable shape both table exports write). This package holds the list of export formats
// (exports.go) and Import, which asks each format whether a file looks like it (Recognise) and
// hands the file to that format's reader, joining a requirement and a data model document into
// one design. A markdown document alone from which nothing of a design is read is refused saying
// so, never imported as an empty design that passes validation.
package format
