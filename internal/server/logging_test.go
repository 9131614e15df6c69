package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// requestLine returns the log's one "request" line, failing the test unless there is exactly one.
func requestLine(t *testing.T, logs string) string {
	t.Helper()
	var found []string
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "msg=request ") {
			found = append(found, line)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one request line, got %d in:\n%s", len(found), logs)
	}
	return found[0]
}

// A client that leaves before its answer is no server error: the request is logged once, at info,
// as a client gone with nothing sent, not as a failure with status 200 or 500.
func TestLogRequests_clientGoneBeforeTheAnswerIsNoError(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	created := a.createJSON(`{"name": "Orders"}`)
	before := len(a.logs.String())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a.do(httptest.NewRequest(http.MethodGet, "/d/"+created.EditToken, nil).WithContext(ctx))
	logs := a.logs.String()[before:]
	if strings.Contains(logs, "level=ERROR") {
		t.Fatalf("a client gone was logged as an error:\n%s", logs)
	}
	line := requestLine(t, logs)
	for _, want := range []string{"level=INFO", "client_gone=true", "cause=canceled", "status=499"} {
		if !strings.Contains(line, want) {
			t.Errorf("request line lacks %s: %s", want, line)
		}
	}
}

// cutOffWriter takes the status line and headers, then fails every write as a connection past
// the server's write timeout does.
type cutOffWriter struct {
	*httptest.ResponseRecorder
}

func (w cutOffWriter) Write([]byte) (int, error) {
	return 0, fmt.Errorf("write tcp 127.0.0.1:8080->127.0.0.1:50000: %w", os.ErrDeadlineExceeded)
}

// An answer cut off after its headers were sent is logged as not delivered, with the status that
// was sent, at warning, and the request is logged only once.
func TestLogRequests_answerCutOffAfterItsHeadersIsLoggedAsNotDelivered(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	w := cutOffWriter{httptest.NewRecorder()}
	a.srv.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	logs := a.logs.String()
	if strings.Contains(logs, "level=ERROR") {
		t.Fatalf("a cut-off answer was logged as an error:\n%s", logs)
	}
	line := requestLine(t, logs)
	for _, want := range []string{"level=WARN", "client_gone=true", "cause=write_timeout", "status=200"} {
		if !strings.Contains(line, want) {
			t.Errorf("request line lacks %s: %s", want, line)
		}
	}
}

// A failure after the answer began cannot change the answer any more, but it is still a failure
// of the server, and is logged as one rather than dropped.
func TestLogRequests_failureAfterTheAnswerBeganIsAnError(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	a.srv.echo.GET("/test/fails-after-headers", func(c echo.Context) error {
		c.Response().WriteHeader(http.StatusOK)
		return errors.New("the history could not be read")
	})
	a.request(http.MethodGet, "/test/fails-after-headers", "", nil)
	logs := a.logs.String()
	if !strings.Contains(logs, "level=ERROR") || !strings.Contains(logs, "the history could not be read") {
		t.Fatalf("a failure after the answer began was not logged as an error:\n%s", logs)
	}
	if line := requestLine(t, logs); strings.Contains(line, "client_gone") {
		t.Fatalf("a server failure was logged as a client gone: %s", line)
	}
}
