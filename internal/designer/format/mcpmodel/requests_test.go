package mcpmodel

import (
	"encoding/json"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/dynamo"
)

// Every read request runs on the evaluator as the mapping's operation does, and the requests are
// the model's entries in order: same ids, same operations.
func TestRequests_areTheModelsCommands(t *testing.T) {
	t.Parallel()
	d := designertest.OrdersDesign()
	_, m := exportMCP(t, d)
	var entries []accessPattern // a pattern with nothing mapped has an entry and no request
	for _, e := range m.AccessPatterns {
		if e.DynamoDBOperation != "" {
			entries = append(entries, e)
		}
	}
	reqs := Requests(d)
	if len(reqs) != len(entries) {
		t.Fatalf("%d requests for %d entries", len(reqs), len(entries))
	}
	reads := 0
	for i, r := range reqs {
		e := entries[i]
		if r.ID != e.Pattern || r.Operation != e.DynamoDBOperation {
			t.Errorf("request %d is %s %s; the model's entry is %s %s", i, r.ID, r.Operation, e.Pattern, e.DynamoDBOperation)
		}
		if (r.Body == nil) != (r.Reason != "") {
			t.Errorf("request %s: body %s with reason %q", r.ID, r.Body, r.Reason)
		}
		if !json.Valid(r.Body) && r.Body != nil {
			t.Errorf("request %s: body is not JSON: %s", r.ID, r.Body)
		}
		switch r.Operation {
		case "GetItem", "Query", "Scan", "BatchGetItem":
			if r.Body == nil {
				continue
			}
			if _, err := dynamo.EvaluateJSON(d, r.Operation, r.Body); err != nil {
				t.Errorf("request %s: %s %s: %v", r.ID, r.Operation, r.Body, err)
			}
			reads++
		}
	}
	if reads == 0 {
		t.Fatal("no read request was checked")
	}
}

func TestRequest_bodyNamesTheMembers(t *testing.T) {
	c := newCLI("query")
	c.add("--table-name", "Orders", "--key-condition-expression", "pk = :pk", "--limit", "5", "--no-scan-index-forward", "--consistent-read")
	if err := c.addPlaceholders(nil, map[string]designer.Value{":pk": designer.Str("USER#1")}); err != nil {
		t.Fatal(err)
	}
	got := string(c.request())
	want := `{"ConsistentRead":true,"ExpressionAttributeValues":{":pk":{"S":"USER#1"}},"KeyConditionExpression":"pk = :pk","Limit":5,"ScanIndexForward":false,"TableName":"Orders"}`
	if got != want {
		t.Errorf("request is\n%s\nwant\n%s", got, want)
	}
}
