// Package dynamo owns DynamoDB's semantics over a design's sample items: the expression lexer and
// parser (key conditions, filters, projections, updates), reads and writes run in-process, their
// capacity, each index's view of the items, and the verdict that compares a result with the keys a
// team expects. It imports package designer and nothing else of Dynaloom; what it computes is
// derived from a design on demand and never stored in one.
package dynamo
