package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"

	"dynaloom/internal/storage"
	"dynaloom/web/templates"
)

// Links: the holder of the edit link can replace either link (the old one then answers 404) and
// give the view link an end. Both change who can open the design, never the design itself, so
// they are not changes in its history.

// parseWhich reads which link to replace.
func parseWhich(which string) (storage.Access, error) {
	switch which {
	case "view":
		return storage.ViewAccess, nil
	case "edit":
		return storage.EditAccess, nil
	}
	return 0, badInput(`which: must be "view" or "edit", not %q`, which)
}

// stepPath is the path of a step below the design's base, "" for the overview or an unknown step.
func stepPath(step string) string {
	for _, st := range steps {
		if st.id == step {
			return st.path
		}
	}
	return ""
}

// rotateLink replaces the view or the edit link from the Share popover. A new view link is shown
// in the popover; a new edit link moves the page to it, since the old one no longer opens anything.
func (s *Server) rotateLink(c echo.Context) error {
	d := designFrom(c)
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	which, err := parseWhich(form.get("which"))
	if err != nil {
		return err
	}
	step := form.get("step")
	tokens, err := s.store.RotateToken(c.Request().Context(), d.ID, d.Token, which)
	if err != nil {
		return err
	}
	s.log.Info("link replaced", "design_id", d.ID, "link", which.String())
	s.hub.CloseStreams(d.ID, which)
	if which == storage.EditAccess {
		next := "/d/" + tokens.Edit + stepPath(step)
		if isHTMX(c) {
			c.Response().Header().Set("HX-Redirect", next)
			return c.NoContent(http.StatusNoContent)
		}
		return c.Redirect(http.StatusSeeOther, next)
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, "/d/"+d.Token+stepPath(step))
	}
	sh, err := s.shareModel(c, d, step)
	if err != nil {
		return err
	}
	sh.Notice = "New view link made. The old view link no longer opens the design."
	return render(c, http.StatusOK, templates.ShareLinks(sh))
}

// setViewLinkExpiry sets when the view link stops working, from the Share popover.
func (s *Server) setViewLinkExpiry(c echo.Context) error {
	d := designFrom(c)
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	choice, step := form.get("expires"), form.get("step")
	at, err := expiryFromForm(choice, form.get("date"), time.Now())
	if err != nil {
		if !isHTMX(c) {
			return err
		}
		sh, merr := s.shareModel(c, d, step)
		if merr != nil {
			return merr
		}
		r, refused := refusal(err)
		if !refused {
			return err
		}
		sh.Error = classify(err).Message
		sh.Expiry, sh.ExpiryDate = choice, form.get("date")
		return render(c, r.Status, templates.ShareLinks(sh))
	}
	if err := s.store.SetViewExpiry(c.Request().Context(), d.ID, d.Token, at); err != nil {
		return err
	}
	s.log.Info("view link expiry set", "design_id", d.ID, "never", at.IsZero())
	s.hub.ViewExpiryChanged(d.ID, at)
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, "/d/"+d.Token+stepPath(step))
	}
	sh, err := s.shareModel(c, d, step)
	if err != nil {
		return err
	}
	sh.Notice = "Saved."
	return render(c, http.StatusOK, templates.ShareLinks(sh))
}

// expiryFromForm turns the expiry form's choice into a time; the zero time means never. A date is
// the last day the link works, to its end in UTC.
func expiryFromForm(choice, date string, now time.Time) (time.Time, error) {
	switch choice {
	case "never":
		return time.Time{}, nil
	case "date":
		day, err := time.Parse(time.DateOnly, strings.TrimSpace(date))
		if err != nil {
			return time.Time{}, designer.Invalid("date", "give the last day the view link works, as YYYY-MM-DD")
		}
		end := day.AddDate(0, 0, 1)
		if !now.Before(end) {
			return time.Time{}, designer.Invalid("date", "%s has passed; choose today or a later day", day.Format(time.DateOnly))
		}
		return end, nil
	}
	for _, ch := range viewExpiryChoices {
		if ch.value == choice && ch.after > 0 {
			return now.Add(ch.after), nil
		}
	}
	return time.Time{}, designer.Invalid("expires", `must be one of "never", "1d", "7d", "30d" or "date", not %q`, choice)
}

