// Package rules owns the rule catalogue (validate.go, described in docs/rules.md): Validate and
// its findings (REQ, MOD, MAP and CAP), the questions for the room, the aggregate and
// consolidation suggestions and the seed checklists. It reads a design (package designer) and runs
// its operations through package dynamo; it knows no file format, no HTTP and no storage.
package rules
