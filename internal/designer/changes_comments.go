package designer

import (
	"slices"
	"strings"
	"time"
)

func init() {
	register[AddComment]()
	register[ResolveComment]()
	register[DeleteComment]()
}

// AddComment starts a thread on Target, or replies to the thread of ParentID; a reply to a reply
// joins the same thread. The new comment's id is the next free "cm" number of the design.
type AddComment struct {
	Target   string `json:"target"`
	ParentID string `json:"parent_id,omitempty"`
	Body     string `json:"body"`
	// Author and At (RFC 3339) are set by whoever makes the change, not by Apply, so that
	// replaying the stored change gives the same comment.
	Author string `json:"author"`
	At     string `json:"at"`
}

func (AddComment) Kind() string { return "add_comment" }

func (c AddComment) Apply(d Design) (Design, error) {
	target, err := CheckCommentTarget(d, c.Target)
	if err != nil {
		return d, err
	}
	parent := ""
	if c.ParentID != "" {
		p, _, ok := commentByID(d, c.ParentID)
		switch {
		case !ok:
			return d, Invalid("parent_id", "no comment with id %q; it may have been deleted", c.ParentID)
		case p.Target != target:
			return d, Invalid("parent_id", "comment %s is about %s, not %s; a reply stays on its thread's element", p.ID, p.Target, target)
		}
		parent = p.ID
		if p.ParentID != "" {
			parent = p.ParentID
		}
	}
	body, err := cleanComment(c.Body)
	if err != nil {
		return d, err
	}
	author, err := CleanName("author", c.Author)
	if err != nil {
		return d, err
	}
	at, err := time.Parse(time.RFC3339, strings.TrimSpace(c.At))
	if err != nil {
		return d, Invalid("at", "is %q; give the time in RFC 3339 form, such as 2025-03-01T09:30:00Z", shorten(c.At))
	}
	comment := Comment{
		ID:       nextID(d.Comments, commentIDPrefix, func(c *Comment) string { return c.ID }),
		Target:   target,
		ParentID: parent,
		Author:   author,
		At:       at.UTC().Format(time.RFC3339),
		Body:     body,
	}
	d.Comments = append(slices.Clone(d.Comments), comment)
	return d, nil
}

func (c AddComment) Summary() string { return c.describe(Design{}) }

func (c AddComment) Describe(before Design) string { return c.describe(before) }

func (c AddComment) describe(d Design) string {
	verb := "Commented on "
	if c.ParentID != "" {
		verb = "Replied to a comment on "
	}
	return verb + CommentTargetLabel(d, strings.TrimSpace(c.Target)) + ": " + shorten(c.Body)
}

func (c AddComment) Paths() []Path { return []Path{CommentsPath(Path(strings.TrimSpace(c.Target)))} }

// ResolveComment resolves the thread whose root is ID, or reopens it. Target is the thread's
// element, stated so that the change's paths are known without the design.
type ResolveComment struct {
	ID       string `json:"id"`
	Target   string `json:"target"`
	Resolved bool   `json:"resolved"`
}

func (ResolveComment) Kind() string { return "resolve_comment" }

func (c ResolveComment) Apply(d Design) (Design, error) {
	cm, i, err := findComment(d, c.ID)
	if err != nil {
		return d, err
	}
	if err := sameTarget(cm, c.Target); err != nil {
		return d, err
	}
	if cm.ParentID != "" {
		return d, Invalid("id", "comment %s is a reply; resolve its thread, %s", cm.ID, cm.ParentID)
	}
	if cm.Resolved == c.Resolved {
		return d, nil
	}
	cm.Resolved = c.Resolved
	d.Comments = replaceAt(d.Comments, i, cm)
	return d, nil
}

func (c ResolveComment) Summary() string { return c.describe(Design{}) }

func (c ResolveComment) Describe(before Design) string { return c.describe(before) }

func (c ResolveComment) describe(d Design) string {
	verb := "Resolved"
	if !c.Resolved {
		verb = "Reopened"
	}
	return verb + " a comment thread on " + CommentTargetLabel(d, c.Target)
}

func (c ResolveComment) Paths() []Path { return []Path{CommentsPath(Path(c.Target))} }

// DeleteComment deletes a reply, or a root comment that has no replies. Who may delete is the
// caller's rule: Apply does not know who asks.
type DeleteComment struct {
	ID     string `json:"id"`
	Target string `json:"target"`
}

func (DeleteComment) Kind() string { return "delete_comment" }

func (c DeleteComment) Apply(d Design) (Design, error) {
	cm, i, err := findComment(d, c.ID)
	if err != nil {
		return d, err
	}
	if err := sameTarget(cm, c.Target); err != nil {
		return d, err
	}
	if slices.ContainsFunc(d.Comments, func(r Comment) bool { return r.ParentID == cm.ID }) {
		return d, Invalid("id", "comment %s has replies; resolve the thread instead of deleting it", cm.ID)
	}
	d.Comments = slices.Delete(slices.Clone(d.Comments), i, i+1)
	return d, nil
}

func (c DeleteComment) Summary() string { return c.describe(Design{}) }

func (c DeleteComment) Describe(before Design) string { return c.describe(before) }

func (c DeleteComment) describe(d Design) string {
	return "Deleted a comment on " + CommentTargetLabel(d, c.Target)
}

func (c DeleteComment) Paths() []Path { return []Path{CommentsPath(Path(c.Target))} }

func sameTarget(cm Comment, target string) error {
	if cm.Target != target {
		return Invalid("target", "comment %s is about %s, not %q", cm.ID, cm.Target, shorten(target))
	}
	return nil
}
