package server

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

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
