package server

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// Comments on patterns, tables, indexes and items. They live in the design, so every comment is a
// change like any other edit: stored with history and told to everyone live. Anyone with the link
// reads them; editors add, reply, resolve and delete their own.

// commentsPanel builds the thread panel of target for the person asking.
func commentsPanel(c echo.Context, target string, now time.Time) templates.CommentsPanel {
	d := designFrom(c)
	design := d.Record.Design
	base := "/d/" + d.Token + "/comments"
	me := author(c)
	p := templates.CommentsPanel{
		Target:        target,
		Label:         designer.CommentTargetLabel(design, target),
		Href:          commentsHref(d, target) + "&refresh=1",
		Revision:      d.Record.Revision,
		CanEdit:       d.canEdit(),
		Action:        base,
		ResolveAction: base + "/resolve",
		DeleteAction:  base + "/delete",
	}
	view := func(cm designer.Comment, deletable bool) templates.CommentView {
		v := templates.CommentView{ID: cm.ID, Author: cm.Author, Body: cm.Body, At: cm.At, When: relativeTime(cm.At, now)}
		if deletable && p.CanEdit && cm.Author == me {
			v.Delete = &templates.Button{Label: "Delete your comment", Text: "Delete", Action: p.DeleteAction,
				Params: []templates.Param{{Name: "target", Value: target}, {Name: "id", Value: cm.ID}},
				Target: "#comments-thread", Class: "danger", TestID: "comment-delete", Confirm: "Delete your comment?"}
		}
		return v
	}
	for _, th := range designer.CommentThreads(design, target) {
		tv := templates.CommentThreadView{Root: view(th.Root, len(th.Replies) == 0), Resolved: th.Root.Resolved}
		for _, r := range th.Replies {
			tv.Replies = append(tv.Replies, view(r, true))
		}
		resolve := templates.Button{Label: "Resolve this thread", Text: "Resolve", Action: p.ResolveAction,
			Params: []templates.Param{{Name: "target", Value: target}, {Name: "id", Value: th.Root.ID}, {Name: "resolved", Value: "true"}},
			Target: "#comments-thread", TestID: "comment-resolve"}
		if th.Root.Resolved {
			resolve.Label, resolve.Text, resolve.TestID = "Reopen this thread", "Reopen", "comment-reopen"
			resolve.Params[2].Value = "false"
		}
		tv.Resolve = resolve
		p.Threads = append(p.Threads, tv)
	}
	return p
}

// relativeTime says how long ago an RFC 3339 time was, in the words a person uses.
func relativeTime(at string, now time.Time) string {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return at
	}
	switch d := now.Sub(t); {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return ago(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		return ago(int(d/time.Hour), "hour")
	case d < 7*24*time.Hour:
		return ago(int(d/(24*time.Hour)), "day")
	}
	return t.UTC().Format("2 Jan 2006")
}

func ago(n int, unit string) string {
	if n == 1 {
		return "1 " + unit + " ago"
	}
	return strconv.Itoa(n) + " " + unit + "s ago"
}

// commentsPage answers GET /comments?target=…: the thread panel of one element.
func (s *Server) commentsPage(c echo.Context) error {
	d := designFrom(c)
	target, err := designer.CheckCommentTarget(d.Record.Design, c.QueryParam("target"))
	if err != nil {
		return err
	}
	p := commentsPanel(c, target, time.Now())
	p.Autofocus = c.QueryParam("refresh") == ""
	return render(c, http.StatusOK, templates.CommentsPanelView(p))
}

// addComment starts a thread or replies to one, as the current participant.
func (s *Server) addComment(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	target, parent, body := strings.TrimSpace(form.get("target")), form.get("parent_id"), form.get("body")
	return s.apply(c, commentTargetHref(designFrom(c), target), designer.AddComment{
		Target: target, ParentID: parent, Body: body,
		Author: author(c), At: time.Now().UTC().Format(time.RFC3339),
	}, commentPart(c, target, body, parent))
}

// resolveComment resolves a thread or reopens it.
func (s *Server) resolveComment(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	resolved, err := strconv.ParseBool(form.get("resolved"))
	if err != nil {
		return badInput("resolved: %q is not true or false", form.get("resolved"))
	}
	id, target := form.get("id"), strings.TrimSpace(form.get("target"))
	return s.apply(c, commentTargetHref(designFrom(c), target), designer.ResolveComment{ID: id, Target: commentTarget(c, id, target), Resolved: resolved},
		commentPart(c, target, "", ""))
}

// deleteComment deletes one of the participant's own comments.
func (s *Server) deleteComment(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	id, target := form.get("id"), strings.TrimSpace(form.get("target"))
	if err := mayDeleteComment(c, id); err != nil {
		return err
	}
	return s.apply(c, commentTargetHref(designFrom(c), target), designer.DeleteComment{ID: id, Target: commentTarget(c, id, target)},
		commentPart(c, target, "", ""))
}

// mayDeleteComment refuses the deletion of comment id by anyone but its author, from a page or
// the API alike. A comment that is not there is for the change to refuse.
func mayDeleteComment(c echo.Context, id string) error {
	for _, cm := range designFrom(c).Record.Design.Comments {
		if cm.ID == id && cm.Author != author(c) {
			return &apiError{http.StatusForbidden, "not_author", "Only " + cm.Author + ", who wrote this comment, can delete it."}
		}
	}
	return nil
}

// commentTarget is the element the comment id is about, or fallback when there is no such comment
// (the change then refuses the id).
func commentTarget(c echo.Context, id, fallback string) string {
	for _, cm := range designFrom(c).Record.Design.Comments {
		if cm.ID == id {
			return cm.Target
		}
	}
	return fallback
}

// commentPart answers a comment edit with the thread panel and the element's comment button. A
// refused comment is shown in the thread with what was typed; a form posted without htmx has no
// thread to show it in, and is refused with the error page.
func commentPart(c echo.Context, target, draft, parent string) part {
	return func(d *designContext, r *refused) (templ.Component, error) {
		if r != nil && !isHTMX(c) {
			return nil, errNotShown
		}
		p := commentsPanel(c, target, time.Now())
		if r != nil {
			// The thread has no field to show it under, so the message names the field.
			p.Error, p.Draft, p.DraftParent = "Not saved: "+strings.TrimSuffix(classify(r.err).Message, ".")+".", draft, threadOf(d.Record.Design, parent)
			if !slices.ContainsFunc(p.Threads, func(th templates.CommentThreadView) bool { return th.Root.ID == p.DraftParent }) {
				// The thread is gone: the message and the text go to the box for a new thread.
				p.DraftParent = ""
			}
		}
		parts := []templ.Component{templates.CommentsPanelView(p)}
		if _, err := designer.CheckCommentTarget(d.Record.Design, target); err == nil {
			// Only an element of the design has a comment button on the page to update.
			parts = append(parts, templates.CommentBadgeView(commentBadge(d, target), true))
		}
		return templ.Join(parts...), nil
	}
}

// threadOf is the root of the thread comment id belongs to: its parent for a reply.
func threadOf(d designer.Design, id string) string {
	for _, cm := range d.Comments {
		if cm.ID == id && cm.ParentID != "" {
			return cm.ParentID
		}
	}
	return id
}

// commentTargetHref links to the element a comment is about, on its step.
func commentTargetHref(d *designContext, target string) string {
	// A comment names a pattern by id, where anchorFor's finding paths have its number.
	if pp := designer.Path(target).Parts(); pp.Collection == designer.PathPatterns && pp.Key != "" {
		return patternHref(d, pp.Key) + "#" + elemID("row", pp.Key)
	}
	return anchorFor(d, target)
}
