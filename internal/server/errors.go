package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
	"dynaloom/web/templates"
)

var errBodyTooLarge = errors.New("request body too large")

// apiError is a refusal with a status, a stable code and a message a person can act on.
type apiError struct {
	Status  int
	Code    string
	Message string
}

func (e *apiError) Error() string { return e.Message }

func badInput(format string, args ...any) error {
	return &apiError{Status: http.StatusBadRequest, Code: "invalid_input", Message: fmt.Sprintf(format, args...)}
}

// classify maps any error to what the client is told. It is the only place that decides statuses.
func classify(err error) *apiError {
	var ae *apiError
	var ve *designer.ValidationError
	var he *echo.HTTPError
	var mbe *http.MaxBytesError
	var ce *storage.ConflictError
	var le *storage.LimitError
	var ue *storage.UndoError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &ve):
		return &apiError{http.StatusBadRequest, "invalid_input", ve.Error()}
	case errors.Is(err, storage.ErrNotFound), errors.Is(err, designer.ErrUnknownExample):
		if errors.Is(err, designer.ErrUnknownExample) {
			return &apiError{http.StatusBadRequest, "invalid_input", "example: " + err.Error()}
		}
		return &apiError{http.StatusNotFound, "not_found", "No design answers to this link. It may have been mistyped or replaced by a new link."}
	case errors.As(err, &ce):
		return &apiError{http.StatusConflict, "edit_conflict",
			ce.Author + " changed this while you were editing it (revision " + strconv.FormatInt(ce.Revision, 10) + "). Keep yours or take theirs."}
	case errors.As(err, &ue):
		return &apiError{http.StatusConflict, ue.Code, ue.Message}
	case errors.As(err, &le):
		return &apiError{http.StatusRequestEntityTooLarge, "limit_exceeded", le.Error() + "."}
	case errors.Is(err, storage.ErrStale):
		return &apiError{http.StatusPreconditionFailed, "stale_revision", "The design has changed since the revision you named in If-Match. Fetch it again and reapply your change."}
	case errors.Is(err, errViewOnly):
		return &apiError{http.StatusForbidden, "view_only", "This is a view-only link; changes need the edit link."}
	case errors.Is(err, errCrossOrigin):
		return &apiError{http.StatusForbidden, "cross_origin", "Changes must come from a Dynaloom page on this server, not from another site."}
	case errors.Is(err, errBodyTooLarge), errors.As(err, &mbe):
		return &apiError{http.StatusRequestEntityTooLarge, "body_too_large", "The request is larger than the server accepts (--max-body-bytes, 5 MiB by default)."}
	case errors.Is(err, storage.ErrFull):
		return &apiError{http.StatusInsufficientStorage, "storage_full", "The server could not save this: its disk is full. Nothing was changed; tell whoever runs Dynaloom."}
	case errors.Is(err, storage.ErrReadOnly):
		return &apiError{http.StatusServiceUnavailable, "storage_read_only", "The server could not save this: its database is read-only. Nothing was changed; tell whoever runs Dynaloom."}
	case errors.Is(err, storage.ErrDamaged):
		return &apiError{http.StatusServiceUnavailable, "storage_damaged", "The server could not save this: its database is damaged. Nothing was changed; tell whoever runs Dynaloom."}
	case errors.Is(err, storage.ErrUnavailable):
		return &apiError{http.StatusServiceUnavailable, "storage_unavailable", "The server could not write to its disk, so this may not have been saved. Reload the page to see, and tell whoever runs Dynaloom."}
	case errors.As(err, &he):
		return httpError(he)
	}
	return &apiError{http.StatusInternalServerError, "internal", "Something went wrong on the server. Nothing was changed; try again."}
}

// refusal classifies a refused change, or a refused undo, for an answer that shows it where it was
// made — on the field, in the form, thread or list it came from — instead of on the error page:
// status 422, which htmx swaps in like a success (layout.templ) and a plain form post shows with
// its form, and the message worded for the field. ok is false for any other error, which goes on
// to the error handler; there, as through the API, a refused change is a 400.
func refusal(err error) (*refused, bool) {
	var ve *designer.ValidationError
	var ue *storage.UndoError
	switch {
	case errors.As(err, &ve):
		return &refused{&apiError{http.StatusUnprocessableEntity, "invalid_input", refusalText(ve)}, err}, true
	case errors.As(err, &ue):
		return &refused{&apiError{http.StatusUnprocessableEntity, ue.Code, ue.Message}, err}, true
	}
	return nil, false
}

// refused is a refusal classified by refusal, with the error it was made from.
type refused struct {
	*apiError
	err error
}

func httpError(he *echo.HTTPError) *apiError {
	switch he.Code {
	case http.StatusNotFound:
		return &apiError{he.Code, "not_found", "There is nothing at this address."}
	case http.StatusMethodNotAllowed:
		return &apiError{he.Code, "method_not_allowed", "This address does not accept that method."}
	case http.StatusRequestEntityTooLarge:
		return &apiError{he.Code, "body_too_large", "The request is larger than the server accepts (--max-body-bytes, 5 MiB by default)."}
	case http.StatusUnsupportedMediaType:
		return &apiError{he.Code, "unsupported_media_type", fmt.Sprint(he.Message)}
	}
	code := strings.ToLower(strings.ReplaceAll(http.StatusText(he.Code), " ", "_"))
	return &apiError{he.Code, code, http.StatusText(he.Code)}
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

func pageHeading(ae *apiError) string {
	switch ae.Status {
	case http.StatusNotFound:
		return "This link does not open a design"
	case http.StatusForbidden:
		return "Not allowed from here"
	case http.StatusRequestEntityTooLarge:
		return "That was too much at once"
	case http.StatusBadRequest:
		return "Dynaloom could not use that input"
	case http.StatusTooManyRequests:
		return "Slow down a little"
	case http.StatusInsufficientStorage, http.StatusServiceUnavailable:
		return "The server cannot save right now"
	}
	if ae.Status >= 500 {
		return "Something went wrong"
	}
	return http.StatusText(ae.Status)
}
