package server

import "github.com/labstack/echo/v4"

// The workspace's two rails, the steps on the left and the live panel on the right, fold away to
// a narrow strip, so that a grid gets the width of the screen (a projector at 1280x720 showed 4 of
// the access-patterns grid's 14 columns). Each browser remembers its choice in a cookie of its own
// per rail, which the page's script sets when a rail's button is pressed; the server reads it, so
// a page is drawn folded from the start and a live refresh keeps it so.

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