// rotatedLinks answers POST /api/designs/{token}/tokens/rotate with the new link only.
type rotatedLinks struct {
	EditToken     string `json:"edit_token,omitempty"`
	EditURL       string `json:"edit_url,omitempty"`
	ViewToken     string `json:"view_token,omitempty"`
	ViewURL       string `json:"view_url,omitempty"`
	ViewExpiresAt string `json:"view_expires_at,omitempty"`
}

// apiRotateToken replaces the view or the edit token: body {"which": "view"} or {"which": "edit"}.
func (s *Server) apiRotateToken(c echo.Context) error {
	d := designFrom(c)
	var body struct {
		Which *string `json:"which"`
	}
	if err := decodeJSONObject(c, &body, `{"which": "view"}`); err != nil {
		return err
	}
	if body.Which == nil {
		return badInput(`which: required, "view" or "edit"`)
	}
	which, err := parseWhich(*body.Which)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	tokens, err := s.store.RotateToken(ctx, d.ID, d.Token, which)
	if err != nil {
		return err
	}
	s.log.Info("link replaced", "design_id", d.ID, "link", which.String(), "via", "api")
	s.hub.CloseStreams(d.ID, which)
	if which == storage.EditAccess {
		return c.JSON(http.StatusOK, rotatedLinks{EditToken: tokens.Edit, EditURL: origin(c) + "/d/" + tokens.Edit})
	}
	out := rotatedLinks{ViewToken: tokens.View, ViewURL: origin(c) + "/d/" + tokens.View}
	expires, err := s.store.ViewExpiry(ctx, d.ID)
	if err != nil {
		return err
	}
	if !expires.IsZero() {
		out.ViewExpiresAt = expires.UTC().Format(time.RFC3339)
	}
	return c.JSON(http.StatusOK, out)
}

// apiSetViewExpiry sets when the view token stops working: body {"expires_at": "<RFC 3339>"}, or
// {"expires_at": null} for never.
func (s *Server) apiSetViewExpiry(c echo.Context) error {
	d := designFrom(c)
	var body struct {
		// Raw, to tell null (never) from a missing member.
		ExpiresAt json.RawMessage `json:"expires_at"`
	}
	if err := decodeJSONObject(c, &body, `{"expires_at": "2030-01-31T18:00:00Z"}`); err != nil {
		return err
	}
	if len(body.ExpiresAt) == 0 {
		return badInput(`expires_at: required, an RFC 3339 time such as "2030-01-31T18:00:00Z", or null for never`)
	}
	var at time.Time
	if raw := body.ExpiresAt; !bytes.Equal(raw, []byte("null")) {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return badInput(`expires_at: must be a string with an RFC 3339 time, or null for never`)
		}
		t, err := time.Parse(time.RFC3339, text)
		if err != nil {
			return badInput(`expires_at: %q is not an RFC 3339 time such as "2030-01-31T18:00:00Z"`, text)
		}
		if !time.Now().Before(t) {
			return badInput("expires_at: %s has passed; give a later time, or null for never", text)
		}
		at = t
	}
	if err := s.store.SetViewExpiry(c.Request().Context(), d.ID, d.Token, at); err != nil {
		return err
	}
	s.log.Info("view link expiry set", "design_id", d.ID, "never", at.IsZero(), "via", "api")
	s.hub.ViewExpiryChanged(d.ID, at)
	var out struct {
		ViewExpiresAt *string `json:"view_expires_at"`
	}
	if !at.IsZero() {
		text := at.UTC().Format(time.RFC3339)
		out.ViewExpiresAt = &text
	}
	return c.JSON(http.StatusOK, out)
}

// decodeJSONObject reads a small JSON object body into v, refusing other content types, unknown
// members and trailing data. example shows the expected shape in the message.
func decodeJSONObject(c echo.Context, v any, example string) error {
	mediaType, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	if mediaType != echo.MIMEApplicationJSON {
		return &apiError{http.StatusUnsupportedMediaType, "unsupported_media_type",
			"Send application/json, such as " + example + "."}
	}
	body, err := readBody(c)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return badInput("%s: not a member of this request; send %s", strings.Trim(name, `"`), example)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return badInput("%s: must be a %v, not a JSON %s; send %s", te.Field, te.Type, te.Value, example)
		}
		return badInput("body: send one JSON object such as %s", example)
	}
	if dec.More() {
		return badInput("body: send one JSON object such as %s", example)
	}
	return nil
}
