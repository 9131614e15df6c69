package server

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// overviewHints say what each field of the overview asks for, under its heading.
var overviewHints = map[string]string{
	designer.OverviewField.Domain.Key:          "What kind of application this is: e-commerce, SaaS, social media, HR…",
	designer.OverviewField.KeyEntities.Key:     "The main things and how they relate, e.g. User (1:M) Orders, Order (1:M) OrderItems.",
	designer.OverviewField.BusinessContext.Key: "Rules, constraints and compliance needs the data model must respect.",
	designer.OverviewField.Scale.Key:           "Expected users and total requests per second across all patterns.",
	designer.OverviewField.Notes.Key:           "Anything else the team should keep in mind.",
}

func nameField(d *designContext, value, errMsg string, saved bool) templates.Field {
	return templates.Field{
		ID: "field-name", Name: "name", Label: "Design name", Value: value,
		Action: "/d/" + d.Token + "/name", Error: errMsg, Saved: saved, CanEdit: d.canEdit(),
	}
}

func overviewField(d *designContext, f designer.Field[designer.Overview], value, errMsg string, saved bool) templates.Field {
	return templates.Field{
		ID: "field-overview-" + f.Key, Name: "value", Label: f.Heading(), Hint: overviewHints[f.Key], Value: value, Multiline: true,
		Action: "/d/" + d.Token + "/overview/" + f.Key, Error: errMsg, Saved: saved, CanEdit: d.canEdit(),
	}
}

func (s *Server) overviewModel(c echo.Context) (templates.Overview, error) {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "overview")
	if err != nil {
		return templates.Overview{}, err
	}
	o := templates.Overview{Workspace: w, NameField: nameField(d, d.Record.Design.Name, "", false), Offer: keyEntitiesOffer(d)}
	for _, f := range designer.OverviewFields {
		o.Fields = append(o.Fields, overviewField(d, f, f.Get(d.Record.Design.Overview), "", false))
	}
	return o, nil
}

func (s *Server) overviewPage(c echo.Context) error {
	o, err := s.overviewModel(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, templates.OverviewView(o))
}

func (s *Server) saveName(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	value := form.get("name")
	return s.saveField(c, designer.SetName{Name: value}, func(d *designContext, errMsg string, saved bool) templates.Field {
		shown := value
		if saved {
			shown = d.Record.Design.Name
		}
		return nameField(d, shown, errMsg, saved)
	})
}

func (s *Server) saveOverviewField(c echo.Context) error {
	f, ok := designer.FieldNamed(designer.OverviewFields, c.Param("field"))
	if !ok {
		return echo.ErrNotFound
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	value := form.get("value")
	return s.saveField(c, designer.SetOverviewField{Field: f.Key, Value: value}, func(d *designContext, errMsg string, saved bool) templates.Field {
		shown := value
		if saved {
			shown = f.Get(d.Record.Design.Overview)
		}
		return overviewField(d, f, shown, errMsg, saved)
	})
}

// saveField applies a one-field change and answers with the field: saved, or showing why not.
// Without htmx a refusal is answered with the whole page, the field showing why.
func (s *Server) saveField(c echo.Context, change designer.Change, field func(*designContext, string, bool) templates.Field) error {
	return s.apply(c, stepHref(designFrom(c), "overview"), change, func(d *designContext, r *refused) (templ.Component, error) {
		switch {
		case r != nil && !isHTMX(c):
			o, err := s.overviewModel(c)
			if err != nil {
				return nil, err
			}
			replaceField(&o, field(d, r.Message, false))
			return wholePage{templates.OverviewView(o)}, nil
		case r != nil:
			return templates.FieldView(field(d, r.Message, false)), nil
		}
		if _, ok := change.(designer.SetName); ok {
			return templ.Join(templates.FieldView(field(d, "", true)), templates.TitleOOB(d.Record.Design.Name)), nil
		}
		if c, ok := change.(designer.SetOverviewField); ok && c.Field == designer.OverviewField.KeyEntities.Key {
			// The offer of entities reads the list.
			offer := keyEntitiesOffer(d)
			offer.OOB = true
			return templ.Join(templates.FieldView(field(d, "", true)), templates.KeyEntitiesOfferView(offer)), nil
		}
		return templates.FieldView(field(d, "", true)), nil
	})
}

func replaceField(o *templates.Overview, f templates.Field) {
	if f.ID == o.NameField.ID {
		o.NameField = f
		return
	}
	for i := range o.Fields {
		if o.Fields[i].ID == f.ID {
			o.Fields[i] = f
		}
	}
}
