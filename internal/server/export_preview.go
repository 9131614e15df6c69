package server

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"dynaloom/web/templates"
)

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
