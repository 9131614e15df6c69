package server

import (
	"bytes"
	"dynaloom/web/static"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/a-h/templ"
)

// renderBuffers keeps the buffers answers are rendered into: an answer grown anew each time would
// allocate about twice its size, which the garbage collector then pays for on every edit.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// keptBuffer is the largest buffer kept for the next answer; a rare page larger than that is not
// held on to.
const keptBuffer = 1 << 20

// render writes a component with a status. It renders into a buffer first so a failure never
// leaves half a page behind.
func render(c echo.Context, status int, component templ.Component) error {
	buf := renderBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= keptBuffer {
			buf.Reset()
			renderBuffers.Put(buf)
		}
	}()
	if err := component.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// isHTMX reports whether htmx sent the request and so expects a fragment.
func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

var staticFiles = http.FileServerFS(static.FS)

// serveStatic serves the embedded assets; versioned URLs are cached for a year.
func serveStatic(c echo.Context) error {
	name := c.Param("*")
	if name == "" || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".go") {
		return echo.ErrNotFound
	}
	if c.QueryParam("v") != "" {
		c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	}
	req := c.Request().Clone(c.Request().Context())
	req.URL.Path = "/" + name
	staticFiles.ServeHTTP(c.Response(), req)
	return nil
}

// compressMinLength is the smallest body worth compressing: below about one packet, gzip's
// header and trailer cost more than they save.
const compressMinLength = 1024

// compressLevel is a fast level: on the big steps it gives nearly the ratio of the default level
// (1/12 against 1/14 on the Tables step at 10,000 items) for less CPU.
const compressLevel = 3

// compress gzips every answer to a client that accepts gzip, but event streams: their events are
// a few hundred bytes each, and a stream would hold a compressor (close to a megabyte) for as long
// as its tab is open, where a server holds hundreds of streams. Nothing the server sends is
// compressed already (it serves no images but SVG). A request for a range of a file is answered
// as it is, so that the range counts the file's own bytes.
func compress() echo.MiddlewareFunc {
	gz := middleware.GzipWithConfig(middleware.GzipConfig{
		Level:     compressLevel,
		MinLength: compressMinLength,
		Skipper: func(c echo.Context) bool {
			if !acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) || c.Request().Header.Get("Range") != "" {
				// The same address answers others compressed.
				c.Response().Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
				return true
			}
			return false
		},
	})
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		compressed := gz(next)
		return func(c echo.Context) error {
			if strings.HasSuffix(c.Path(), "/events") {
				return next(c)
			}
			res := c.Response()
			res.Writer = &weakenETag{ResponseWriter: res.Writer}
			return compressed(c)
		}
	}
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip: named (or *) without q=0.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(name, "q") {
				if v, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil {
					q = v
				}
			}
		}
		return q > 0
	}
	return false
}

// weakenETag sits under the gzip writer and makes a strong ETag weak when the answer goes out
// compressed: a strong validator names the bytes sent, and the compressed bytes are others than
// the plain ones (the API reads W/"4" in If-Match as it reads "4").
type weakenETag struct {
	http.ResponseWriter
	wroteHeader bool
}

func (w *weakenETag) WriteHeader(code int) {
	w.wroteHeader = true
	h := w.Header()
	if tag := h.Get("ETag"); tag != "" && !strings.HasPrefix(tag, "W/") && h.Get(echo.HeaderContentEncoding) != "" {
		h.Set("ETag", "W/"+tag)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *weakenETag) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (to flush, to set deadlines).
func (w *weakenETag) Unwrap() http.ResponseWriter { return w.ResponseWriter }
