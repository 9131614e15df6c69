// Command anchor is the bare Go server the cold start of dynaloom is measured against
// (test/coldstart): it opens the same SQLite file with the same driver as the store does (WAL),
// runs a CREATE TABLE IF NOT EXISTS and PRAGMA quick_check, and answers /healthz with "ok" —
// what any server on this database must do before its first answer, and nothing more.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"path/filepath"

	_ "github.com/mattn/go-sqlite3"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	path := flag.String("db", "anchor.db", "SQLite database file")
	flag.Parse()
	abs, err := filepath.Abs(*path)
	if err != nil {
		log.Fatal(err)
	}
	db, err := sql.Open("sqlite3", (&url.URL{Scheme: "file", Path: abs}).String()+"?mode=rwc&_journal_mode=WAL&_busy_timeout=5000&_synchronous=FULL")
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS anchor (id INTEGER PRIMARY KEY, body BLOB)`); err != nil {
		log.Fatal(err)
	}
	var verdict string
	if err := db.QueryRow(`PRAGMA quick_check`).Scan(&verdict); err != nil || verdict != "ok" {
		log.Fatalf("quick_check: %q %v", verdict, err)
	}
	http.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := db.PingContext(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "ok")
	})
	log.Fatal(http.ListenAndServe(*addr, nil))
}
