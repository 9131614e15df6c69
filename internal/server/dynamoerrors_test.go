package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
)

// Every refusal /evaluate makes, whichever middleware makes it, is in DynamoDB's error shape: the
// status DynamoDB gives, its content type and a __type an SDK reads.
func TestEvaluate_everyRefusalIsDynamoDBShaped(t *testing.T) {
	a := newTestAppWith(t, Options{CostlyLimit: Rate{PerSecond: 0.01, Burst: 3}, BodyLimit: 1 << 10})
	created := a.createJSON(`{"example": "hr-employees"}`)
	evaluate := func(token, target, body string, headers ...string) *httptest.ResponseRecorder {
		return a.request(http.MethodPost, "/api/designs/"+token+"/evaluate", amzJSON, strings.NewReader(body),
			append([]string{"X-Amz-Target", target}, headers...)...)
	}
	scan := `{"TableName": "Employee", "Limit": 1}`
	for _, tc := range []struct {
		name   string
		rec    func() *httptest.ResponseRecorder
		status int
		typ    string
	}{
		{"an unknown design", func() *httptest.ResponseRecorder {
			return evaluate("no-such-token", "DynamoDB_20120810.Scan", scan)
		}, 400, dynamoPrefix + "ResourceNotFoundException"},
		{"a body past the limit", func() *httptest.ResponseRecorder {
			return evaluate(created.ViewToken, "DynamoDB_20120810.Scan", `{"TableName": "`+strings.Repeat("x", 2<<10)+`"}`)
		}, 400, dynamoPrefix + "ValidationException"},
		{"a request from another site", func() *httptest.ResponseRecorder {
			return evaluate(created.ViewToken, "DynamoDB_20120810.Scan", scan, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
		}, 400, dynamoPrefix + "AccessDeniedException"},
		{"an unknown operation", func() *httptest.ResponseRecorder {
			return evaluate(created.ViewToken, "DynamoDB_20120810.PutItem", `{}`)
		}, 400, "com.amazon.coral.service#UnknownOperationException"},
		{"a missing table", func() *httptest.ResponseRecorder {
			return evaluate(created.ViewToken, "DynamoDB_20120810.Scan", `{"TableName": "Nope"}`)
		}, 400, dynamoPrefix + "ResourceNotFoundException"},
		{"the first read", func() *httptest.ResponseRecorder {
			return evaluate(created.ViewToken, "DynamoDB_20120810.Scan", scan)
		}, 200, ""},
		{"a read past the rate limit", func() *httptest.ResponseRecorder {
			return evaluate(created.ViewToken, "DynamoDB_20120810.Scan", scan)
		}, 400, dynamoPrefix + "ThrottlingException"},
	} {
		rec := tc.rec()
		if rec.Code != tc.status || rec.Header().Get("Content-Type") != amzJSON {
			t.Errorf("%s: %d %s %s; want %d %s", tc.name, rec.Code, rec.Header().Get("Content-Type"), rec.Body, tc.status, amzJSON)
			continue
		}
		if tc.typ == "" {
			continue
		}
		var body struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Type != tc.typ || body.Message == "" {
			t.Errorf("%s: body %s; want __type %s and a message", tc.name, rec.Body, tc.typ)
		}
		if strings.HasSuffix(tc.typ, "#ThrottlingException") && rec.Header().Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", tc.name)
		}
	}
}

// An AWS SDK for Go v2 client with its default retryer, reading as fast as it can against the
// real server, goes through 200 reads at the rate limit without an error: each throttle is a
// ThrottlingException, which the SDK backs off from and retries. The limit is set high for the
// test (100 a second, bursts of 40), so the reads take seconds, not minutes.
func TestEvaluate_anSDKWithItsDefaultRetryerRidesTheRateLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 200 reads through the SDK's back-off take a few seconds")
	}
	a := newTestAppWith(t, Options{CostlyLimit: Rate{PerSecond: 100, Burst: 40}})
	created := a.createJSON(`{"example": "hr-employees"}`)
	ts := httptest.NewUnstartedServer(a.srv.Handler())
	ts.Config = a.srv.HTTPServer("")
	ts.Start()
	defer ts.Close()

	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(ts.URL + "/api/designs/" + created.ViewToken + "/evaluate"),
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "test", SecretAccessKey: "test", Source: "test"}, nil
		}),
	})
	throttled := 0
	for i := range 200 {
		out, err := client.Scan(t.Context(), &dynamodb.ScanInput{TableName: aws.String("Employee"), Limit: aws.Int32(1)})
		if err != nil {
			var ae smithy.APIError
			if errors.As(err, &ae) {
				t.Fatalf("read %d: %s (%s) after the SDK's retries", i+1, ae.ErrorCode(), ae.ErrorMessage())
			}
			t.Fatalf("read %d: %v", i+1, err)
		}
		if len(out.Items) != 1 {
			t.Fatalf("read %d: %d items, want 1", i+1, len(out.Items))
		}
		attempts, _ := retry.GetAttemptResults(out.ResultMetadata)
		for _, r := range attempts.Results {
			var ae smithy.APIError
			if errors.As(r.Err, &ae) {
				if ae.ErrorCode() != "ThrottlingException" {
					t.Errorf("read %d: an attempt failed with %s, want only throttles", i+1, ae.ErrorCode())
				}
				throttled++
			}
		}
	}
	if throttled == 0 {
		t.Fatal("no read was throttled: the client never outpaced 100 reads a second, so the retries were not tried")
	}
	t.Logf("200 reads, %d attempts throttled and retried", throttled)
}
