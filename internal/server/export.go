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

	"dynaloom/internal/designer/format"
	"dynaloom/web/templates"
)

// findExportFormat answers 404 for a format there is not.
func findExportFormat(id string) (format.ExportFormat, error) {
	f, err := format.FindExportFormat(id)
	if err != nil {
		return f, &apiError{http.StatusNotFound, "unknown_format", err.Error()}
	}
	return f, nil
}

// markdownRenderer renders previews. goldmark's default is safe: raw HTML is omitted and dangerous
// link schemes are dropped, so user text cannot inject markup.
var markdownRenderer = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))

// maxPreviewNesting is how many block quotes and list items one line may open in a preview.
// goldmark's work grows with the square of that nesting (a line of 100,000 ">" took seconds), and
// no document a team writes comes near it.
const maxPreviewNesting = 32

func renderMarkdown(src []byte) (templ.Component, error) {
	var buf bytes.Buffer
	if err := markdownRenderer.Convert(capNesting(src), &buf); err != nil {
		return nil, err
	}
	html := buf.String()
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, html)
		return err
	}), nil
}

// maxPreviewIndent is the deepest indentation, in columns, a preview line keeps. Lists nested by
// indentation over many lines cost goldmark work for each level on every line, and an
// indentation this deep already holds 16 levels of lists indented by four, 32 by two.
const maxPreviewIndent = 2 * maxPreviewNesting

// capNesting escapes the container markers of a line past maxPreviewNesting, so that they show as
// the text they are instead of opening more containers, and cuts indentation past
// maxPreviewIndent to that.
func capNesting(src []byte) []byte {
	var out []byte
	copied := 0
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if lead := leadingIndent(src[start:end]); lead > 0 {
			out = append(out, src[copied:start]...)
			out = append(out, bytes.Repeat([]byte{' '}, maxPreviewIndent)...)
			copied = start + lead
		}
		if at := nestingCut(src[start:end]); at >= 0 {
			out = append(out, src[copied:start+at]...)
			out = append(out, '\\')
			copied = start + at
		}
		start = end + 1
	}
	if out == nil {
		return src
	}
	return append(out, src[copied:]...)
}

// leadingIndent is how many bytes of whitespace start line when they indent it past
// maxPreviewIndent columns (a tab counts to the next multiple of 4), or 0.
func leadingIndent(line []byte) int {
	col := 0
	for i, c := range line {
		switch c {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			if col > maxPreviewIndent {
				return i
			}
			return 0
		}
	}
	return 0
}

// nestingCut is where a backslash turns the first container marker of line past maxPreviewNesting
// into text, or -1 when the line opens no more than that.
func nestingCut(line []byte) int {
	i := 0
	for depth := 0; ; depth++ {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			return -1
		}
		at, next := i, i+1
		switch c := line[i]; {
		case c == '>':
		case c == '-' || c == '*' || c == '+':
			if next < len(line) && line[next] != ' ' && line[next] != '\t' {
				return -1
			}
		case '0' <= c && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && '0' <= line[j] && line[j] <= '9' {
				j++
			}
			if j == len(line) || line[j] != '.' && line[j] != ')' || j+1 < len(line) && line[j+1] != ' ' && line[j+1] != '\t' {
				return -1
			}
			// "1\." is text; a backslash before the digits would show itself.
			at, next = j, j+1
		default:
			return -1
		}
		if depth == maxPreviewNesting {
			return at
		}
		i = next
	}
}

func (s *Server) exportPage(c echo.Context) error {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "export")
	if err != nil {
		return err
	}
	e := templates.Export{Workspace: w}
	for _, f := range format.ExportFormats() {
		out, err := f.WriteFrom(d.derived(), d.Record.CreatedAt, d.Record.UpdatedAt, format.Options{})
		if err != nil {
			// A design a format cannot express (such as a name CloudFormation refuses) still
			// lists the format, saying why instead of offering the file.
			e.Files = append(e.Files, templates.ExportFormat{ID: f.ID, Title: f.Title, Filename: f.Filename,
				Description: "Not available for this design: " + err.Error()})
			continue
		}
		v := templates.ExportFormat{ID: f.ID, Title: f.Title, Filename: f.Filename, Description: f.Description,
			Download: "/d/" + d.Token + "/export/" + f.ID, Size: humanSize(len(out))}
		if len(out) <= maxInlineSource {
			v.Source = string(out)
		} else {
			v.CopyFrom = v.Download
		}
		if !f.Markdown {
			e.Files = append(e.Files, v)
			continue
		}
		v.DownloadDiagrams = v.Download + "?diagrams=mermaid"
		if v.Preview, err = previewOf(out, f.ID, c.Request().URL.Path, c.QueryParams()); err != nil {
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
	o, err := format.ParseOptions(c.QueryParam("diagrams"))
	if err != nil {
		return err
	}
	d := designFrom(c)
	// The documents read the revision's checklists, capacity and index views from what is
	// derived from it, worked out once and shared with the pages that show them.
	out, err := f.WriteFrom(d.derived(), d.Record.CreatedAt, d.Record.UpdatedAt, o)
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
