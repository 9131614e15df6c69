// Command dynaloom serves the Dynaloom web app, where a team designs a DynamoDB data model together,
// and validates and converts design files from the command line. It owns configuration (flags
// with environment fallbacks), the logger, and the order of start-up and shutdown.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"dynaloom/internal/server"
	"dynaloom/internal/storage"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise it comes from the
// module's build information.
var version = ""

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `Usage:
  dynaloom [serve] [--addr ADDR] [--db FILE]            serve the app (default)
  dynaloom validate [--format text|json|sarif|github] [--fail-on error|warning|info] FILE|DIR|-...
                                                       print each design's findings
  dynaloom export --to FORMAT FILE...                   write a design in another format
  dynaloom cost [--format text|json] FILE...            print a design's capacity, monthly cost and hot partitions
  dynaloom verify [--endpoint URL] [--region R] [--prefix P] [--format text|json] FILE|DIR|-...
                                                       run each design's patterns on a live DynamoDB
  dynaloom backup [--db PATH] FILE                      copy the database to a new FILE, safely while serving
  dynaloom check [--db PATH]                            run the database's integrity check
  dynaloom version                                      print the version

FILE... is one design: a dynamodb_requirement.md and/or a dynamodb_data_model.md, a NoSQL
Workbench model, or a Dynaloom design-json file; each file's kind is read from its content.
`

func run(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(args, stderr)
	case "validate":
		return validate(args, stdout, stderr)
	case "export":
		return export(args, stdout, stderr)
	case "cost":
		return cost(args, stdout, stderr)
	case "verify":
		return verifyCommand(args, stdout, stderr)
	case "backup":
		return backup(args, stdout, stderr)
	case "check":
		return check(args, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "dynaloom", buildVersion())
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "dynaloom: unknown command %q\n%s", cmd, usage)
	return 2
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

type config struct {
	addr string
	db   string
	// trustProxy counts clients by X-Forwarded-For, for a server behind a reverse proxy.
	trustProxy bool
	// limits bound what one design and one client may take (README "Limits"); -1 is no bound.
	maxDesignBytes, maxHistoryBytes, cacheBytes, maxBodyBytes int64
	maxItemsPerTable, maxRevisions, snapshotEvery             int
	maxStreamsPerClient, maxConnsPerClient, maxConns          int
}

