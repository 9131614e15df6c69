package server

import (
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

func homeModel() templates.Home {
	return templates.Home{Page: templates.Page{Title: "Dynaloom — design DynamoDB data models together"}, Examples: exampleCards()}
}

// exampleCards are the gallery's cards. The examples are built into the binary, so their figures
// are counted once, on the first visit to the home page.
var exampleCards = sync.OnceValue(func() []templates.ExampleCard {
	var cards []templates.ExampleCard
	for _, ex := range designer.Examples() {
		card := templates.ExampleCard{Example: ex}
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			panic(fmt.Sprintf("example %s does not read: %v", ex.ID, err)) // a test reads every example
		}
		card.Tables, card.Patterns = len(d.Tables), len(d.Patterns)
		for _, t := range d.Tables {
			card.Indexes += len(t.GSIs) + len(t.LSIs)
		}
		cards = append(cards, card)
	}
	return cards
})

func (s *Server) home(c echo.Context) error {
	return render(c, http.StatusOK, templates.HomeView(homeModel()))
}

// createDesignFromForm creates a blank design or a copy of an example, then opens it for editing.
func (s *Server) createDesignFromForm(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	name := form.get("name")
	var d designer.Design
	if ex := form.get("example"); ex != "" {
		d, err = designer.ExampleDesign(ex)
	} else {
		d, err = designer.New(name)
	}
	if r, refused := refusal(err); refused {
		var ve *designer.ValidationError
		errors.As(err, &ve)
		h := homeModel()
		h.Name, h.NameError = name, "The design name "+ve.Message+"."
		return render(c, r.Status, templates.HomeView(h))
	}
	if err != nil {
		return err
	}
	rec, tokens, err := s.store.Create(c.Request().Context(), d, author(c))
	if err != nil {
		return err
	}
	s.log.Info("design created", "design_id", rec.ID, "via", "page")
	// The answer carries the edit link: no cache may keep it.
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusSeeOther, "/d/"+tokens.Edit)
}
