package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func (a *testApp) evaluate(token, op, body string) (int, map[string]any) {
	a.t.Helper()
	rec := a.request(http.MethodPost, "/api/designs/"+token+"/evaluate", "application/x-amz-json-1.0", strings.NewReader(body),
		"X-Amz-Target", "DynamoDB_20120810."+op)
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		a.t.Fatalf("evaluate %s: %d %s", op, rec.Code, rec.Body)
	}
	return rec.Code, out
}

func TestAPI_evaluateAnswersLikeDynamoDB(t *testing.T) {
	a := newTestApp(t)
	c := a.createJSON(tableDesign(90, 1))
	// Items i1..i90 have pk P(i%40): P001 holds items 1, 41 and 81, in sort-key order.
	code, out := a.evaluate(c.ViewToken, "Query", `{"TableName": "Orders", "KeyConditionExpression": "pk = :p",
		"ExpressionAttributeValues": {":p": {"S": "P001"}}, "ScanIndexForward": false, "Limit": 2}`)
	if code != 200 || out["Count"] != float64(2) || out["ScannedCount"] != float64(2) {
		t.Fatalf("query: %d %v", code, out)
	}
	items := out["Items"].([]any)
	if first := items[0].(map[string]any)["sk"].(map[string]any)["N"]; first != "81" {
		t.Fatalf("descending query starts with sk %v, want 81", first)
	}
	if out["LastEvaluatedKey"] == nil {
		t.Fatal("a query stopped by Limit has no LastEvaluatedKey")
	}
	code, out = a.evaluate(c.ViewToken, "GetItem", `{"TableName": "Orders", "Key": {"pk": {"S": "P001"}, "sk": {"N": "41"}}}`)
	if code != 200 || out["Item"].(map[string]any)["total"].(map[string]any)["N"] != "41.5" {
		t.Fatalf("get item: %d %v", code, out)
	}
	code, out = a.evaluate(c.ViewToken, "Query", `{"TableName": "Nope", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "x"}}}`)
	if code != 400 || out["__type"] != "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException" {
		t.Fatalf("unknown table: %d %v", code, out)
	}
	code, out = a.evaluate(c.ViewToken, "Query", `{"TableName": "Orders", "IndexName": "ByStatus0", "ConsistentRead": true,
		"KeyConditionExpression": "#s = :s", "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":s": {"S": "S1"}}}`)
	if code != 400 || out["__type"] != "com.amazonaws.dynamodb.v20120810#ValidationException" {
		t.Fatalf("consistent read on a GSI: %d %v", code, out)
	}
	code, out = a.evaluate(c.ViewToken, "PutItem", `{}`)
	if code != 400 || !strings.HasSuffix(out["__type"].(string), "UnknownOperationException") {
		t.Fatalf("write through evaluate: %d %v", code, out)
	}
}

func TestMapping_expectedResultGivesAVerdict(t *testing.T) {
	a := newTestApp(t)
	c := a.createJSON(strings.Replace(tableDesign(9, 0), `"name": "Shop",`, `"name": "Shop", "access_patterns": [{"number": 1, "description": "Orders of a customer", "type": "read", "peak_rps": 5, "avg_rps": 1}],`, 1))
	base := "/d/" + c.EditToken
	d, _ := a.design(c.EditToken)
	pid := d.Patterns[0].ID
	if rec := a.hx(base+"/mapping/add", "pattern", pid); rec.Code != http.StatusOK {
		t.Fatalf("add operation: %d %s", rec.Code, rec.Body)
	}
	for _, f := range [][2]string{{"table", "Orders"}, {"key_condition", "pk = :p"}, {"values", ":p=P001"}} {
		if rec := a.hx(base+"/mapping/field", "pattern", pid, "index", "0", "field", f[0], "value", f[1]); rec.Code != http.StatusOK {
			t.Fatalf("set %s: %d %s", f[0], rec.Code, rec.Body)
		}
	}
	page := a.request(http.MethodGet, base+"/mapping", "", nil).Body.String()
	if !strings.Contains(page, "1 returned") {
		t.Fatalf("the mapping page does not show the live result")
	}
	key := `{"pk":{"S":"P001"},"sk":{"N":"1"}}`
	rec := a.hx(base+"/mapping/expected", "pattern", pid, "index", "0", "key", key)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `data-verdict="pass"`) {
		t.Fatalf("expected the returned item: %d %s", rec.Code, rec.Body)
	}
	rec = a.hx(base+"/mapping/expected", "pattern", pid, "index", "0", "key", `{"pk":{"S":"P002"},"sk":{"N":"2"}}`)
	if !strings.Contains(rec.Body.String(), `data-verdict="fail"`) {
		t.Fatalf("expecting an item it does not return should fail: %s", rec.Body)
	}
}

func TestMapping_aWriteShowsItsCapacityAndIndexWrites(t *testing.T) {
	a := newTestApp(t)
	c := a.createJSON(strings.Replace(tableDesign(3, 1), `"name": "Shop",`, `"name": "Shop", "access_patterns": [{"number": 1, "description": "Place an order", "type": "write", "peak_rps": 5, "avg_rps": 1}],`, 1))
	base := "/d/" + c.EditToken
	d, _ := a.design(c.EditToken)
	pid := d.Patterns[0].ID
	a.hx(base+"/mapping/add", "pattern", pid)
	for _, f := range [][2]string{{"op", "PutItem"}, {"table", "Orders"}, {"key_condition", "pk = :pk AND sk = :sk"}, {"values", ":pk=P100, :sk=100, :status=NEW"}} {
		if rec := a.hx(base+"/mapping/field", "pattern", pid, "index", "0", "field", f[0], "value", f[1]); rec.Code != http.StatusOK {
			t.Fatalf("set %s: %d %s", f[0], rec.Code, rec.Body)
		}
	}
	page := a.request(http.MethodGet, base+"/mapping", "", nil).Body.String()
	if !strings.Contains(page, "writes 1 item(s) · 1 write units on Orders") || !strings.Contains(page, "ByStatus0: 1 index write(s)") {
		t.Fatal("the mapping page does not show the write's cost and its index write")
	}
	if d2, _ := a.design(c.EditToken); len(d2.Tables[0].Items) != 3 {
		t.Fatal("evaluating a write changed the sample items")
	}
}
