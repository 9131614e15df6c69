// Package templates owns Dynaloom's HTML: templ components that take one view model each, do no
// I/O, and carry data-testid hooks for tests.
package templates

import "dynaloom/internal/designer"

// Page is what every full page needs.
type Page struct {
	Title string
}

// Home is the start page.
type Home struct {
	Page
	Examples []designer.Example
	// NameError is shown under the name field of the "new design" form.
	NameError string
	Name      string
}

// Step is one entry of the workspace navigation.
type Step struct {
	ID, Label, Href string
	Current         bool
}

// Workspace is the frame around every step of a design.
type Workspace struct {
	Page
	Name     string
	Revision int64
	CanEdit  bool
	// Base is the design's URL path with the token in use, "/d/<token>".
	Base    string
	EditURL string // empty unless the page was opened with the edit token
	ViewURL string
	Steps   []Step
	// Participant is the display name kept in a cookie; editors without one are asked for it.
	Participant string
	Summary     designer.Summary
}

// Field is one text field that saves on change.
type Field struct {
	ID        string // element id, unique on the page
	Name      string // form field name
	Label     string
	Hint      string
	Value     string
	Multiline bool
	Action    string // URL the field posts to
	Error     string
	Saved     bool
	CanEdit   bool
}

// Overview is the overview step.
type Overview struct {
	Workspace
	NameField Field
	Fields    []Field
}

// ErrorPage explains an error to a person.
type ErrorPage struct {
	Page
	Status  int
	Heading string
	Message string
}
