package server

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/rules"
	"dynaloom/web/templates"
)

func (s *Server) validationPage(c echo.Context) error {
	d := designFrom(c)
	w, err := s.workspaceModel(c, "validation")
	if err != nil {
		return err
	}
	v := templates.Validation{Workspace: w, AllClear: allClear(designer.Summarize(d.Record.Design))}
	x := d.derived()
	for _, f := range x.Findings() {
		fv := findingView(d, f)
		switch f.Severity {
		case rules.SeverityError:
			v.Errors = append(v.Errors, fv)
		case rules.SeverityWarning:
			v.Warnings = append(v.Warnings, fv)
		default:
			// The projector shows what the room must act on; advice waits for the editors.
			if !d.Presenting {
				v.Infos = append(v.Infos, fv)
			}
		}
	}
	lists := x.Checklists()
	v.Requirements, v.DataModel = checklistViews(d, lists.Requirements), checklistViews(d, lists.DataModel)
	for _, f := range designer.ProseFields {
		v.Prose = append(v.Prose, proseFieldView(d, f, f.Get(d.Record.Design.Prose), "", false))
	}
	return render(c, http.StatusOK, templates.ValidationView(v))
}

// checklistViews are the lines of a checklist, each not ticked linking to the field that ticks it.
func checklistViews(d *designContext, items []rules.ChecklistItem) []templates.ChecklistView {
	out := make([]templates.ChecklistView, len(items))
	for i, it := range items {
		out[i] = templates.ChecklistView{Item: it.Item, OK: it.OK}
		if !it.OK {
			out[i].Href = anchorFor(d, it.Path)
		}
	}
	return out
}

// proseFieldView is the field of one narrative section of the data model.
func proseFieldView(d *designContext, f designer.Field[designer.Prose], value, errMsg string, saved bool) templates.Field {
	return templates.Field{ID: proseElemID(f.Key), Name: "value", Label: f.Heading(), Value: value, Multiline: true,
		Action: "/d/" + d.Token + "/prose/" + f.Key, Error: errMsg, Saved: saved, CanEdit: d.canEdit()}
}

// saveProse sets one narrative section of the data model; the answer is its field and, out of
// band, the data model's checklist, whose lines the section may tick.
func (s *Server) saveProse(c echo.Context) error {
	f, ok := designer.FieldNamed(designer.ProseFields, c.Param("field"))
	if !ok {
		return echo.ErrNotFound
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	value := form.get("value")
	return s.apply(c, stepHref(designFrom(c), "validation")+"#"+proseElemID(f.Key), designer.SetProse{Field: f.Key, Value: value},
		func(d *designContext, r *refused) (templ.Component, error) {
			if r != nil {
				return templates.FieldView(proseFieldView(d, f, value, r.Message, false)), nil
			}
			return templ.Join(templates.FieldView(proseFieldView(d, f, f.Get(d.Record.Design.Prose), "", true)),
				templates.DataModelChecklist(checklistViews(d, d.derived().Checklists().DataModel), true)), nil
		})
}

type validationResponse struct {
	Revision int64 `json:"revision"`
	rules.Report
}

func (s *Server) apiValidation(c echo.Context) error {
	d := designFrom(c)
	return c.JSON(http.StatusOK, validationResponse{Revision: d.Record.Revision, Report: d.derived().Report()})
}

func (s *Server) answerQuestion(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	d := designFrom(c)
	change, err := rules.AnswerQuestion(d.Record.Design, d.derived().Findings(), form.get("question"), form.get("action"))
	if err != nil {
		return err
	}
	before := d.Record.Design.Patterns
	// The question is in the side panel, which is the answer.
	return s.apply(c, stepHref(d, "overview"), change, savedPart(func(d *designContext) (templ.Component, error) {
		// A new pattern is best finished where patterns are edited.
		if len(d.Record.Design.Patterns) > len(before) {
			return reload(stepHref(d, "patterns")), nil
		}
		return templ.NopComponent, nil
	}))
}
