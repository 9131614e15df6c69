package rules

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// Question is one of the seed's facilitation questions, asked because of a gap the rules found.
// Key names the gap, not its wording, so it stays the same while the gap is open: a button that
// posts (question key, action key) finds the question again after other edits.
type Question struct {
	Key  string `json:"key"`
	Text string `json:"text"`
	// Path is the field the answer goes into, in finding form.
	Path string `json:"path"`
	// Actions are one-click answers; a question without any is answered by editing Path.
	Actions []QuestionAction `json:"actions,omitempty"`
}

// QuestionAction is a one-click answer to a question.
type QuestionAction struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	// change is what AnswerQuestion applies for this answer.
	change designer.Change
}

// questionRank orders the questions as a workshop would ask them: first the patterns that are
// missing altogether (the seed's "I see a login pattern but no pattern to create users"), then the
// figures every pattern must have, then the decisions, and the relationship counts last.
var questionRank = map[string]int{
	"REQ003": 0, "REQ005": 1, "REQ001": 2, "REQ002": 3, "REQ004": 4,
	"REQ007": 5, "REQ006": 6, "REQ008": 7, "REQ009": 8,
}

// Questions turns findings of Validate(d) into at most limit questions, the most useful first; a
// limit of zero or less means all of them. The seed asks at most three at a time.
func Questions(d designer.Design, findings []Finding, limit int) []Question {
	return questions(d, findings, limit)
}

// AnswerQuestion returns the change that answers a question with one of its actions. The question
// is looked up again in d and its findings (Validate(d)), so an answer to a gap someone else has
// closed meanwhile is refused with a *ValidationError for "question".
func AnswerQuestion(d designer.Design, findings []Finding, questionKey, actionKey string) (designer.Change, error) {
	for _, q := range questions(d, findings, 0) {
		if q.Key != questionKey {
			continue
		}
		for _, a := range q.Actions {
			if a.Key == actionKey {
				return a.change, nil
			}
		}
		return nil, designer.Invalid("action", "%q is not an answer to this question", actionKey)
	}
	return nil, designer.Invalid("question", "this question no longer applies")
}

// questions builds the questions in rank order and stops at limit (none when limit ≤ 0): a design
// with hundreds of open gaps should not pay for questions nobody is shown.
func questions(d designer.Design, findings []Finding, limit int) []Question {
	ordered := slices.Clone(findings)
	slices.SortStableFunc(ordered, func(a, b Finding) int {
		ra, oka := questionRank[a.Code]
		rb, okb := questionRank[b.Code]
		if !oka {
			ra = len(questionRank)
		}
		if !okb {
			rb = len(questionRank)
		}
		return cmp.Compare(ra, rb)
	})
	var uses map[string]*entityUse
	seen := map[string]bool{}
	var out []Question
	for _, f := range ordered {
		var q Question
		var ok bool
		switch f.Code {
		case "REQ001":
			q, ok = rpsQuestion(d, f)
		case "REQ002":
			q, ok = numberQuestion(d, f)
		case "REQ003":
			if uses == nil {
				uses = entityUses(d)
			}
			q, ok = gapQuestion(f, uses)
		case "REQ004":
			q, ok = keyNeedQuestion(d, f)
		case "REQ005":
			q, ok = unusedEntityQuestion(f)
		case "REQ006":
			q, ok = aggregateQuestion(d, f)
		case "REQ007":
			q, ok = identifyingQuestion(d, f)
		case "REQ008":
			q, ok = consolidationQuestion(d, f)
		case "REQ009":
			q, ok = countQuestion(d, f)
		}
		if ok && !seen[q.Key] {
			seen[q.Key] = true
			out = append(out, q)
			if limit > 0 && len(out) == limit {
				break
			}
		}
	}
	return out
}

// findingPattern returns the pattern a pattern finding's path names, and the field.
func findingPattern(d designer.Design, path string) (designer.Pattern, string, bool) {
	pp := designer.Path(path).Parts()
	if pp.Collection != designer.PathPatterns {
		return designer.Pattern{}, "", false
	}
	n, err := strconv.Atoi(pp.Key)
	if err != nil {
		return designer.Pattern{}, "", false
	}
	p, _, found := d.PatternByNumber(n)
	return p, pp.Field, found
}

