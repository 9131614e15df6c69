package server

import (
	"bytes"
	"context"
	"io"
	"net/http"

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
		if !f.Markdown {
			continue
		}
		out, err := f.Write(d.Record.Design)
		if err != nil {
			return err
		}
		preview, err := renderMarkdown(out)
		if err != nil {
			return err
		}
		e.Formats = append(e.Formats, templates.ExportFormat{ID: f.ID, Title: f.Title, Filename: f.Filename,
			Download: "/d/" + d.Token + "/export/" + f.ID, Source: string(out), Preview: preview})
	}
	return render(c, http.StatusOK, templates.ExportView(e))
}

// exportDownload serves one export, for the page's download link and the API alike.
func (s *Server) exportDownload(c echo.Context) error {
	f, err := findExportFormat(c.Param("format"))
	if err != nil {
		return err
	}
	out, err := f.Write(designFrom(c).Record.Design)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+f.Filename+`"`)
	return c.Blob(http.StatusOK, f.MediaType, out)
}
