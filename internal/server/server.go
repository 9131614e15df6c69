// Package server owns Dynaloom's HTTP surface: the echo instance, its middleware, the pages, the
// JSON API and the one error handler. Handlers are thin: they parse the request, call designer and
// storage, and render a templ component or JSON.
package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer/derive"
	"dynaloom/internal/live"
	"dynaloom/internal/storage"
)

// Options tune a Server. The zero value is usable.
type Options struct {
	// BodyLimit is the largest request body accepted, in bytes; 5 MiB when zero.
	BodyLimit int64
	// KeepAlive is how often an idle event stream gets a comment line; 15 s when zero.
	KeepAlive time.Duration
	// CreateLimit bounds how fast one client address creates designs (POST /designs, /api/designs
	// and /import): 10 a minute with bursts of 20 when zero.
	CreateLimit Rate
	// WriteLimit bounds how fast one client address changes one design (every POST and PUT on it
	// but /evaluate): 20 a second with bursts of 60 when zero.
	WriteLimit Rate
	// CostlyLimit bounds how fast one client address asks for the expensive answers: /evaluate,
	// exports and the export page, and imports: 5 a second with bursts of 30 when zero.
	CostlyLimit Rate
	// WriteBytesLimit bounds how many bytes of POST and PUT bodies one client address sends, per
	// second (PerSecond and Burst in bytes): 256 KiB a second with bursts of 32 MiB when zero.
	WriteBytesLimit Rate
	// TrustForwardedFor counts requests by the last X-Forwarded-For address instead of the
	// connection's, for a server behind a reverse proxy that sets that header.
	TrustForwardedFor bool
	// MaxStreamsPerClient bounds the live event streams one client address holds open (each
	// open workspace tab holds one): 200 when zero, none when negative.
	MaxStreamsPerClient int
	// MaxConnsPerClient bounds the TCP connections one client address holds open, and MaxConns
	// those of all clients together: 400 and 4,096 when zero, none when negative. Behind a proxy
	// (TrustForwardedFor) every connection comes from the proxy, so only MaxConns applies.
	MaxConnsPerClient, MaxConns int
	// ImportBudget is the time one import may work on its files (import_budget.go): 20 s when zero.
	ImportBudget time.Duration
	// LockGrace is how long a step's lock outlives its holder's tab leaving the room
	// (live.LockGrace, a minute, when zero).
	LockGrace time.Duration
}

// Default bounds (Options).
const (
	DefaultBodyLimit           = 5 << 20
	DefaultMaxStreamsPerClient = 200
	DefaultMaxConnsPerClient   = 400
	DefaultMaxConns            = 4096
)

// orDefault is n, or def when n is zero, or 0 (no bound) when n is negative.
func orDefault(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// Server serves one Dynaloom database.
type Server struct {
	store *storage.Store
	log   *slog.Logger
	echo  *echo.Echo
	opts  Options
	// hub is the live room of every design: streams, presence, lead, timer and locks.
	hub live.Room
	// derived holds what is computed from recently used revisions (designContext.derived).
	derived *derive.Set

	createLimit, writeLimit, costlyLimit, writeBytesLimit *limiter
	conns                                                 *connLimiter
}

// Handler returns the HTTP handler.
func (s *Server) Handler() http.Handler { return s.echo }

// HTTPServer wraps the handler with the timeouts a public server needs.
func (s *Server) HTTPServer(addr string) *http.Server {
	srv := &http.Server{
		Addr:              addr,
		Handler:           s.echo,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	perClient := s.opts.MaxConnsPerClient
	if s.opts.TrustForwardedFor {
		perClient = 0 // every connection comes from the proxy
	}
	s.conns = newConnLimiter(perClient, s.opts.MaxConns, s.log.Warn)
	srv.ConnState = s.conns.connState
	// Event streams never go idle by themselves: end them when the server shuts down.
	srv.RegisterOnShutdown(s.hub.Shutdown)
	return srv
}
