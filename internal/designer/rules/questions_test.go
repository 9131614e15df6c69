package rules

import (
	"slices"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func questionKeys(qs []Question) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Key
	}
	return out
}

// gappyDesign has one gap of most kinds: Order is read but never written, Payment has no pattern,
// pattern 1 lacks its peak RPS, pattern 2 its consistency, and the relationship its maximum.
func gappyDesign() designer.Design {
	d := cleanRequirements()
	d.Patterns[3].Type = designer.Read
	d.Entities = append(d.Entities, designer.Entity{Name: "Payment"})
	d.Patterns[0].PeakRPS = nil
	d.Patterns[1].Consistency = ""
	d.Relationships[0].Max = nil
	return d
}

func TestQuestions_mostUsefulFirstAndLimited(t *testing.T) {
	t.Parallel()
	d := gappyDesign()
	all := Questions(d, Validate(d), 0)
	want := []string{"req003-write-Order", "req005-Payment", "req001-ap1", "req004-ap2-consistency", "req009-r1"}
	if got := questionKeys(all); !slices.Equal(got, want) {
		t.Fatalf("keys = %q, want %q", got, want)
	}
	if got := Questions(d, Validate(d), 3); !slices.Equal(questionKeys(got), want[:3]) {
		t.Errorf("limit 3 = %q, want %q", questionKeys(got), want[:3])
	}
	if got := Questions(d, Validate(d), 10); len(got) != len(want) {
		t.Errorf("limit 10 gave %d questions, want %d", len(got), len(want))
	}
	if got := Questions(cleanRequirements(), Validate(cleanRequirements()), 3); len(got) != 0 {
		t.Errorf("clean design asks %q", questionKeys(got))
	}

	q := all[0]
	if q.Text != "Patterns 3 and 4 read Order, but no pattern writes Order — add a write pattern?" {
		t.Errorf("REQ003 text = %q", q.Text)
	}
	if q.Path != "entities/Order" || len(q.Actions) != 2 || q.Actions[0].Key != "add" || q.Actions[1].Key != "accept" {
		t.Errorf("REQ003 question = %+v", q)
	}
	if all[2].Text != `How many requests per second does pattern 1 "Get user profile" see at peak?` || all[2].Path != "access_patterns/1/peak_rps" {
		t.Errorf("REQ001 question = %+v", all[2])
	}
	if len(all[2].Actions) != 0 {
		t.Errorf("REQ001 question has actions: %+v", all[2].Actions)
	}
}

func TestQuestions_keysSurviveUnrelatedEdits(t *testing.T) {
	t.Parallel()
	d := gappyDesign()
	before := questionKeys(Questions(d, Validate(d), 0))

	var err error
	for _, c := range []designer.Change{
		designer.SetPatternField{ID: "ap1", Field: "description", Value: "Show the profile"},
		designer.SetPatternField{ID: "ap1", Field: "number", Value: "9"},
		designer.AddPattern{Type: designer.Read, Description: "Another read", Entities: []string{"User"}},
	} {
		if d, err = c.Apply(d); err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
	}
	after := questionKeys(Questions(d, Validate(d), 0))
	for _, k := range before {
		if !slices.Contains(after, k) {
			t.Errorf("question %q disappeared after unrelated edits; now %q", k, after)
		}
	}
}

func TestAnswerQuestion_answerClosesTheQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		edit     func(d *designer.Design)
		question string
		action   string
		kind     string
	}{
		{name: "add a write pattern", edit: func(d *designer.Design) { d.Patterns[3].Type = designer.Read },
			question: "req003-write-Order", action: "add", kind: "add_pattern"},
		{name: "accept a missing write", edit: func(d *designer.Design) { d.Patterns[3].Type = designer.Read },
			question: "req003-write-Order", action: "accept", kind: "set_entity_gap"},
		{name: "add a read pattern", edit: func(d *designer.Design) { d.Patterns[2].Type = designer.Write },
			question: "req003-read-Order", action: "add", kind: "add_pattern"},
		{name: "accept a missing read", edit: func(d *designer.Design) { d.Patterns[2].Type = designer.Write },
			question: "req003-read-Order", action: "accept", kind: "set_entity_gap"},
		{name: "give an unused entity a pattern", edit: func(d *designer.Design) { d.Entities = append(d.Entities, designer.Entity{Name: "Payment"}) },
			question: "req005-Payment", action: "add", kind: "add_pattern"},
		{name: "choose a consistency", edit: func(d *designer.Design) { d.Patterns[1].Consistency = "" },
			question: "req004-ap2-consistency", action: "strong", kind: "set_pattern_field"},
		{name: "follow the aggregate thresholds", edit: func(d *designer.Design) { d.Aggregates[0].Decision = designer.SeparateTables },
			question: "req006-ag1", action: "follow", kind: "set_aggregate_field"},
		{name: "use the identifying relationship", edit: func(d *designer.Design) { d.Aggregates[0].Identifying.SeparateTablePlanned = refOf(true) },
			question: "req007-ag1", action: "apply", kind: "set_aggregate_field"},
		{name: "follow the consolidation rule", edit: func(d *designer.Design) { d.Consolidations[0].Decision = designer.Separate },
			question: "req008-c1", action: "follow", kind: "set_consolidation_field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := cleanRequirements()
			tt.edit(&d)
			if !slices.Contains(questionKeys(Questions(d, Validate(d), 0)), tt.question) {
				t.Fatalf("question %q not asked; asked %q", tt.question, questionKeys(Questions(d, Validate(d), 0)))
			}
			c, err := AnswerQuestion(d, Validate(d), tt.question, tt.action)
			if err != nil {
				t.Fatalf("AnswerQuestion: %v", err)
			}
			if c.Kind() != tt.kind {
				t.Errorf("change kind = %q, want %q", c.Kind(), tt.kind)
			}
			next, err := c.Apply(d)
			if err != nil {
				t.Fatalf("Apply %#v: %v", c, err)
			}
			if keys := questionKeys(Questions(next, Validate(next), 0)); slices.Contains(keys, tt.question) {
				t.Errorf("question %q still asked after the answer; asked %q", tt.question, keys)
			}
			_, err = AnswerQuestion(next, Validate(next), tt.question, tt.action)
			designertest.WantValidationError(t, err, "question")
		})
	}
}

func TestAnswerQuestion_addsANamedPatternOfTheMissingType(t *testing.T) {
	t.Parallel()
	d := cleanRequirements()
	d.Patterns[3].Type = designer.Read
	c, err := AnswerQuestion(d, Validate(d), "req003-write-Order", "add")
	if err != nil {
		t.Fatalf("AnswerQuestion: %v", err)
	}
	want := designer.AddPattern{Type: designer.Write, Description: "Write Order", Entities: []string{"Order"}}
	got, ok := c.(designer.AddPattern)
	if !ok || got.Type != want.Type || got.Description != want.Description || !slices.Equal(got.Entities, want.Entities) {
		t.Errorf("change = %#v, want %#v", c, want)
	}
}

func TestAnswerQuestion_refusesUnknownQuestionsAndActions(t *testing.T) {
	t.Parallel()
	d := gappyDesign()
	_, err := AnswerQuestion(d, Validate(d), "req003-write-Nobody", "add")
	designertest.WantValidationError(t, err, "question")
	_, err = AnswerQuestion(d, Validate(d), "req003-write-Order", "shrug")
	designertest.WantValidationError(t, err, "action")
	_, err = AnswerQuestion(d, Validate(d), "req001-ap1", "add")
	designertest.WantValidationError(t, err, "action")
}
