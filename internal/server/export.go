package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

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
			Download: "/d/" + d.Token + "/export/" + f.ID, Size: humanSize(len(out)), LeftOut: f.LeftOutOf(d.Record.Design)}
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
	if left := f.LeftOutOf(d.Record.Design); len(left) > 0 {
		c.Response().Header().Set("Dynaloom-Left-Out", format.LeftOutHeader(left))
	}
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

// previewPartBytes is how much markdown one part of a preview holds, about: a document longer
// than this (a data model with thousands of sample items) is previewed a part at a time, so the
// Export step stays well under a megabyte whatever the design.
const previewPartBytes = 64 << 10

// maxInlineSource is the largest export the Export step carries in the page for its Copy button;
// Copy fetches a longer one from its download address instead.
const maxInlineSource = 32 << 10

// previewPart is one part of a markdown document: src[start:end], after head, the header and
// delimiter rows of the table the part begins inside of (nil when it begins at a block).
type previewPart struct {
	start, end int
	head       []byte
	// label names the part in the preview's contents: its first heading, or the last heading
	// before it when it begins in the middle of a section.
	label string
}

// splitPreview cuts a markdown document into parts of about budget bytes, each of which renders
// as it does in the whole document: a part begins at a heading, at a block after a blank line, or
// at a row of a table, whose header rows it then repeats. It never cuts a fenced code block,
// unless the block is four budgets long, and then at a line. The parts cover src in order, each
// byte once.
func splitPreview(src []byte, budget int) []previewPart {
	var parts []previewPart
	cur := previewPart{label: "Beginning"}
	var (
		fence     []byte // the opening fence of the code block the scan is in
		tableHead []byte // the header and delimiter rows of the table the scan is in
		prevBlank = true
		heading   string // the last heading seen
	)
	lineAt := func(i int) (line []byte, next int) {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			return src[i:], len(src)
		}
		return src[i : i+end], i + end + 1
	}
	for i := 0; i < len(src); {
		line, next := lineAt(i)
		trimmed := bytes.TrimRight(line, "\r")
		cut := false
		switch {
		case fence != nil:
			if isFence(trimmed) && bytes.HasPrefix(bytes.TrimLeft(trimmed, " "), fence) {
				fence = nil
			}
		case isFence(trimmed):
			cut = prevBlank || isHeading(trimmed)
			f := bytes.TrimLeft(trimmed, " ")
			n := 0
			for n < len(f) && f[n] == f[0] {
				n++
			}
			fence = append([]byte(nil), f[:n]...)
			tableHead = nil
		case tableHead != nil && bytes.HasPrefix(trimmed, []byte("|")):
			cut = true
		default:
			tableHead = nil
			if bytes.HasPrefix(trimmed, []byte("|")) && next < len(src) {
				if delim, _ := lineAt(next); isDelimiterRow(bytes.TrimRight(delim, "\r")) {
					cut = prevBlank
					_, after := lineAt(next)
					tableHead, next = src[i:after], after
				}
			}
			if tableHead == nil {
				cut = isHeading(trimmed) || prevBlank && len(trimmed) > 0 && trimmed[0] != ' ' && trimmed[0] != '\t'
			}
		}
		size := i - cur.start + len(cur.head)
		if i > cur.start && (cut && size >= budget || size >= 4*budget) {
			cur.end = i
			parts = append(parts, cur)
			cur = previewPart{start: i, label: continued(heading)}
			if tableHead != nil && !bytes.HasPrefix(src[i:], tableHead) {
				cur.head = tableHead
			}
		}
		if isHeading(trimmed) && fence == nil {
			heading = strings.TrimSpace(strings.TrimLeft(string(trimmed), "#"))
			if cur.start == i {
				cur.label = heading
			}
		}
		prevBlank = len(bytes.TrimSpace(trimmed)) == 0 && fence == nil
		i = next
	}
	cur.end = len(src)
	return append(parts, cur)
}

// continued labels a part that begins in the middle of the section under heading.
func continued(heading string) string {
	if heading == "" {
		heading = "Beginning"
	}
	return heading + " (continued)"
}

// isHeading reports whether line is an ATX heading that starts a block: #… followed by a space.
func isHeading(line []byte) bool {
	n := 0
	for n < len(line) && n < 7 && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t')
}

// isFence reports whether line opens or closes a fenced code block.
func isFence(line []byte) bool {
	l := bytes.TrimLeft(line, " ")
	if len(line)-len(l) > 3 {
		return false
	}
	return bytes.HasPrefix(l, []byte("```")) || bytes.HasPrefix(l, []byte("~~~"))
}

// isDelimiterRow reports whether line is a table's delimiter row: pipes, dashes, colons, spaces.
func isDelimiterRow(line []byte) bool {
	return len(line) > 0 && bytes.IndexByte(line, '-') >= 0 &&
		len(bytes.Trim(line, "|-: \t")) == 0
}

// partParam is the query parameter that names the part of document id the page previews.
func partParam(id string) string { return "part-" + id }

// previewOf renders the part of the markdown document out the request asks for (by partParam,
// counting from 1; past the end shows the last) and links to the others from q, the page's own
// query, which keeps the other document's part.
func previewOf(out []byte, id, path string, q url.Values) (templates.ExportPreview, error) {
	parts := splitPreview(out, previewPartBytes)
	at, _ := strconv.Atoi(q.Get(partParam(id)))
	at = min(max(at, 1), len(parts))
	part := parts[at-1]
	src := out[part.start:part.end]
	if part.head != nil {
		src = append(append([]byte(nil), part.head...), src...)
	}
	html, err := renderMarkdown(src)
	if err != nil {
		return templates.ExportPreview{}, err
	}
	p := templates.ExportPreview{Body: html, Target: "preview-" + id + "-part"}
	if len(parts) == 1 {
		return p, nil
	}
	href := func(n int) string {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set(partParam(id), strconv.Itoa(n))
		return path + "?" + v.Encode()
	}
	p.Pager = templates.Pager{Target: "#" + p.Target, Page: at, Pages: len(parts), First: at, Last: at, Total: len(parts), Noun: "parts"}
	if at > 1 {
		p.Pager.FirstHref, p.Pager.Prev = href(1), href(at-1)
	}
	if at < len(parts) {
		p.Pager.Next, p.Pager.LastHref = href(at+1), href(len(parts))
	}
	for n, pt := range parts {
		p.Contents = append(p.Contents, templates.PreviewLink{Href: href(n + 1), Label: pt.label, Current: n+1 == at})
	}
	return p, nil
}

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

// markdownRenderer renders previews. goldmark's default is safe: raw HTML is omitted and dangerous
// link schemes are dropped, so user text cannot inject markup.
var markdownRenderer = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))

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

// maxPreviewIndent is the deepest indentation, in columns, a preview line keeps. Lists nested by
// indentation over many lines cost goldmark work for each level on every line, and an
// indentation this deep already holds 16 levels of lists indented by four, 32 by two.
const maxPreviewIndent = 2 * maxPreviewNesting

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

// maxPreviewNesting is how many block quotes and list items one line may open in a preview.
// goldmark's work grows with the square of that nesting (a line of 100,000 ">" took seconds), and
// no document a team writes comes near it.
const maxPreviewNesting = 32
