// Package reqmd reads and writes the requirement document (dynamodb_requirement.md): the
// application overview, entities and relationships, access patterns with their rates, the
// aggregate analysis and the consolidation review. The markdown it shares with the data model
// document is package markdown's.
package reqmd
