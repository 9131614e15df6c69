package server

import (
	"errors"
	"net"
	"net/http"
	"os"
	"syscall"

	"github.com/labstack/echo/v4"
)

// statusClientClosed is logged for a request whose client left before any answer was sent
// (nginx's 499); it is never sent.
const statusClientClosed = 499

// clientGone says why a request's error means its answer could not reach the client: "canceled"
// (the client closed the request), "write_timeout" (the server's write deadline passed) or
// "connection_closed"; "" when the error is the server's own.
func clientGone(c echo.Context, err error) string {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, http.ErrHandlerTimeout):
		return "write_timeout"
	case errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNRESET), errors.Is(err, net.ErrClosed):
		return "connection_closed"
	case c.Request().Context().Err() != nil:
		// The request's context ends when its connection does; whatever failed then failed
		// because the client left.
		return "canceled"
	}
	return ""
}
