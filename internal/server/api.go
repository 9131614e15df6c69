package server

import (
	"dynaloom/internal/designer"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer/dynamo"
	"dynaloom/internal/designer/format"
	"dynaloom/internal/storage"
)

type createdDesign struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Revision  int64  `json:"revision"`
	EditToken string `json:"edit_token"`
	ViewToken string `json:"view_token"`
	EditURL   string `json:"edit_url"`
	ViewURL   string `json:"view_url"`
	// ImportNotes lists what an uploaded file held that could not be placed (kept as prose).
	ImportNotes []string `json:"import_notes,omitempty"`
}

// apiCreateDesign creates a design from design-json, an example id, or uploaded files.
func (s *Server) apiCreateDesign(c echo.Context) error {
	mediaType, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	var d designer.Design
	var notes []format.ImportNote
	var err error
	switch mediaType {
	case echo.MIMEApplicationJSON:
		d, err = designFromJSONBody(c)
	case echo.MIMEMultipartForm:
		var files []format.File
		if files, err = uploadedFiles(c); err == nil {
			d, notes, err = s.importFiles(c, files)
		}
	default:
		return &apiError{http.StatusUnsupportedMediaType, "unsupported_media_type",
			"Send application/json (a design-json document or {\"example\": \"<id>\"}) or multipart/form-data with file parts."}
	}
	if err != nil {
		return err
	}
	rec, tokens, err := s.store.Create(c.Request().Context(), d, author(c))
	if err != nil {
		return err
	}
	s.log.Info("design created", "design_id", rec.ID, "via", "api")
	return c.JSON(http.StatusCreated, createdDesign{
		ID: rec.ID, Name: rec.Design.Name, Revision: rec.Revision,
		EditToken: tokens.Edit, ViewToken: tokens.View,
		EditURL: origin(c) + "/d/" + tokens.Edit, ViewURL: origin(c) + "/d/" + tokens.View,
		ImportNotes: noteTexts(notes),
	})
}

func designFromJSONBody(c echo.Context) (designer.Design, error) {
	body, err := readBody(c)
	if err != nil {
		return designer.Design{}, err
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(body, &probe); err == nil {
		if raw, ok := probe["example"]; ok {
			if len(probe) != 1 {
				return designer.Design{}, badInput("example: send {\"example\": \"<id>\"} alone, without other members")
			}
			var id string
			if err := json.Unmarshal(raw, &id); err != nil {
				return designer.Design{}, badInput("example: must be a string such as \"hr-employees\"")
			}
			return designer.ExampleDesign(id)
		}
	}
	return designer.ParseJSON(body)
}

// designResponse is design-json with the revision it was read at.
type designResponse struct {
	designer.Design
	Revision int64 `json:"revision"`
}

func etag(rev int64) string { return `"` + strconv.FormatInt(rev, 10) + `"` }

func (s *Server) apiGetDesign(c echo.Context) error {
	rec := designFrom(c).Record
	c.Response().Header().Set("ETag", etag(rec.Revision))
	return c.JSON(http.StatusOK, designResponse{Design: designer.Normalize(rec.Design), Revision: rec.Revision})
}

// apiPutDesign replaces the whole design when If-Match names the current revision.
func (s *Server) apiPutDesign(c echo.Context) error {
	rev, err := ifMatchRevision(c, true)
	if err != nil {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	next, err := designer.ParseJSON(body)
	if err != nil {
		return err
	}
	rec, err := s.apiCommit(c, designer.ReplaceDesign{Design: next}, rev)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"id": rec.ID, "revision": rec.Revision})
}

// ifMatchRevision reads the revision an API write is made against from If-Match, in the form
// the API's ETag gives it ("4", W/"4" or 4); 0 when there is none and required is false.
func ifMatchRevision(c echo.Context, required bool) (int64, error) {
	raw := strings.TrimSpace(c.Request().Header.Get("If-Match"))
	if raw == "" {
		if required {
			return 0, &apiError{http.StatusPreconditionRequired, "if_match_required",
				"If-Match: send the revision you are replacing, as given by GET (ETag) or \"revision\"."}
		}
		return 0, nil
	}
	rev, err := strconv.ParseInt(strings.Trim(strings.TrimPrefix(raw, "W/"), `"`), 10, 64)
	if err != nil || rev < 1 {
		return 0, badInput("If-Match: %q is not a revision number", raw)
	}
	return rev, nil
}

// apiCommit commits one change for the API through the one edit path (commit), refused with 412
// unless ifRevision, when not 0, is the newest revision. The answer's ETag names the revision the
// change made; a refusal goes to the error handler, which answers it as JSON.
func (s *Server) apiCommit(c echo.Context, change designer.Change, ifRevision int64) (storage.Record, error) {
	rec, err := s.commit(c, storage.Edit{Change: change, IfRevision: ifRevision})
	if err != nil {
		return storage.Record{}, err
	}
	c.Response().Header().Set("ETag", etag(rec.Revision))
	return rec, nil
}

// apiPostChange applies one typed change, sent in the envelope the history stores
// ({"kind": "set_item_cell", "change": {...}}; docs/changes.md lists every kind), so that a script
// edits one cell without sending the whole design. It is stored through the one edit path like a
// page's edit: If-Match, when given, must name the newest revision (412 otherwise); a change the
// design refuses is a 400 naming the field; the change is announced to every participant, under
// the request's author.
func (s *Server) apiPostChange(c echo.Context) error {
	ifRevision, err := ifMatchRevision(c, false)
	if err != nil {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	change, err := designer.ParseChange(body)
	if err != nil {
		return err
	}
	switch ch := change.(type) {
	case designer.AddComment:
		// A comment is the request's author's, written now, as from a page.
		ch.Author, ch.At = author(c), time.Now().UTC().Format(time.RFC3339)
		change = ch
	case designer.DeleteComment:
		if err := mayDeleteComment(c, ch.ID); err != nil {
			return err
		}
	}
	rec, err := s.apiCommit(c, change, ifRevision)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"id": rec.ID, "revision": rec.Revision})
}

// evaluateOps are the reads the evaluate endpoint answers, as DynamoDB names them.
var evaluateOps = []string{"GetItem", "Query", "Scan", "BatchGetItem"}

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