// findingRow returns the id in a path of collection, such as "aggregates/ag1/decision"; "" for a
// path of another collection.
func findingRow(path, collection string) string {
	if pp := designer.Path(path).Parts(); pp.Collection == collection {
		return pp.Key
	}
	return ""
}

// patternKey names a pattern in a question key by its id, which survives renumbering.
func patternKey(p designer.Pattern) string {
	if p.ID != "" {
		return p.ID
	}
	return "n" + strconv.Itoa(p.Number)
}

func rpsQuestion(d designer.Design, f Finding) (Question, bool) {
	p, _, ok := findingPattern(d, f.Path)
	if !ok {
		return Question{}, false
	}
	when := "at peak and on average"
	switch {
	case p.PeakRPS == nil && p.AvgRPS != nil:
		when = "at peak"
	case p.PeakRPS != nil:
		when = "on average"
	}
	return Question{
		Key:  "req001-" + patternKey(p),
		Text: "How many requests per second does " + lowerFirst(patternName(p)) + " see " + when + "?",
		Path: f.Path,
	}, true
}

func numberQuestion(d designer.Design, f Finding) (Question, bool) {
	p, _, ok := findingPattern(d, f.Path)
	if !ok {
		return Question{}, false
	}
	var names []string
	for _, q := range d.Patterns {
		if q.Number == p.Number {
			names = append(names, inQuotes(q.Description))
		}
	}
	return Question{
		Key:  "req002-" + strconv.Itoa(p.Number),
		Text: "Patterns " + designer.ListAnd(names) + " share number " + strconv.Itoa(p.Number) + ". Which of them gets a new number?",
		Path: f.Path,
	}, true
}

func gapQuestion(f Finding, uses map[string]*entityUse) (Question, bool) {
	name := strings.TrimPrefix(f.Path, "entities/")
	u := uses[name]
	if u == nil {
		return Question{}, false
	}
	if len(u.writes) == 0 {
		return Question{
			Key:  "req003-write-" + name,
			Text: capitalFirst(patternList(u.reads)) + " " + verb(u.reads, "reads", "read") + " " + name + ", but no pattern writes " + name + " — add a write pattern?",
			Path: f.Path,
			Actions: []QuestionAction{
				{Key: "add", Label: "Add a write pattern", change: designer.AddPattern{Type: designer.Write, Description: "Write " + name, Entities: []string{name}}},
				{Key: "accept", Label: "Keep the gap — " + name + " is written elsewhere", change: designer.SetEntityGap{Entity: name, Gap: designer.GapNoWrite, Accepted: true}},
			},
		}, true
	}
	return Question{
		Key:  "req003-read-" + name,
		Text: capitalFirst(patternList(u.writes)) + " " + verb(u.writes, "writes", "write") + " " + name + ", but no pattern reads " + name + " — add a read pattern?",
		Path: f.Path,
		Actions: []QuestionAction{
			{Key: "add", Label: "Add a read pattern", change: designer.AddPattern{Type: designer.Read, Description: "Read " + name, Entities: []string{name}}},
			{Key: "accept", Label: "Keep the gap — nothing here reads " + name, change: designer.SetEntityGap{Entity: name, Gap: designer.GapNoRead, Accepted: true}},
		},
	}, true
}

func unusedEntityQuestion(f Finding) (Question, bool) {
	name := strings.TrimPrefix(f.Path, "entities/")
	return Question{
		Key:  "req005-" + name,
		Text: "Which pattern reads or writes " + name + "?",
		Path: f.Path,
		Actions: []QuestionAction{
			{Key: "add", Label: "Add a read pattern", change: designer.AddPattern{Type: designer.Read, Description: "Read " + name, Entities: []string{name}}},
		},
	}, true
}

