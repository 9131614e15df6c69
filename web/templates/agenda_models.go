package templates

// Agenda is the workshop's agenda: the method's steps with their minutes, what to settle, the
// questions to ask and the ones the design raises now, and the room's timer.
type Agenda struct {
	Steps        []AgendaStep
	TotalMinutes int
	// Current is the step the page shows; Timer the room's timer, nil when none is set.
	Current string
	Timer   *AgendaTimer
	// Next is the step after the timed one, which the facilitator starts in one click.
	Next *AgendaStep
	// CanEdit offers the timer's controls, which post to Action.
	CanEdit bool
	Action  string
	// Error says why a timer action was refused.
	Error string
}

// AgendaStep is one step of the agenda.
type AgendaStep struct {
	ID     string
	Number int
	Label  string
	Href   string
	// Minutes is the step's time box in an hour's workshop.
	Minutes int
	Aim     string
	// Asks are the facilitator's questions for the step; Questions the rules' about the design as
	// it is, MoreQuestions how many more there are.
	Asks          []string
	Questions     []QuestionView
	MoreQuestions int
	// Findings counts the findings whose field is on this step.
	Findings     int
	FindingsHref string
	// Current is the step the page shows, Timed the one the timer runs for.
	Current, Timed bool
}

// AgendaTimer is the room's timer as the agenda shows it when it opens; the page's own clock
// counts it down from there.
type AgendaTimer struct {
	Step, Label, Left string
	Running           bool
}
