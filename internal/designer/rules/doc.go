// Package rules owns the RULES.md catalogue, a table of (code, severity, check) in validate.go:
// Validate and its findings (REQ, MOD and MAP), the questions for the room, the aggregate and
// consolidation suggestions and the seed checklists. It reads a design (package designer) and runs
// its operations through package dynamo; it knows no file format, no HTTP and no storage.
package rules
