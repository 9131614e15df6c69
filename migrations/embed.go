// Package migrations holds Dynaloom's SQLite schema as numbered SQL files (001_init.sql, ...).
// internal/storage applies them at start, in order, each in its own transaction, and records each
// one in the schema_migrations table. A migration is never edited once it has landed: a schema
// change is a new, higher-numbered file.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
