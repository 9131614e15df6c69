package server

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"dynaloom/web/static"
)

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
