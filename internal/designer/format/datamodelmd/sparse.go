package datamodelmd

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"dynaloom/internal/designer"
)

// How a Sparse bullet reads.
const (
	sparseUnknown = iota
	sparseYes
	sparseNo
)

var (
	// sparseAnswer is a bullet that starts with its answer and then explains it: "No — every item
	// has an owner", "Yes: only open orders", "No" and the reason on the next line. The
	// explanation is the note.
	sparseAnswer = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)^\W{0,2}(yes|no|true|false|none|n/?a)\W{0,2}(?:\s*[-–—:,.;]\s*|[ \t]*\n\s*|\s*$)(.*)$`)
	})
	// notSparse finds a sentence that says the index is not sparse.
	notSparse = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:not|isn't|isn’t|never)\s+(?:a\s+)?sparse\b|\bnon[\s-]?sparse\b|\bno\s+sparse(?:ness)?\b|^\W*(?:no|none|not|n/?a|dense)\b`)
	})
	// onlySome finds a sentence that says only some items are in the index.
	onlySome = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bonly\b|\bsparse\b|\bwhen\b.*\b(?:set|present|exists)\b`)
	})
)

// readSparse reads what a Sparse bullet says about its index, as a person would: its answer
// first (yes/no), else a sentence saying it is not sparse, else the attribute that makes it sparse
// as the template asks ("`deleted_at` - only items being deleted"), else words saying only some
// items are in it. It returns the note to keep: the explanation after an answer, else the whole
// text. An answer it cannot tell is sparseUnknown.
func readSparse(text string, attribute func(string) bool) (answer int, note string) {
	text = strings.TrimSpace(text)
	if m := sparseAnswer().FindStringSubmatch(text); m != nil {
		switch strings.ToLower(m[1]) {
		case "yes", "true":
			return sparseYes, strings.TrimSpace(m[2])
		}
		return sparseNo, strings.TrimSpace(m[2])
	}
	if notSparse().MatchString(text) {
		return sparseNo, text
	}
	first, _, _ := strings.Cut(text, " ")
	if name := strings.Trim(first, "`*,.:;"); attrName().MatchString(name) && (strings.HasPrefix(first, "`") || attribute(name)) {
		return sparseYes, text
	}
	if onlySome().MatchString(text) {
		return sparseYes, text
	}
	return sparseUnknown, text
}

// indexAttribute reports whether name is an attribute the table of an index declares or keys on
// so far, or looks like one (a column of its sample, snake_case or camelCase).
func (p *parser) indexAttribute(d *indexDraft) func(string) bool {
	return func(name string) bool {
		if d.table >= 0 {
			td := p.tables[d.table]
			if _, _, ok := td.t.AttributeByName(name); ok || slices.Contains(td.pkRaw, name) || slices.Contains(td.skRaw, name) {
				return true
			}
			return looksLikeName(name, td.sample)
		}
		return looksLikeName(name, nil)
	}
}

// sparseField reads a Sparse bullet the export did not write: the index is sparse as it says,
// and what it says is kept as the sparse note. When it cannot be told, the index stays as its
// heading said (not sparse unless "(Sparse)") and a note names the line.
func (p *parser) sparseField(d *indexDraft, line int, text string) {
	if designer.Words(text) == "" {
		return
	}
	answer, note := readSparse(text, p.indexAttribute(d))
	switch answer {
	case sparseYes:
		d.ix.Sparse = true
	case sparseNo:
		d.ix.Sparse = false
	default:
		word := "not sparse"
		if d.ix.Sparse {
			word = "sparse"
		}
		p.note(line, "index %s: the Sparse bullet says neither yes nor no nor which attribute makes it sparse; the index was left %s and the text kept as its sparse note", d.ix.Name, word)
	}
	d.ix.SparseNote = note
}
