package designer

import (
	"strings"
	"unicode/utf8"
)

// Comments are threaded remarks on an access pattern, a table, an index or a sample item, addressed
// by the element's path ("access_patterns/ap4", "tables/Orders/indexes/ByStatus"). They are part of
// the design, so history, undo and live updates treat them as any other edit, but no export writes
// them.
//
// A thread is a root comment and its replies. Only a root is resolved or reopened; a root with
// replies cannot be deleted, so a reply never loses its thread.
//
// Check does not look at comments' targets: a comment whose element was renamed or deleted stays
// in the document, out of sight, and shows again if an undo or restore brings the element back.

// commentIDPrefix starts the ids AddComment gives: "cm1", "cm2"…
const commentIDPrefix = "cm"

// MaxCommentLen bounds a comment's body, in characters.
const MaxCommentLen = 4000

// PatternTarget, TableTarget, IndexTarget and ItemTarget are the paths comments use for the
// elements they may be about.
func PatternTarget(id string) string         { return string(PatternPath(id, "")) }
func TableTarget(name string) string         { return string(TablePath(name)) }
func IndexTarget(table, index string) string { return string(IndexPath(table, index, "")) }
func ItemTarget(table, itemID string) string { return string(ItemPath(table, itemID, "")) }

func commentByID(d Design, id string) (Comment, int, bool) {
	return byID(d.Comments, id, func(c *Comment) string { return c.ID })
}

// findComment returns the comment with the given id, or a *ValidationError for "id".
func findComment(d Design, id string) (Comment, int, error) {
	c, i, ok := commentByID(d, id)
	if !ok {
		return Comment{}, -1, Invalid("id", "no comment with id %q; it may have been deleted", id)
	}
	return c, i, nil
}

// CheckCommentTarget returns target, trimmed, if it names an access pattern, table, index or sample
// item of d, and otherwise a *ValidationError for "target".
func CheckCommentTarget(d Design, target string) (string, error) {
	target = strings.TrimSpace(target)
	pp := Path(target).Parts(d)
	switch {
	case pp.Comments || !pp.commentable():
	case pp.Collection == PathPatterns:
		if _, _, ok := d.PatternByID(pp.Key); !ok {
			return "", Invalid("target", "no access pattern with id %q; it may have been deleted", pp.Key)
		}
		return target, nil
	default:
		t, _, ok := d.TableByName(pp.Key)
		if !ok {
			return "", Invalid("target", "no table named %q; it may have been renamed or deleted", pp.Key)
		}
		switch pp.Sub {
		case SubIndexes:
			if _, _, _, ok := t.IndexByName(pp.SubKey); !ok {
				return "", Invalid("target", "table %s has no index named %q; it may have been renamed or deleted", t.Name, pp.SubKey)
			}
		case SubItems:
			if _, _, ok := t.ItemByID(pp.SubKey); !ok {
				return "", Invalid("target", "table %s has no item %q; it may have been deleted", t.Name, pp.SubKey)
			}
		}
		return target, nil
	}
	if target == "" {
		return "", Invalid("target", "must name what the comment is about")
	}
	return "", Invalid("target", "is %q; a comment is about an access pattern (access_patterns/<id>), a table "+
		"(tables/<name>), an index (tables/<name>/indexes/<index>) or a sample item (tables/<name>/items/<id>)", shorten(target))
}

// cleanComment trims a comment's body and checks it is 1 to MaxCommentLen characters of text.
func cleanComment(s string) (string, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	switch n := utf8.RuneCountInString(s); {
	case !utf8.ValidString(s):
		return "", Invalid("body", "must be valid UTF-8 text")
	case n == 0:
		return "", Invalid("body", "must not be empty")
	case n > MaxCommentLen:
		return "", Invalid("body", "is %d characters long; at most %d are allowed", n, MaxCommentLen)
	case strings.ContainsFunc(s, func(r rune) bool { return IsControl(r) && r != '\n' && r != '\t' }):
		return "", Invalid("body", "must not contain control characters")
	}
	return s, nil
}

// CommentTargetLabel names a comment's element for people: "pattern 4", "table Orders",
// "index ByStatus of Orders", "item i3 of Orders". d may be empty; patterns are then named by id.
func CommentTargetLabel(d Design, target string) string {
	pp := Path(target).Parts(d)
	switch {
	case pp.Comments || !pp.commentable():
	case pp.Collection == PathPatterns:
		return patternLabel(d, pp.Key)
	case pp.Sub == SubIndexes:
		return "index " + pp.SubKey + " of " + pp.Key
	case pp.Sub == SubItems:
		return "item " + pp.SubKey + " of " + pp.Key
	default:
		return "table " + pp.Key
	}
	return shorten(target)
}

// Thread is a root comment and its replies, oldest first.
type Thread struct {
	Root    Comment
	Replies []Comment
}

// CommentThreads returns the threads on target in the order they were started. A reply whose root
// is missing (a design edited by hand) is shown as a thread of its own.
func CommentThreads(d Design, target string) []Thread {
	var threads []Thread
	at := map[string]int{}
	for _, c := range d.Comments {
		if c.Target != target {
			continue
		}
		if i, ok := at[c.ParentID]; ok && c.ParentID != "" {
			threads[i].Replies = append(threads[i].Replies, c)
			continue
		}
		at[c.ID] = len(threads)
		threads = append(threads, Thread{Root: c})
	}
	return threads
}

// OpenCommentCount counts the comments on target in threads that are not resolved.
func OpenCommentCount(d Design, target string) int {
	n := 0
	for _, c := range d.Comments {
		if c.Target != target {
			continue
		}
		root := c
		if c.ParentID != "" {
			if r, _, ok := commentByID(d, c.ParentID); ok {
				root = r
			}
		}
		if !root.Resolved {
			n++
		}
	}
	return n
}