func keyNeedQuestion(d designer.Design, f Finding) (Question, bool) {
	p, field, ok := findingPattern(d, f.Path)
	if !ok {
		return Question{}, false
	}
	name := lowerFirst(patternName(p))
	q := Question{Key: "req004-" + patternKey(p) + "-" + field, Path: f.Path}
	pf := designer.PatternField
	switch field {
	case pf.LatencySLO.Key:
		q.Text = "What latency does " + name + " need, for example <20 ms p99?"
	case pf.Consistency.Key:
		q.Text = "Does " + name + " need strongly consistent reads, or are eventually consistent ones enough?"
		set := func(v string) designer.Change {
			return designer.SetPatternField{ID: p.ID, Field: pf.Consistency.Key, Value: v}
		}
		q.Actions = []QuestionAction{
			{Key: designer.Strong, Label: "Strongly consistent", change: set(designer.Strong)},
			{Key: designer.Eventual, Label: "Eventually consistent", change: set(designer.Eventual)},
		}
	case pf.ResultBound.Key:
		q.Text = "How many items does " + name + " return at most?"
	case pf.ItemSizeBand.Key:
		q.Text = "How large are the items " + name + " reads or writes?"
	default:
		return Question{}, false
	}
	return q, true
}

func aggregateQuestion(d designer.Design, f Finding) (Question, bool) {
	if f.Severity == SeverityInfo {
		return Question{}, false // justified: nothing to ask
	}
	a, _, ok := d.AggregateByID(findingRow(f.Path, "aggregates"))
	s := SuggestAggregate(a)
	if !ok || s.Decision == "" {
		return Question{}, false
	}
	return Question{
		Key: "req006-" + a.ID,
		Text: "Why " + decisionName(a.Decision) + " for " + a.EntityA + " + " + a.EntityB + "? The thresholds say " +
			s.Reason + ".",
		Path: "aggregates/" + a.ID + "/" + designer.AggregateField.Justification.Key,
		Actions: []QuestionAction{{Key: "follow", Label: "Make it " + decisionName(s.Decision),
			change: designer.SetAggregateField{ID: a.ID, Field: designer.AggregateField.Decision.Key, Value: s.Decision}}},
	}, true
}

func identifyingQuestion(d designer.Design, f Finding) (Question, bool) {
	a, _, ok := d.AggregateByID(findingRow(f.Path, "aggregates"))
	if !ok {
		return Question{}, false
	}
	return Question{
		Key: "req007-" + a.ID,
		Text: a.EntityB + " cannot exist without " + a.EntityA + " and is always read with the " + a.EntityA +
			" id. Store it under PK = " + a.EntityA + " id, SK = " + a.EntityB + " id instead of a separate table and GSI?",
		Path: f.Path,
		Actions: []QuestionAction{{Key: "apply", Label: "Yes, no separate table",
			change: designer.SetAggregateField{ID: a.ID, Field: designer.AggregateField.SeparateTablePlanned.Key, Value: "no"}}},
	}, true
}

func consolidationQuestion(d designer.Design, f Finding) (Question, bool) {
	c, _, ok := d.ConsolidationByID(findingRow(f.Path, "consolidations"))
	s := SuggestConsolidation(c)
	if !ok || s.Decision == "" {
		return Question{}, false
	}
	why := "Why consolidate " + c.Parent + " and " + c.Child + "?"
	if c.Decision == designer.Separate {
		why = "Why keep " + c.Parent + " and " + c.Child + " separate?"
	}
	return Question{
		Key:  "req008-" + c.ID,
		Text: why + " The rules say " + s.Reason + ".",
		Path: "consolidations/" + c.ID + "/" + designer.ConsolidationField.Justification.Key,
		Actions: []QuestionAction{{Key: "follow", Label: capitalFirst(decisionName(s.Decision)),
			change: designer.SetConsolidationField{ID: c.ID, Field: designer.ConsolidationField.Decision.Key, Value: s.Decision}}},
	}, true
}

func countQuestion(d designer.Design, f Finding) (Question, bool) {
	r, _, ok := d.RelationshipByID(findingRow(f.Path, "relationships"))
	if !ok {
		return Question{}, false
	}
	return Question{
		Key:  "req009-" + r.ID,
		Text: "How many " + r.To + " items does one " + r.From + " have, on average and at most?",
		Path: f.Path,
	}, true
}

func verb(ps []*designer.Pattern, one, many string) string {
	if len(ps) == 1 {
		return one
	}
	return many
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func capitalFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
