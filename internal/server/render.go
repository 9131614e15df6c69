package server

import (
	"bytes"
	"dynaloom/web/static"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

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
