package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// findExportFormat answers 404 for a format there is not.
func findExportFormat(id string) (designer.ExportFormat, error) {
	f, err := designer.FindExportFormat(id)
	if err != nil {
		return f, &apiError{http.StatusNotFound, "unknown_format", err.Error()}
	}
	return f, nil
}

// markdownRenderer renders previews. goldmark's default is safe: raw HTML is omitted and dangerous
// link schemes are dropped, so user text cannot inject markup.
var markdownRenderer = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))

func renderMarkdown(src []byte) (templ.Component, error) {
	var buf bytes.Buffer
	if err := markdownRenderer.Convert(src, &buf); err != nil {
		return nil, err
	}
	html := buf.String()
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, html)
		return err
	}), nil
}

func (s *Server) exportPage(c echo.Context) error {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "export")
	if err != nil {
		return err
	}
	e := templates.Export{Workspace: w}
	for _, f := range designer.ExportFormats() {
		out, err := f.WriteDated(d.Record.Design, d.Record.CreatedAt, d.Record.UpdatedAt)
		if err != nil {
			// A design a format cannot express (such as a name CloudFormation refuses) still
			// lists the format, saying why instead of offering the file.
			e.Files = append(e.Files, templates.ExportFormat{ID: f.ID, Title: f.Title, Filename: f.Filename,
				Description: "Not available for this design: " + err.Error()})
			continue
		}
		v := templates.ExportFormat{ID: f.ID, Title: f.Title, Filename: f.Filename, Description: f.Description,
			Download: "/d/" + d.Token + "/export/" + f.ID, Source: string(out), Size: humanSize(len(out))}
		if !f.Markdown {
			e.Files = append(e.Files, v)
			continue
		}
		if v.Preview, err = renderMarkdown(out); err != nil {
			return err
		}
		e.Documents = append(e.Documents, v)
	}
	return render(c, http.StatusOK, templates.ExportView(e))
}

// exportDownload serves one export, for the page's download link and the API alike.
func (s *Server) exportDownload(c echo.Context) error {
	f, err := findExportFormat(c.Param("format"))
	if err != nil {
		return err
	}
	rec := designFrom(c).Record
	out, err := f.WriteDated(rec.Design, rec.CreatedAt, rec.UpdatedAt)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+f.Filename+`"`)
	return c.Blob(http.StatusOK, f.MediaType, out)
}

// humanSize says how large a file is, as people read it.
func humanSize(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n) + " bytes"
	case n < 1000*1000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + " KB"
	}
	return strconv.FormatFloat(float64(n)/1000/1000, 'f', 1, 64) + " MB"
}
