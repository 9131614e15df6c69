package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"dynaloom/internal/storage"
)

// parseDB parses the --db flag of a database command and returns the path and the arguments
// after the flags.
func parseDB(name, usage string, args []string, stderr io.Writer) (string, []string, error) {
	fs := flag.NewFlagSet("dynaloom "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", envOr("DYNALOOM_DB", "dynaloom.db"), "SQLite database file (env DYNALOOM_DB)")
	fs.Usage = func() { fmt.Fprintln(stderr, "Usage: "+usage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return "", nil, err
	}
	if *db == "" {
		return "", nil, errors.New("--db must name a file")
	}
	return *db, fs.Args(), nil
}

// backup writes a consistent copy of the database to a new file, safely while the server runs:
// 0 once the copy is written and checked, 1 when it could not be made, 2 for bad usage.
func backup(args []string, stdout, stderr io.Writer) int {
	const usage = "dynaloom backup [--db PATH] FILE"
	db, rest, err := parseDB("backup", usage, args, stderr)
	if err != nil {
		return flagStatus(err)
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "Usage:", usage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := storage.Backup(ctx, db, rest[0]); err != nil {
		fmt.Fprintln(stderr, "dynaloom backup:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: backed up to %s; the copy passed its integrity check.\n", db, rest[0])
	return 0
}

// check runs the database's full integrity check and says what it found: 0 sound, 1 damaged or
// not readable as a database, 2 for bad usage.
func check(args []string, stdout, stderr io.Writer) int {
	const usage = "dynaloom check [--db PATH]"
	db, rest, err := parseDB("check", usage, args, stderr)
	if err != nil {
		return flagStatus(err)
	}
	if len(rest) != 0 {
		fmt.Fprintln(stderr, "Usage:", usage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	problems, err := storage.Check(ctx, db)
	switch {
	case errors.Is(err, storage.ErrDamaged):
		fmt.Fprintf(stdout, "%s: damaged. It cannot be read as a database (%v).\n%s", db, err, restoreAdvice)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "dynaloom check:", err)
		return 1
	case len(problems) > 0:
		fmt.Fprintf(stdout, "%s: damaged. The integrity check found %s:\n", db, plural(len(problems), "problem"))
		for _, p := range problems {
			fmt.Fprintln(stdout, "  -", p)
		}
		fmt.Fprint(stdout, restoreAdvice)
		return 1
	}
	aside, err := storage.SetAside(db)
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom check:", err)
		return 1
	}
	if len(aside) > 0 {
		fmt.Fprintf(stdout, "%s: the integrity check found no problems, but changes are missing: the server found a damaged write-ahead log at start-up and set it aside, with the database as it was, in:\n", db)
		for _, f := range aside {
			fmt.Fprintln(stdout, "  -", f)
		}
		fmt.Fprintln(stdout, "Changes committed after the damaged part of that log are not in the database. Salvage what you need, then move those files out of this folder; /healthz answers 503 until you do.")
		return 1
	}
	fmt.Fprintf(stdout, "%s: ok. The integrity check found no problems.\n", db)
	return 0
}

const restoreAdvice = "Stop the server, then restore the newest backup (README, \"Backups and health\").\n"
