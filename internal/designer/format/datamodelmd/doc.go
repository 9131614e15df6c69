// Package datamodelmd reads and writes the data model document (dynamodb_data_model.md): tables
// and indexes with their sample items, the access pattern mapping with its operation cells
// (one grammar, opcell.go, reads the export's own line and what people write there), hot partitions, trade-offs and the
// validation checklist. Merge joins a data model with the requirement document read beside it.
// The markdown both documents share is package markdown's.
package datamodelmd
