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

// exportFormat is one way out of Dynaloom.
type exportFormat struct {
	id, title, filename, contentType string
	markdown                         bool
	write                            func(designer.Design) ([]byte, error)
}

var exportFormats = []exportFormat{
	{"requirements-md", "Requirements", "dynamodb_requirement.md", "text/markdown; charset=utf-8", true,
		func(d designer.Design) ([]byte, error) { return designer.ExportRequirementsMD(d), nil }},
	{"design-json", "Dynaloom design", "dynaloom-design.json", "application/json", false, designer.MarshalJSON},
}

func findExportFormat(id string) (exportFormat, error) {
	for _, f := range exportFormats {
		if f.id == id {
			return f, nil
		}
	}
	return exportFormat{}, &apiError{http.StatusNotFound, "unknown_format", "format: there is no export format " + strconv.Quote(id) + "; use requirements-md or design-json"}
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
	for _, f := range exportFormats {
		if !f.markdown {
			continue
		}
		out, err := f.write(d.Record.Design)
		if err != nil {
			return err
		}
		preview, err := renderMarkdown(out)
		if err != nil {
			return err
		}
		e.Formats = append(e.Formats, templates.ExportFormat{ID: f.id, Title: f.title, Filename: f.filename,
			Download: "/d/" + d.Token + "/export/" + f.id, Source: string(out), Preview: preview})
	}
	return render(c, http.StatusOK, templates.ExportView(e))
}

// exportDownload serves one export, for the page's download link and the API alike.
func (s *Server) exportDownload(c echo.Context) error {
	f, err := findExportFormat(c.Param("format"))
	if err != nil {
		return err
	}
	out, err := f.write(designFrom(c).Record.Design)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+f.filename+`"`)
	return c.Blob(http.StatusOK, f.contentType, out)
}
