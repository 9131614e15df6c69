package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"dynaloom/internal/designer"
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
	t.Parallel()
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
	t.Parallel()
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
	page := a.request(http.MethodGet, base+"/mapping?open="+pid, "", nil).Body.String()
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

// writePatternWithOperation creates the Orders design with one write pattern and gives the pattern
// its first operation (a Query, as the Mapping step adds it).
func (a *testApp) writePatternWithOperation(description string) (c createdDesign, base, pid string) {
	a.t.Helper()
	c = a.createJSON(strings.Replace(tableDesign(3, 1), `"name": "Shop",`, `"name": "Shop", "access_patterns": [{"number": 1, "description": "`+description+`", "type": "write", "peak_rps": 5, "avg_rps": 1}],`, 1))
	base = "/d/" + c.EditToken
	d, _ := a.design(c.EditToken)
	pid = d.Patterns[0].ID
	a.hx(base+"/mapping/add", "pattern", pid)
	return c, base, pid
}

func TestMapping_aWriteShowsItsCapacityAndIndexWrites(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c, base, pid := a.writePatternWithOperation("Place an order")
	for _, f := range [][2]string{{"op", "PutItem"}, {"table", "Orders"}, {"key_condition", "pk = :pk AND sk = :sk"}, {"values", ":pk=P100, :sk=100, :status=NEW"}} {
		if rec := a.hx(base+"/mapping/field", "pattern", pid, "index", "0", "field", f[0], "value", f[1]); rec.Code != http.StatusOK {
			t.Fatalf("set %s: %d %s", f[0], rec.Code, rec.Body)
		}
	}
	page := a.request(http.MethodGet, base+"/mapping?open="+pid, "", nil).Body.String()
	if !strings.Contains(page, "puts 1 item on Orders · write units: 1 (table) + 1 (1 index write) = 2") ||
		!strings.Contains(page, "ByStatus0: the item enters the index at status = NEW, sk = 100 · 1 index write · 1 write unit") {
		t.Fatal("the mapping page does not show the write's cost and its index write")
	}
	if d2, _ := a.design(c.EditToken); len(d2.Tables[0].Items) != 3 {
		t.Fatal("evaluating a write changed the sample items")
	}
}

func TestMapping_aTransactionRowSaysWhatItDoes(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c, base, pid := a.writePatternWithOperation("Touch an order")
	actionCell := elemID("opf", pid, "0", "action")
	if page := a.request(http.MethodGet, base+"/mapping?open="+pid, "", nil).Body.String(); strings.Contains(page, actionCell) {
		t.Fatal("a Query row offers an action")
	}
	set := func(field, value string, want int) string {
		t.Helper()
		rec := a.hx(base+"/mapping/field", "pattern", pid, "index", "0", "field", field, "value", value)
		if rec.Code != want {
			t.Fatalf("set %s to %q: %d, want %d: %s", field, value, rec.Code, want, rec.Body)
		}
		return rec.Body.String()
	}
	// Item 1's key and a status, without an action: the row puts the item.
	set("op", "TransactWriteItems", http.StatusOK)
	set("table", "Orders", http.StatusOK)
	set("key_condition", "pk = :pk AND sk = :sk", http.StatusOK)
	set("values", ":pk=P001, :sk=1, :status=S1", http.StatusOK)
	page := a.request(http.MethodGet, base+"/mapping?open="+pid, "", nil).Body.String()
	for _, want := range []string{actionCell, "From the values (put, or delete without attributes)", "Condition check", "puts 1 item on Orders · write units: 2 (table)"} {
		if !strings.Contains(page, want) {
			t.Fatalf("the transaction row lacks %q", want)
		}
	}
	body := set("action", "delete", http.StatusOK)
	if !strings.Contains(body, "deletes 1 item on Orders · write units: 2 (table)") {
		t.Fatalf("a delete row does not show what it deletes: %s", body)
	}
	if d, _ := a.design(c.EditToken); d.Patterns[0].Mapping.Operations[0].Action != designer.ActionDelete {
		t.Fatalf("action stored as %q", d.Patterns[0].Mapping.Operations[0].Action)
	}
	body = set("action", "upsert", http.StatusUnprocessableEntity)
	if !strings.Contains(body, "upsert") || !strings.Contains(body, "put, update, delete, condition_check") {
		t.Fatalf("the refusal does not say what the action may be: %s", body)
	}
	if d, _ := a.design(c.EditToken); d.Patterns[0].Mapping.Operations[0].Action != designer.ActionDelete {
		t.Fatal("a refused action changed the design")
	}
	// A BatchWriteItem cannot update, so switching to it drops the update and the choice.
	set("action", "update", http.StatusOK)
	body = set("op", "BatchWriteItem", http.StatusOK)
	if strings.Contains(body, "Condition check") || !strings.Contains(body, actionCell) {
		t.Fatal("a BatchWriteItem row offers a condition check, or no action at all")
	}
	if d, _ := a.design(c.EditToken); d.Patterns[0].Mapping.Operations[0].Action != "" {
		t.Fatalf("a BatchWriteItem kept the action %q", d.Patterns[0].Mapping.Operations[0].Action)
	}
}

// The write builder's forms refuse what they cannot write, name the field, and change nothing.
func TestMapping_writeBuilderRefusesAndChangesNothing(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c, base, pid := a.writePatternWithOperation("Pay an order")
	a.hx(base+"/mapping/field", "pattern", pid, "index", "0", "field", "op", "value", "UpdateItem")
	a.hx(base+"/mapping/field", "pattern", pid, "index", "0", "field", "table", "value", "Orders")
	_, rev := a.design(c.EditToken)
	for _, post := range [][]string{
		{"/mapping/update", "choice", "MERGE", "attribute", "status", "text", "PAID", "build-update-error", "is not an update clause"},
		{"/mapping/update", "choice", "SET", "attribute", "pk", "text", "P9", "build-update-error", "pk is part of Orders&#39;s key"},
		{"/mapping/condition", "choice", "like", "attribute", "status", "text", "x", "build-condition-error", "is not a condition"},
		{"/mapping/key", "attribute", "sk", "value", "soon", "cell-error", "sk is a number key; &#34;soon&#34; is not a number"},
	} {
		n := len(post)
		rec := a.hx(base+post[0], append([]string{"pattern", pid, "index", "0"}, post[1:n-2]...)...)
		if body := rec.Body.String(); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, post[n-2]) || !strings.Contains(body, post[n-1]) {
			t.Errorf("%v: %d, want 422 with the refusal on its form: %.3000s", post, rec.Code, body)
		}
	}
	if _, got := a.design(c.EditToken); got != rev {
		t.Fatalf("refused clauses made revision %d from %d", got, rev)
	}
	// Accepted, a clause is written out with its placeholders.
	if rec := a.hx(base+"/mapping/update", "pattern", pid, "index", "0", "choice", "SET", "attribute", "status", "text", "PAID"); rec.Code != http.StatusOK {
		t.Fatalf("SET status: %d %s", rec.Code, rec.Body)
	}
	d, _ := a.design(c.EditToken)
	if op := d.Patterns[0].Mapping.Operations[0]; op.Update != "SET #status = :status" || op.Names["#status"] != "status" || op.Values[":status"].S != "PAID" {
		t.Fatalf("the update is %q with names %v and values %v", op.Update, op.Names, op.Values)
	}
}