// limitFlag is one numeric limit of serve: its flag, environment variable and default.
type limitFlag struct {
	name, env, usage string
	def              int64
	int64p           *int64
	intp             *int
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

func parseServe(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("dynaloom serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.StringVar(&cfg.addr, "addr", envOr("DYNALOOM_ADDR", "127.0.0.1:8080"), "address to listen on (env DYNALOOM_ADDR)")
	fs.StringVar(&cfg.db, "db", envOr("DYNALOOM_DB", "dynaloom.db"), "SQLite database file (env DYNALOOM_DB)")
	fs.BoolVar(&cfg.trustProxy, "behind-proxy", envOr("DYNALOOM_BEHIND_PROXY", "") == "true",
		"rate-limit clients by the last X-Forwarded-For address, for a server behind a reverse proxy (env DYNALOOM_BEHIND_PROXY=true)")
	limits := []limitFlag{
		{"max-design-bytes", "DYNALOOM_MAX_DESIGN_BYTES", "largest stored design, in bytes", storage.DefaultDesignBytes, &cfg.maxDesignBytes, nil},
		{"max-items-per-table", "DYNALOOM_MAX_ITEMS_PER_TABLE", "most sample items in one table", storage.DefaultItemsPerTable, nil, &cfg.maxItemsPerTable},
		{"max-revisions", "DYNALOOM_MAX_REVISIONS", "revisions of history kept per design before the oldest are compacted", storage.DefaultRevisions, nil, &cfg.maxRevisions},
		{"max-history-bytes", "DYNALOOM_MAX_HISTORY_BYTES", "bytes of history kept per design before the oldest is compacted", storage.DefaultHistoryBytes, &cfg.maxHistoryBytes, nil},
		{"snapshot-every", "DYNALOOM_SNAPSHOT_EVERY", "revisions between two snapshots of a design's whole document (this many per 64 KiB of a larger one, up to 16 times as many); opening a revision replays at most that many changes", storage.DefaultSnapshotEvery, nil, &cfg.snapshotEvery},
		{"cache-bytes", "DYNALOOM_CACHE_BYTES", "memory for what is kept of open designs (their records, history snapshots and derived results), in bytes; the server's resident memory stays within it plus about 96 MiB", storage.DefaultCacheBytes, &cfg.cacheBytes, nil},
		{"max-body-bytes", "DYNALOOM_MAX_BODY_BYTES", "largest request body, in bytes", server.DefaultBodyLimit, &cfg.maxBodyBytes, nil},
		{"max-streams-per-client", "DYNALOOM_MAX_STREAMS_PER_CLIENT", "live event streams one client address may hold open", server.DefaultMaxStreamsPerClient, nil, &cfg.maxStreamsPerClient},
		{"max-conns-per-client", "DYNALOOM_MAX_CONNS_PER_CLIENT", "TCP connections one client address may hold open (off behind a proxy)", server.DefaultMaxConnsPerClient, nil, &cfg.maxConnsPerClient},
		{"max-conns", "DYNALOOM_MAX_CONNS", "TCP connections of all clients together", server.DefaultMaxConns, nil, &cfg.maxConns},
	}
	var envErrs []error
	for _, l := range limits {
		def := l.def
		if v := os.Getenv(l.env); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				envErrs = append(envErrs, fmt.Errorf("%s=%q: give a whole number (-1 for no limit)", l.env, v))
			} else {
				def = n
			}
		}
		usage := l.usage + " (-1: no limit; env " + l.env + ")"
		if l.name == "max-body-bytes" {
			usage = l.usage + " (env " + l.env + ")"
		}
		if l.int64p != nil {
			fs.Int64Var(l.int64p, l.name, def, usage)
		} else {
			fs.IntVar(l.intp, l.name, int(def), usage)
		}
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if err := errors.Join(envErrs...); err != nil {
		return cfg, err
	}
	for _, l := range limits {
		n := int64(0)
		if l.int64p != nil {
			n = *l.int64p
		} else {
			n = int64(*l.intp)
		}
		if n == 0 || n < -1 || n == -1 && l.name == "max-body-bytes" {
			if l.name == "max-body-bytes" {
				return cfg, fmt.Errorf("--%s %d: give a positive number of bytes (a body is read into memory, so it always has a limit)", l.name, n)
			}
			return cfg, fmt.Errorf("--%s %d: give a positive number, or -1 for no limit", l.name, n)
		}
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if _, _, err := net.SplitHostPort(cfg.addr); err != nil {
		return cfg, fmt.Errorf("--addr %q: %w", cfg.addr, err)
	}
	if cfg.db == "" {
		return cfg, errors.New("--db must name a file")
	}
	return cfg, nil
}

func serve(args []string, stderr io.Writer) int {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	cfg, err := parseServe(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "dynaloom:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	limitMemory(log, cfg.cacheBytes)
	store, err := storage.OpenWith(ctx, cfg.db, storage.Options{Log: log, CacheBytes: cfg.cacheBytes, Limits: storage.Limits{
		DesignBytes: cfg.maxDesignBytes, ItemsPerTable: cfg.maxItemsPerTable, Revisions: cfg.maxRevisions, HistoryBytes: cfg.maxHistoryBytes,
		SnapshotEvery: cfg.snapshotEvery,
	}})
	if err != nil {
		log.Error("open database", "db", cfg.db, "err", err)
		return 1
	}
	srv := server.New(store, log, server.Options{
		TrustForwardedFor: cfg.trustProxy, BodyLimit: cfg.maxBodyBytes,
		MaxStreamsPerClient: cfg.maxStreamsPerClient, MaxConnsPerClient: cfg.maxConnsPerClient, MaxConns: cfg.maxConns,
	}).HTTPServer(cfg.addr)
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		log.Error("listen", "addr", cfg.addr, "err", err)
		store.Close()
		return 1
	}
	log.Info("Dynaloom is serving; open this in a browser", "url", "http://"+displayAddr(ln.Addr()), "db", cfg.db, "version", buildVersion())

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	code := 0
	select {
	case err := <-served:
		log.Error("server stopped", "err", err)
		code = 1
	case <-ctx.Done():
		log.Info("shutting down")
	}
	// Drain HTTP first, then close the database, so no acknowledged request loses its write.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("shutdown", "err", err)
		code = 1
	}
	if err := store.Close(); err != nil {
		log.Error("close database", "err", err)
		code = 1
	}
	log.Info("stopped")
	return code
}

// displayAddr turns a listening address into one a browser can open.
func displayAddr(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || tcp.IP.IsUnspecified() {
		if ok {
			return fmt.Sprintf("localhost:%d", tcp.Port)
		}
		return a.String()
	}
	return a.String()
}
