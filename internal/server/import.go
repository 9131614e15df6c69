package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
	"dynaloom/web/templates"
)

// uploadedFiles reads the multipart "file" parts of a request.
func uploadedFiles(c echo.Context) ([]format.File, error) {
	form, err := c.MultipartForm()
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		return nil, badInput("body: not a readable multipart form: %v", err)
	}
	var files []format.File
	for _, fh := range form.File["file"] {
		f, err := fh.Open()
		if err != nil {
			return nil, fmt.Errorf("open upload: %w", err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read upload: %w", err)
		}
		files = append(files, format.File{Name: fh.Filename, Data: data})
	}
	if len(files) == 0 {
		return nil, badInput("file: add a part named \"file\" holding the document")
	}
	return files, nil
}

func noteTexts(notes []format.ImportNote) []string {
	out := make([]string, 0, len(notes))
	for _, n := range notes {
		if n.Line > 0 {
			out = append(out, "Line "+strconv.Itoa(n.Line)+": "+n.Message)
		} else {
			out = append(out, n.Message)
		}
	}
	return out
}

func (s *Server) importPage(c echo.Context) error {
	return render(c, http.StatusOK, templates.ImportView(templates.Import{Page: templates.Page{Title: "Import a design · Dynaloom"}}))
}

// importUpload creates a design from an uploaded file and reports what it made of it. The report
// holds the new design's edit link, so no browser or cache may keep it.
func (s *Server) importUpload(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	files, err := uploadedFiles(c)
	if err != nil {
		return err
	}
	d, notes, err := format.Import(files)
	if r, refused := refusal(err); refused {
		page := templates.Import{Page: templates.Page{Title: "Import a design · Dynaloom"}, Error: err.Error()}
		return render(c, r.Status, templates.ImportView(page))
	}
	if err != nil {
		return err
	}
	rec, tokens, err := s.store.Create(c.Request().Context(), d, author(c))
	if err != nil {
		return err
	}
	s.log.Info("design created", "design_id", rec.ID, "via", "import", "notes", len(notes))
	return render(c, http.StatusOK, templates.ImportReportView(templates.ImportReport{
		Page: templates.Page{Title: "Imported · Dynaloom"}, Name: rec.Design.Name, EditURL: "/d/" + tokens.Edit,
		Counts: designer.Summarize(rec.Design), Notes: noteTexts(notes),
	}))
}
