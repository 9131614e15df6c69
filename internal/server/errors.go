package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

var errBodyTooLarge = errors.New("request body too large")

// apiError is a refusal with a status, a stable code and a message a person can act on.
type apiError struct {
	Status  int
	Code    string
	Message string
}

func (e *apiError) Error() string { return e.Message }

// lockedError refuses a change to a step, or a section of one, that another participant holds
// locked (lock.go); What names it.
type lockedError struct{ What, By string }

func (e *lockedError) Error() string {
	return e.What + " is locked by " + e.By + "; ask " + e.By + " to unlock it"
}

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
	var lk *lockedError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &lk):
		return &apiError{http.StatusLocked, "locked", lk.Error() + "."}
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
	var lk *lockedError
	switch {
	case errors.As(err, &ve):
		return &refused{&apiError{http.StatusUnprocessableEntity, "invalid_input", refusalText(ve)}, err}, true
	case errors.As(err, &lk):
		return &refused{&apiError{http.StatusUnprocessableEntity, "locked", "Not saved: " + lk.Error() + "."}, err}, true
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
	case http.StatusLocked:
		return "Someone holds this step"
	case http.StatusInsufficientStorage, http.StatusServiceUnavailable:
		return "The server cannot save right now"
	}
	if ae.Status >= 500 {
		return "Something went wrong"
	}
	return http.StatusText(ae.Status)
}

var errCrossOrigin = errors.New("cross-origin request refused")

var errViewOnly = errors.New("this link is view-only")

// errNotShown is what a part answers to a refusal it has no place to show: apply then leaves the
// refusal to the error handler.
var errNotShown = errors.New("the answer has no place to show the refusal")

// refusalText words a refused change for the field it is shown under.
func refusalText(ve *designer.ValidationError) string {
	return "Not saved: " + strings.TrimSuffix(ve.Message, ".") + "."
}

const (
	amzJSON      = "application/x-amz-json-1.0"
	dynamoPrefix = "com.amazonaws.dynamodb.v20120810#"
)

// dynamoError answers in DynamoDB's error shape, which clients of the evaluate endpoint parse.
func dynamoError(c echo.Context, typ, message string) error {
	return c.Blob(http.StatusBadRequest, amzJSON, mustJSON(map[string]string{"__type": typ, "message": message}))
}

func mustJSON(v map[string]string) []byte {
	b, _ := json.Marshal(v) // a map of strings always encodes
	return b
}

// speaksDynamoDB tells whether r came to an endpoint that speaks DynamoDB's JSON protocol
// (/evaluate), whose clients are AWS SDKs: every refusal there, whichever middleware makes it, is
// answered in DynamoDB's error shape so that an SDK reads it (and retries a throttle) instead of
// reporting an UnknownError.
func speaksDynamoDB(r *http.Request) bool {
	path := strings.TrimSuffix(r.URL.Path, "/")
	return strings.HasPrefix(path, "/api/designs/") && strings.HasSuffix(path, "/evaluate")
}

// dynamoShape is what DynamoDB would answer for the refusal ae: its status and __type. A throttle
// is DynamoDB's 400 ThrottlingException, which SDKs back off from and retry; server failures keep
// their 5xx status, which SDKs retry too; every other refusal is a ValidationException, as
// DynamoDB answers a request it will not serve, save a missing design (ResourceNotFound) and a
// request from another site (AccessDenied).
func dynamoShape(ae *apiError) (int, string) {
	switch {
	case ae.Status == http.StatusTooManyRequests:
		return http.StatusBadRequest, dynamoPrefix + "ThrottlingException"
	case ae.Status == http.StatusNotFound && ae.Code == "not_found":
		return http.StatusBadRequest, dynamoPrefix + "ResourceNotFoundException"
	case ae.Status == http.StatusForbidden:
		return http.StatusBadRequest, dynamoPrefix + "AccessDeniedException"
	case ae.Status == http.StatusServiceUnavailable, ae.Status == http.StatusInsufficientStorage:
		return http.StatusServiceUnavailable, "com.amazon.coral.availability#ServiceUnavailableException"
	case ae.Status >= 500:
		return http.StatusInternalServerError, dynamoPrefix + "InternalServerError"
	}
	return http.StatusBadRequest, dynamoPrefix + "ValidationException"
}

// writeDynamoError answers the refusal ae in DynamoDB's error shape. Headers already set (a
// throttle's Retry-After) are kept.
func writeDynamoError(c echo.Context, ae *apiError) error {
	status, typ := dynamoShape(ae)
	return c.Blob(status, amzJSON, mustJSON(map[string]string{"__type": typ, "message": ae.Message}))
}
