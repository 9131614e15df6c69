// What a request brings: the design it addresses (designContext), the person and the tab it
// comes from, the rails it folded, and the form it posted.

package server

import (
	"dynaloom/internal/designer"
	"dynaloom/internal/designer/derive"
	"dynaloom/internal/storage"
	"dynaloom/web/templates"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// participantCookie keeps the display name a person chose, so their edits carry it.
const participantCookie = "dynaloom_name"

const maxParticipantLen = 40

func participantName(c echo.Context) string {
	ck, err := c.Cookie(participantCookie)
	if err != nil {
		return ""
	}
	name, err := url.QueryUnescape(ck.Value)
	if err != nil {
		return ""
	}
	name, ok := cleanParticipant(name)
	if !ok {
		return ""
	}
	return name
}

func cleanParticipant(name string) (string, bool) {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxParticipantLen {
		return "", false
	}
	return name, true
}

// author is the name recorded with a change.
func author(c echo.Context) string {
	if name := participantName(c); name != "" {
		return name
	}
	return "Someone"
}

// editorTab is the browser tab an edit comes from, which app.js sends with every request, or ""
// for a client that sends none (the API, a page from before tab ids).
func editorTab(c echo.Context) (string, error) {
	tab := c.Request().Header.Get("X-Dynaloom-Tab")
	if tab != "" && !validTab(tab) {
		return "", badInput("X-Dynaloom-Tab: give the id of the browser tab (16 to 64 letters and digits)")
	}
	return tab, nil
}

func validTab(tab string) bool {
	if len(tab) < 16 || len(tab) > 64 {
		return false
	}
	for _, r := range tab {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// The rails, as named in their cookies and buttons (app.js).
const (
	railSteps = "steps"
	railAside = "aside"
)

// railFolded reports whether this browser folded the rail away.
func railFolded(c echo.Context, rail string) bool {
	ck, err := c.Cookie("dynaloom_fold_" + rail)
	return err == nil && ck.Value == "1"
}

const designKey = "design"

// designContext is the design a request addresses and what its token allows.
type designContext struct {
	ID     string
	Token  string
	Access storage.Access
	Record storage.Record
	// Presenting is the read-only projector mode (?present=1), which an edit link may ask for.
	Presenting bool
	// AtRevision is set when Record is a past revision, shown read-only (history.go).
	AtRevision int64
	// AsideFolded is the side panel folded away in this browser (railFolded), which every drawing
	// of the panel keeps.
	AsideFolded bool
	// set holds what is derived from each revision (nil: worked out afresh for each request).
	set *derive.Set
}

// derived is what is computed from the record shown: findings, questions, checklists, index views
// and the evaluator's Cache, worked out once per revision and shared by every request for it.
func (d *designContext) derived() *derive.Derived {
	if d.set == nil {
		return derive.New(d.Record.Design, nil)
	}
	return d.set.Get(d.ID, d.Record.Revision, d.Record.Design)
}

// heldDesign is the design at revision rev when what is derived from it is still held, without
// reading it again.
func (d *designContext) heldDesign(rev int64) (designer.Design, bool) {
	if d.set == nil {
		return designer.Design{}, false
	}
	x, ok := d.set.Held(d.ID, rev)
	if !ok {
		return designer.Design{}, false
	}
	return x.Design(), true
}

func (d *designContext) canEdit() bool {
	return d.Access == storage.EditAccess && !d.Presenting && d.AtRevision == 0
}

func designFrom(c echo.Context) *designContext { return c.Get(designKey).(*designContext) }

func readBody(c echo.Context) ([]byte, error) {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, err
	}
	return body, nil
}

// baseRevision reads the optional base_revision of an edit's form; 0 means none was given.
func baseRevision(c echo.Context) (int64, error) {
	form, err := postedForm(c)
	if err != nil {
		return 0, err
	}
	raw := form.get("base_revision")
	if raw == "" {
		return 0, nil
	}
	base, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || base < 1 {
		return 0, badInput("base_revision: %q is not a revision number", raw)
	}
	return base, nil
}

func itoa(n int) string { return strconv.Itoa(n) }

// formValues is a request's posted form. Every handler reads its input through postedForm, so a
// body over the limit is refused rather than read as empty values.
type formValues struct{ values url.Values }

// postedForm reads the posted form values, reporting a body over the limit.
func postedForm(c echo.Context) (formValues, error) {
	if err := c.Request().ParseForm(); err != nil {
		return formValues{}, err
	}
	return formValues{c.Request().PostForm}, nil
}

// get is the value posted as name, "" when there is none.
func (f formValues) get(name string) string { return f.values.Get(name) }

// all is every value posted as name, as a list of checkboxes posts them.
func (f formValues) all(name string) []string { return f.values[name] }

// int reads a whole number, such as the position of a row ("index") or where it moves to ("to").
func (f formValues) int(name string) (int, error) { return atoiField(name, f.get(name)) }

func optionLabel(opts []templates.Option, value string) string {
	for _, o := range opts {
		if o.Value == value {
			return o.Label
		}
	}
	return value
}

func atoiField(field, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, badInput("%s: %q is not a whole number", field, s)
	}
	return n, nil
}

// withRefusal shows a refused value and why on the cell it was typed in, instead of the stored one.
func withRefusal(c templates.Cell, r *refused, value string) templates.Cell {
	if r != nil {
		c.Value, c.Error = value, r.Message
	}
	return c
}
