package server

import (
	"net/http"
	"net/url"
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

func (s *Server) setParticipant(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	name, ok := cleanParticipant(form.get("name"))
	if !ok {
		return badInput("name: give a name of 1 to %d characters", maxParticipantLen)
	}
	c.SetCookie(&http.Cookie{
		Name:     participantCookie,
		Value:    url.QueryEscape(name),
		Path:     "/",
		MaxAge:   365 * 24 * 3600,
		HttpOnly: true,
		Secure:   c.IsTLS(),
		SameSite: http.SameSiteLaxMode,
	})
	next := form.get("next")
	// next is usually a design page, whose link may be the edit link.
	c.Response().Header().Set("Cache-Control", "no-store")
	// Only a design page of this server, with its query (a diff's revisions): never an open redirect.
	if !strings.HasPrefix(next, "/d/") || strings.ContainsAny(next, "\\#") || strings.Contains(next, "//") {
		next = "/"
	}
	return c.Redirect(http.StatusSeeOther, next)
}
