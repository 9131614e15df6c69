package freeform

import (
	"regexp"
	"strings"
	"sync"

	"dynaloom/internal/designer/format/markdown"
)

var (
	// keySign is a line that states a key structure the way free-form layouts do: "PK:
	// USER#{user_id}", "- GSI1SK = STATUS#…", "Hash: `GSI1PK` = …", "**PK** (Partition Key)",
	// "Partition key: `user_id`", "Table Name: orders", a key table's "| PK |" header.
	keySign = regexp.MustCompile("(?im)^\\s*(?:[-*+]\\s+|\\d+[.)]\\s+|//\\s*)?(?:" +
		"`?[A-Za-z][A-Za-z0-9_]*(?:PK|SK)`?\\s*[:=]\\s*`?[A-Za-z0-9_#{<]" +
		"|(?:hash|range)\\s*:\\s*`" +
		"|\\*\\*`?[A-Za-z][A-Za-z0-9_]*`?\\*\\*\\s*\\((?:partition|sort)\\s+key\\)" +
		"|\\**(?:partition|sort)\\s+key\\**\\s*:" +
		"|\\**(?:base\\s+)?table(?:\\s+name)?\\**\\s*:?\\**\\s*`" +
		"|\\|.*\\|\\s*\\**(?:PK|partition key)\\**\\s*\\|)")
	// templateHeading is a heading only the requirement or data model template has.
	templateHeading = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(dynamodb data model|table designs?|access pattern mapping|access patterns analysis|application overview|dynamodb modeling session|.+ table( \(.*\))?)$`)
	})
)

// Looks reports whether text is a free-form design document: it states a key structure or names a
// table in a form Import reads, and has none of the requirement or data model template's headings
// nor the requirement document's pattern table.
func Looks(text string) bool {
	if !keySign.MatchString(text) || strings.Contains(strings.ToLower(text), "| pattern #") {
		return false
	}
	template := false
	markdown.Headings(text, func(_, _ int, h string) {
		if templateHeading().MatchString(strings.TrimSpace(cleanTitle(h))) {
			template = true
		}
	})
	return !template
}
