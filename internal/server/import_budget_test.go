package server

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func uploadBody(t testing.TB, name string, data []byte) (*bytes.Buffer, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	mw.Close()
	return &body, mw.FormDataContentType()
}

const modelStart = "# Shop Data Model\n\n## Table Designs\n\n### Orders Table\n\n- **Partition Key**: PK (String)\n- **Sort Key**: SK (String)\n\n"

// A markdown upload nested past what Dynaloom reads is refused at once, on the page and in the
// API, with a message naming the line and the limit; no design is made.
func TestImport_hostileMarkdownIsRefusedNamingTheLimit(t *testing.T) {
	a := newTestApp(t)
	doc := []byte(modelStart + strings.Repeat(">", 200_000) + " x\n")
	body, ct := uploadBody(t, "dynamodb_data_model.md", doc)
	rec := a.request(http.MethodPost, "/import", ct, body)
	if page := rec.Body.String(); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(page, "line 10 sits in more than 32 block quotes and list items") {
		t.Fatalf("/import: %d %s", rec.Code, page)
	}
	body, ct = uploadBody(t, "dynamodb_data_model.md", doc)
	rec = a.request(http.MethodPost, "/api/designs", ct, body)
	var got struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != http.StatusBadRequest ||
		got.Error.Code != "invalid_input" || !strings.Contains(got.Error.Message, "nested at most 32 deep") {
		t.Fatalf("/api/designs: %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(a.logs.String(), "design created") {
		t.Error("a refused import created a design")
	}
}

// An import that works past its budget is answered with a refusal naming the budget, not left
// to the write timeout.
func TestImport_pastItsBudgetIsRefusedNamingIt(t *testing.T) {
	a := newTestAppWith(t, Options{ImportBudget: time.Nanosecond})
	body, ct := uploadBody(t, "dynamodb_data_model.md", []byte(modelStart+"| PK | SK |\n|---|---|\n| u1 | s1 |\n"))
	rec := a.request(http.MethodPost, "/import", ct, body)
	if page := rec.Body.String(); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(page, "took more than 1ns to read, the budget of one import") {
		t.Fatalf("/import: %d %s", rec.Code, page)
	}
}

// When the client has gone the import stops and makes no design; the log says the client left.
func TestImport_stopsWhenTheClientGoes(t *testing.T) {
	a := newTestApp(t)
	body, ct := uploadBody(t, "dynamodb_data_model.md", []byte(modelStart+"| PK | SK |\n|---|---|\n| u1 | s1 |\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/import", body)
	req.Header.Set("Content-Type", ct)
	a.do(req)
	logs := a.logs.String()
	if strings.Contains(logs, "design created") || !strings.Contains(logs, "499") {
		t.Fatalf("logs:\n%s", logs)
	}
}
