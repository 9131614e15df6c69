package server

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

func (s *Server) homeModel() templates.Home {
	return templates.Home{Page: templates.Page{Title: "Dynaloom — design DynamoDB data models together"}, Examples: s.exampleGallery().cards}
}

func (s *Server) home(c echo.Context) error {
	return render(c, http.StatusOK, templates.HomeView(s.homeModel()))
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
		h := s.homeModel()
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
