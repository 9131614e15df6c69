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
