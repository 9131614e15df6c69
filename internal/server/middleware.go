package server

import (
	"context"
	"dynaloom/web/templates"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
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

// resolveDesign turns the :token parameter into a design, or answers 404. A request that changes
// the design is carried through even when its client leaves: a person who types in a cell and at
// once clicks a link drops the save's answer, and must not lose the save.
func (s *Server) resolveDesign(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if req := c.Request(); req.Method != http.MethodGet && req.Method != http.MethodHead {
			c.SetRequest(req.WithContext(context.WithoutCancel(req.Context())))
		}
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

// handleError is echo's one error handler: JSON for the API, a page for people.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	ae := classify(err)
	if ae.Status >= 500 {
		attrs := []any{"route", c.Path(), "err", err}
		if d, ok := c.Get(designKey).(*designContext); ok {
			attrs = append(attrs, "design_id", d.ID)
		}
		s.log.Error("request failed", attrs...)
	}
	if speaksDynamoDB(c.Request()) {
		if err := writeDynamoError(c, ae); err != nil {
			s.log.Error("write error response", "err", err)
		}
		return
	}
	if strings.HasPrefix(c.Request().URL.Path, "/api/") || c.Request().URL.Path == "/healthz" {
		body := map[string]any{"error": map[string]string{"code": ae.Code, "message": ae.Message}}
		if err := c.JSON(ae.Status, body); err != nil {
			s.log.Error("write error response", "err", err)
		}
		return
	}
	page := templates.ErrorPage{Page: templates.Page{Title: "Dynaloom"}, Status: ae.Status, Heading: pageHeading(ae), Message: ae.Message}
	if err := render(c, ae.Status, templates.ErrorView(page)); err != nil {
		s.log.Error("write error page", "err", err)
	}
}

// clientAddr is the address requests are counted by: the connection's peer, or with
// TrustForwardedFor the last X-Forwarded-For entry (the one the trusted proxy added). An IPv6
// client counts by its /64, as one machine commonly holds a whole /64.
func (s *Server) clientAddr(r *http.Request) string {
	raw := r.RemoteAddr
	if host, _, err := net.SplitHostPort(raw); err == nil {
		raw = host
	}
	if s.opts.TrustForwardedFor {
		if hops := r.Header.Values("X-Forwarded-For"); len(hops) > 0 {
			list := strings.Split(hops[len(hops)-1], ",")
			if last := strings.TrimSpace(list[len(list)-1]); last != "" {
				raw = last
			}
		}
	}
	addr, err := netip.ParseAddr(raw)
	if err != nil {
		return raw
	}
	addr = addr.Unmap()
	if addr.Is6() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

// tooManyRequests refuses a request, saying when to try again (also in Retry-After).
func tooManyRequests(c echo.Context, what string, wait time.Duration) error {
	secs := max(1, int(math.Ceil(wait.Seconds())))
	c.Response().Header().Set("Retry-After", fmt.Sprint(secs))
	unit := "seconds"
	if secs == 1 {
		unit = "second"
	}
	return &apiError{http.StatusTooManyRequests, "too_many_requests",
		fmt.Sprintf("Too many %s from your address in a short time. Nothing was changed; try again in %d %s.", what, secs, unit)}
}

// perAddress bounds how fast one client address makes the requests next serves, across all
// designs; what names them in the refusal.
func (s *Server) perAddress(l *limiter, what string, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ok, wait := l.allow(s.clientAddr(c.Request())); !ok {
			return tooManyRequests(c, what, wait)
		}
		return next(c)
	}
}

// limitCreation bounds how fast one client address creates designs.
func (s *Server) limitCreation(next echo.HandlerFunc) echo.HandlerFunc {
	return s.perAddress(s.createLimit, "new designs", next)
}

// limitWrites bounds how fast one client address changes one design: every POST and PUT on a
// design except /evaluate, which only reads. It runs after resolveDesign.
func (s *Server) limitWrites(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		m := c.Request().Method
		if (m != http.MethodPost && m != http.MethodPut) || strings.HasSuffix(c.Path(), "/evaluate") {
			return next(c)
		}
		key := s.clientAddr(c.Request()) + " " + designFrom(c).ID
		if ok, wait := s.writeLimit.allow(key); !ok {
			return tooManyRequests(c, "changes to this design", wait)
		}
		return next(c)
	}
}

// limitCostly bounds how fast one client address asks for answers that cost the server more than
// a page: running reads (/evaluate), exports and imports. The bound is per address across all
// designs, since each costs the same whichever design it names.
func (s *Server) limitCostly(next echo.HandlerFunc) echo.HandlerFunc {
	return s.perAddress(s.costlyLimit, "evaluations, exports and imports", next)
}

// limitWriteBytes bounds how many bytes one client address sends in changes (POST and PUT bodies)
// over time, whichever designs they go to: the rate limits count requests, and one request may
// carry megabytes. A body of unknown length is weighed as the largest accepted.
func (s *Server) limitWriteBytes(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodPost && req.Method != http.MethodPut {
			return next(c)
		}
		n := req.ContentLength
		if n < 0 {
			n = s.opts.BodyLimit
		}
		if ok, wait := s.writeBytesLimit.allowN(s.clientAddr(req), float64(n)); !ok {
			return tooManyRequests(c, "bytes of changes", wait)
		}
		return next(c)
	}
}
