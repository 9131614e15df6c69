// Package format is the dispatcher of the files a design is read from and written as: the list of
// export formats (exports.go) and Import, which recognises a file's kind from its content and hands
// it to that format's reader. The NoSQL Workbench model (workbench), the CloudFormation template
// (cloudformation) and the MCP validator's model (mcpmodel) are packages of their own, the last two
// sharing the CreateTable shape of a table (tabledef); the requirement and data model markdown
// documents, with the data model's operation-cell parser, are still read and written here.
package format
