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
			v.Infos = append(v.Infos, fv)
		}
	}
	lists := x.Checklists()
	for _, it := range lists.Requirements {
		v.Requirements = append(v.Requirements, templates.ChecklistView{Item: it.Item, OK: it.OK})
	}
	for _, it := range lists.DataModel {
		v.DataModel = append(v.DataModel, templates.ChecklistView{Item: it.Item, OK: it.OK})
	}
	return render(c, http.StatusOK, templates.ValidationView(v))
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

// allClear is what the panel and the validation step say when nothing is found: on a design with no
// access pattern and no table there is nothing to check yet, which is not the same as all being well.
func allClear(s designer.Summary) string {
	if s.Patterns == 0 && s.Tables == 0 {
		return "Nothing to check yet: findings appear as access patterns and tables are added."
	}
	return "No findings. Every rule is satisfied."
}
