// Package freeform reads design documents written in no template: an architecture decision
// record, a "DynamoDB layout" page, a team's notes. It owns what such a document states in its own
// words — a table's name, billing mode and TTL attribute, its key structure ("PK: USER#{user_id}"
// lines in a fence or bullets, "Hash:"/"Range:" key lines, a key table), each entity type with its
// key templates, the GSIs and LSIs with their keys and projections, the attributes listed for an
// entity, and the access patterns listed under an "Access Patterns" heading or label (bullets,
// numbered lines or a table) with the operation, table, index and key condition each states.
// Every element read gets an import note naming its line; the whole text is also kept as prose
// under its headings. A document from which none of this can be read is refused with the reason,
// never imported as an empty design.
//
// Looks tells the dispatcher (package format) whether a document is one of these rather than the
// requirement or data model template.
package freeform
