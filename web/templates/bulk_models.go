package templates

// KeyEntitiesOffer is the overview's offer to make entities of the names its key entities list
// gives that are not entities yet.
type KeyEntitiesOffer struct {
	Action string
	// Names are the entities to add, each ticked; Relationships those written between two names.
	Names, Relationships []string
	// Done says the list names no entity the design lacks; Written whether there is a list at all.
	Done, Written bool
	// Button is the text of the button that adds them.
	Button string
	// EntitiesHref is the Entities step.
	EntitiesHref string
	CanEdit, OOB bool
}

// BulkPaste is the "paste in bulk" box of a step: the text, and once previewed, what it adds and
// what it cannot read.
type BulkPaste struct {
	Preview, Add string
	// Step is the step the box is on, where the page goes back to after the rows are added.
	Step string
	Text string
	Open bool
	// Previewed says Adds and Problems are filled in from Text.
	Previewed bool
	Adds      []BulkGroup
	Problems  []BulkProblem
	// Already counts the lines the design has already; Merged are those that fill in or differ
	// from a row it has, Conflicts counts their differences, and Replace says to take the pasted
	// values on every line (else on the lines Merged marks Taken).
	Already   int
	Merged    []BulkMerge
	Conflicts int
	Replace   bool
	// Take are the lines whose pasted values the team takes.
	Take []int
	// Hints are the header rows the box offers as examples.
	Hints []string
	// Error is a refusal of the whole paste, shown above the text.
	Error string
}

// BulkGroup is one kind of row a paste adds, with a line per row.
type BulkGroup struct {
	Title string
	Lines []string
}

// BulkMerge is a pasted line that merges into a row the design has: what it fills in, and a
// sentence per value that differs.
type BulkMerge struct {
	Line      int
	Row       string
	Fills     string
	Conflicts []string
	// Taken says the team takes the pasted values where this line and the design differ.
	Taken bool
}

// BulkProblem is one pasted line that adds nothing.
type BulkProblem struct {
	Line          int
	Text, Message string
}

// ScaffoldOffer is an aggregate card's offer to add the tables its decision calls for.
type ScaffoldOffer struct {
	ID, Action, Aggregate string
	CanEdit, OOB          bool
	// Tables describes what it adds, one group per table; Note says why nothing is offered.
	Tables []BulkGroup
	Note   string
	// Reasons names each choice the scaffold made and why, from the method's rules.
	Reasons []string
}

// DeclareEntityAttributes offers to declare, in one click, every attribute of an entity that a
// table does not declare yet; each option names the entity and what it adds.
type DeclareEntityAttributes struct {
	Action, Table string
	Options       []Option
}

// EntityAttributeOption is an entity's attribute offered where a table's attributes are added.
type EntityAttributeOption struct {
	Entity, Name, Type string
}

func joinComma(items []string) string {
	out := ""
	for i, s := range items {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

// listSeparator is what follows item i of n in a list written out: ", ", ", or " before the last.
func listSeparator(i, n int) string {
	switch {
	case i == n-2:
		return ", or "
	case i < n-2:
		return ", "
	}
	return ""
}
