package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer/dynamo"
)

// evaluateOps are the reads the evaluate endpoint answers, as DynamoDB names them.
var evaluateOps = []string{"GetItem", "Query", "Scan", "BatchGetItem"}

const (
	amzJSON      = "application/x-amz-json-1.0"
	dynamoPrefix = "com.amazonaws.dynamodb.v20120810#"
)

// dynamoError answers in DynamoDB's error shape, which clients of the evaluate endpoint parse.
func dynamoError(c echo.Context, typ, message string) error {
	return c.Blob(http.StatusBadRequest, amzJSON, mustJSON(map[string]string{"__type": typ, "message": message}))
}

// apiEvaluate runs one read request against the design's sample items with DynamoDB's semantics.
// It changes nothing, so a view link may use it.
func (s *Server) apiEvaluate(c echo.Context) error {
	target := c.Request().Header.Get("X-Amz-Target")
	op, ok := strings.CutPrefix(target, "DynamoDB_20120810.")
	if !ok || !slices.Contains(evaluateOps, op) {
		return dynamoError(c, "com.amazon.coral.service#UnknownOperationException",
			"X-Amz-Target must be DynamoDB_20120810.GetItem, .Query, .Scan or .BatchGetItem")
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	d := designFrom(c)
	out, err := d.derived().Cache().EvaluateJSON(d.Record.Design, op, body)
	var ee *dynamo.EvalError
	if errors.As(err, &ee) {
		return dynamoError(c, dynamoPrefix+ee.Type, ee.Message)
	}
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, amzJSON, out)
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
