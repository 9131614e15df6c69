package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/derive"
	"dynaloom/internal/storage"
)

// contentSecurityPolicy allows nothing inline and nothing from elsewhere.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		return next(c)
	}
}

// noStore keeps pages and answers addressed by a token out of shared caches and browser history.
func noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// varyOnHTMX tells caches that a design's routes answer htmx requests (HX-Request) with a
// fragment and others with the whole page or a redirect.
func varyOnHTMX(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Add("Vary", "HX-Request")
		return next(c)
	}
}

var errCrossOrigin = errors.New("cross-origin request refused")

// crossOriginProtection refuses state-changing requests a browser sends from another site.
func crossOriginProtection() echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := cop.Check(c.Request()); err != nil {
				return errCrossOrigin
			}
			return next(c)
		}
	}
}

func (s *Server) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.ContentLength > s.opts.BodyLimit {
			return errBodyTooLarge
		}
		req.Body = http.MaxBytesReader(c.Response(), req.Body, s.opts.BodyLimit)
		return next(c)
	}
}

// logRequests logs one line per request. It logs the route pattern, never the path, so tokens in
// URLs never reach the log. A client that left is not the server's failure: its request is logged
// at info (at warning when the server's write deadline cut it off) with client_gone and the cause,
// and with 499 as the status when nothing was sent. A failure after the answer began can no longer
// be shown to the client, so it is logged here.
func (s *Server) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		s.logRequest(c, start, next(c))
		return nil
	}
}

// logRequest logs the request c that began at start and ended with err. It is apart from
// logRequests so that a long-lived request (an event stream) does not hold its frame on its stack.
func (s *Server) logRequest(c echo.Context, start time.Time, err error) {
	res := c.Response()
	var design []any
	if d, ok := c.Get(designKey).(*designContext); ok {
		design = []any{"design_id", d.ID}
	}
	status, gone := res.Status, ""
	if err != nil {
		gone = clientGone(c, err)
		switch {
		case gone != "":
			if !res.Committed {
				status = statusClientClosed
			}
		case res.Committed:
			s.log.Error("request failed after its answer began", append([]any{"route", c.Path(), "status", res.Status, "err", err}, design...)...)
		default:
			c.Error(err)
			status = res.Status
		}
	}
	attrs := append([]any{
		"method", c.Request().Method,
		"route", c.Path(),
		"status", status,
		"duration_ms", float64(time.Since(start).Microseconds()) / 1000,
	}, design...)
	switch gone {
	case "":
		s.log.Info("request", attrs...)
	case "write_timeout":
		s.log.Warn("request", append(attrs, "client_gone", true, "cause", gone)...)
	default:
		s.log.Info("request", append(attrs, "client_gone", true, "cause", gone)...)
	}
}

func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				err = fmt.Errorf("panic in %s: %v", c.Path(), r)
			}
		}()
		return next(c)
	}
}

const designKey = "design"

// designContext is the design a request addresses and what its token allows.
type designContext struct {
	ID     string
	Token  string
	Access storage.Access
	Record storage.Record
	// Presenting is the read-only projector mode (?present=1), which an edit link may ask for.
	Presenting bool
	// AtRevision is set when Record is a past revision, shown read-only (history.go).
	AtRevision int64
	// AsideFolded is the side panel folded away in this browser (rails.go), which every drawing
	// of the panel keeps.
	AsideFolded bool
	// set holds what is derived from each revision (nil: worked out afresh for each request).
	set *derive.Set
}

// derived is what is computed from the record shown: findings, questions, checklists, index views
// and the evaluator's Cache, worked out once per revision and shared by every request for it.
func (d *designContext) derived() *derive.Derived {
	if d.set == nil {
		return derive.New(d.Record.Design, nil)
	}
	return d.set.Get(d.ID, d.Record.Revision, d.Record.Design)
}

// heldDesign is the design at revision rev when what is derived from it is still held, without
// reading it again.
func (d *designContext) heldDesign(rev int64) (designer.Design, bool) {
	if d.set == nil {
		return designer.Design{}, false
	}
	x, ok := d.set.Held(d.ID, rev)
	if !ok {
		return designer.Design{}, false
	}
	return x.Design(), true
}

func (d *designContext) canEdit() bool {
	return d.Access == storage.EditAccess && !d.Presenting && d.AtRevision == 0
}

func designFrom(c echo.Context) *designContext { return c.Get(designKey).(*designContext) }

// resolveDesign turns the :token parameter into a design, or answers 404.
func (s *Server) resolveDesign(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		d, err := s.openDesign(c)
		if err != nil {
			return err
		}
		c.Set(designKey, d)
		return next(c)
	}
}

// openDesign reads the design the :token parameter names. It is apart from resolveDesign so that
// the record it loads is not held on the stack of a long-lived request.
func (s *Server) openDesign(c echo.Context) (*designContext, error) {
	ctx := c.Request().Context()
	token := strings.TrimSpace(c.Param("token"))
	id, access, err := s.store.Resolve(ctx, token)
	if err != nil {
		return nil, err
	}
	rec, err := s.store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	presenting := c.Request().Method == http.MethodGet && c.QueryParam("present") == "1"
	return &designContext{ID: id, Token: token, Access: access, Record: rec, Presenting: presenting,
		AsideFolded: railFolded(c, railAside), set: s.derived}, nil
}

var errViewOnly = errors.New("this link is view-only")

// requireEdit refuses a view link the handlers of changes. echo also runs a group's middleware
// for the paths under it that no route serves (its catch-all ends in "/*"): those are not found,
// whichever link asks.
func requireEdit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if strings.HasSuffix(c.Path(), "/*") {
			return echo.ErrNotFound
		}
		if !designFrom(c).canEdit() {
			return errViewOnly
		}
		return next(c)
	}
}
