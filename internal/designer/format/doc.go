// Package format owns the files a design is read from and written as: the requirement and data
// model markdown documents (with the data model's operation-cell parser), the NoSQL Workbench
// model, the CloudFormation template and the MCP validator's model, the list of export formats and
// Import, which recognises a file's kind from its content. It builds on packages designer, dynamo
// and rules; it will be split into one package per format.
package format
