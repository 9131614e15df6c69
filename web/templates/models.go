// Package templates owns Dynaloom's HTML: templ components that take one view model each, do no
// I/O, and carry data-testid hooks for tests.
package templates

import (
	"github.com/a-h/templ"

	"dynaloom/internal/designer"
)

// Page is what every full page needs.
type Page struct {
	Title string
}

// Home is the start page.
type Home struct {
	Page
	Examples []ExampleCard
	// NameError is shown under the name field of the "new design" form.
	NameError string
	Name      string
}

// ExampleCard is one example of the home page's gallery: its text, and figures counted from its
// design.
type ExampleCard struct {
	designer.Example
	Tables, Indexes, Patterns int
	// Thumbnail is the address of the example's model map as an SVG file, or "" when it could not
	// be drawn.
	Thumbnail string
}

// Step is one entry of the workspace navigation.
type Step struct {
	ID, Label, Href string
	Current         bool
	// LockedBy is who holds the step's lock, if anyone (lock.templ); SectionsBy who hold locks
	// of its sections, and SectionsLocked which, for the badge's tooltip.
	LockedBy       string
	SectionsBy     []string
	SectionsLocked string
}

// Workspace is the frame around every step of a design.
type Workspace struct {
	Page
	Name     string
	Revision int64
	CanEdit  bool
	// Base is the design's URL path with the token in use, "/d/<token>".
	Base string
	// Link is the kind of link Base holds, "edit" or "view", which the browser's own list of
	// designs opened records (app.js) with the design's id: a link that replaced another of the
	// same kind takes its place in the list.
	Link     string
	DesignID string
	// Here is the path and query of the page shown, where the name prompt returns to.
	Here  string
	Share Share
	Steps []Step
	// Participant is the display name kept in a cookie; editors without one are asked for it.
	Participant string
	Aside       Aside
	// Step is the id of the step shown; Events is the page's event stream (htmx SSE extension).
	Step   string
	Events string
	// Presenting is the projector mode: read-only, large type, following the facilitator.
	Presenting  bool
	PresentHref string
	// StepsFolded is the steps rail folded away in this browser; the panel's is Aside.Folded.
	StepsFolded bool
	// Past is set when the step shows a past revision, read-only (history_models.go).
	Past *PastRevision
	// Lock is the step's lock as the viewing tab sees it (lock.templ).
	Lock LockView
}

// PresenceView is one participant's tab in the top bar.
type PresenceView struct {
	ID             string // the chip's element id, the participant's for as long as their tab is here
	Name, Initials string
	Color          int
	Step           string // the label of the step they are on
	Focus          string // the id of the element they are editing, if any
	Leader, Self   bool
	Editor         bool
}

// PresenceDelta is what changed in the top bar's list since a stream last wrote it, as
// out-of-band swaps: chips gone, chips changed in place or new ones put before the chip (or at
// the end of the list) where they belong, and the count of the others.
type PresenceDelta struct {
	Gone  []string // element ids to remove
	Chips []PresenceChange
	// More is the new count of the others, written when MoreWhere is set: "true" to replace the
	// count shown, or where to put a new one.
	More      int
	MoreWhere string
}

// PresenceChange is one chip to write: Where is "true" to replace the chip with its id, or where
// to put a new one (an htmx out-of-band position, such as "beforebegin:#chip-4").
type PresenceChange struct {
	View  PresenceView
	Where string
}

func (p PresenceView) title() string {
	t := p.Name
	if p.Self {
		t += " (you)"
	}
	if p.Step != "" {
		t += " · " + p.Step
	}
	if p.Leader {
		t += " · leading"
	}
	if !p.Editor {
		t += " · viewing"
	}
	return t
}

// Aside is the live panel beside every step: counts, questions for the room and findings. Every
// edit answers with it as an out-of-band swap.
type Aside struct {
	Summary   designer.Summary
	Revision  int64
	CanEdit   bool
	Questions []QuestionView
	Findings  []FindingView
	// FindingsTotal counts all findings; Findings holds the first few.
	FindingsTotal  int
	ValidationHref string
	// AllClear is what the panel says when there is no finding.
	AllClear string
	// Folded is the panel folded away in this browser, to its button and the count of findings.
	Folded bool
}

// FindingView is one finding with a link to the field at fault.
type FindingView struct {
	Code, Severity, Message, Href string
}

// QuestionView is one facilitation question with its one-click answers.
type QuestionView struct {
	Text, Href string
	Actions    []ActionView
}

// ActionView is a button that answers a question by posting its keys to Action.
type ActionView struct {
	Label, Action, Question, Key string
}

// Option is one choice of a select.
type Option struct {
	Value, Label string
}

// Cell is one editable value in a table or card. It posts itself on change and the answer replaces
// Target.
type Cell struct {
	ID     string // element id, stable across re-renders so htmx keeps focus
	Label  string // accessible name
	Value  string
	Action string
	Vals   string // JSON of extra form values sent with the cell (hx-vals)
	// Target is what the answer replaces: the cell itself when empty, so saves of different cells
	// never overwrite each other. Edits that change what other cells post (a rename) set a container.
	Target  string
	Kind    string // "text", "number", "textarea" or "select"
	Options []Option
	Error   string
	Class   string
	CanEdit bool
	// Shown is the text viewers see, when it differs from Value (a select's label).
	Shown string
	// Hint says what the value means, shown when the pointer rests on the cell.
	Hint      string
	Autofocus bool
	// OOB marks the cell as an out-of-band part of a live refresh: the page morphs it in place of
	// the cell with its id, keeping what is being typed (app.js).
	OOB bool
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
	// OOB marks the field as an out-of-band part of a live refresh, as Cell.OOB.
	OOB bool
}

// Overview is the overview step.
type Overview struct {
	Workspace
	NameField Field
	Fields    []Field
	Offer     KeyEntitiesOffer
}

// ErrorPage explains an error to a person.
type ErrorPage struct {
	Page
	Status  int
	Heading string
	Message string
}

// Param is one hidden form value.
type Param struct {
	Name, Value string
}

// Button posts one change.
type Button struct {
	Label  string // accessible name and tooltip
	Text   string // visible text; Label when empty
	Action string
	Params []Param
	Target string
	Swap   string // hx-swap; outerHTML when empty
	Class  string
	TestID string
	// Confirm asks before posting, for changes that remove something.
	Confirm string
}

func (b Button) swap() string {
	if b.Swap == "" {
		return "outerHTML"
	}
	return b.Swap
}

// PatternRow is one access pattern in the patterns table.
type PatternRow struct {
	// Section is the design path the section lock of this part covers (data-section), for
	// app.js to mark it locked and offer its lock.
	Section string
	// Headings are the columns' headings, which a row laid out as a card (Present mode) shows.
	Headings []string
	RowID    string
	Number   string
	Cells    []Cell
	Buttons  []Button
	CanEdit  bool
	// Comments opens the pattern's comments.
	Comments CommentBadge
}

// columnHint is the hint of column i, or "" when it has none.
func (p Patterns) columnHint(i int) string {
	if i < len(p.ColumnHints) {
		return p.ColumnHints[i]
	}
	return ""
}

// heading is the heading of column i, or "" past the columns.
func (r PatternRow) heading(i int) string {
	if i < len(r.Headings) {
		return r.Headings[i]
	}
	return ""
}

// Patterns is the access-patterns step.
type Patterns struct {
	Workspace
	Columns []string
	// ColumnHints say what a column's values mean, by column; "" for none.
	ColumnHints []string
	Rows        []PatternRow
	Add         Button
	// Renumber is offered when the numbers are not 1..n in order.
	Renumber *Button
	Bulk     BulkPaste
	// Pager pages through the patterns when there are more than a page of them.
	Pager Pager
}

// EntityCard is one entity with its attributes.
type EntityCard struct {
	// Section is the design path the section lock of this part covers (data-section), for
	// app.js to mark it locked and offer its lock.
	Section     string
	ID          string
	Name        Cell
	Description Cell
	// Scale is how many items of the entity there are, how many new ones come and how long each is
	// kept, for the capacity step's storage.
	Scale      []ScaleFigure
	Attributes []AttributeRow
	AddAttr    AddAttribute
	Buttons    []Button
	CanEdit    bool
	// OOB marks the card as an out-of-band part of a live refresh, as Cell.OOB.
	OOB bool
}

// ScaleFigure is one figure of an entity's scale with where it came from ("read from: Entities,
// line 7"); editing it answers with the figure, source and all.
type ScaleFigure struct {
	ID     string
	Label  string
	Cell   Cell
	Source string
	// OOB marks the figure as an out-of-band part of a live refresh, as Cell.OOB.
	OOB bool
}

// AttributeRow is one typed attribute of an entity.
type AttributeRow struct {
	ID      string
	Name    Cell
	Type    Cell
	Buttons []Button
}

// AddAttribute is the small form under an entity's attributes.
type AddAttribute struct {
	Action string
	Entity string
	Types  []Option
	Target string
	ID     string
}

// RelationshipRow is one relationship between entities.
type RelationshipRow struct {
	RowID                           string
	From, Kind, To, Avg, Max, Notes Cell
	Delete                          Button
}

// Entities is the entities-and-relationships step.
type Entities struct {
	Workspace
	Cards     []EntityCard
	AddEntity string
	// AddValue and AddError show a refused new entity name on the add form.
	AddValue, AddError string
	Relationships      []RelationshipRow
	AddRel             AddRelationship
	Bulk               BulkPaste
	Diagram            Diagram
}

// AddRelationship is the form that adds a relationship.
type AddRelationship struct {
	Action   string
	Entities []Option
	Kinds    []Option
}

// AggregateCard is one entity pair's item-collection analysis, with the decision the seed's
// thresholds suggest beside the team's.
type AggregateCard struct {
	// Section is the design path the section lock of this part covers (data-section), for
	// app.js to mark it locked and offer its lock.
	Section     string
	ID          string
	Title       string
	Cells       []LabeledCell
	Identifying []LabeledCell
	Decision    LabeledCell
	Justify     LabeledCell
	Suggestion  string
	Reason      string
	Agrees      bool
	Delete      Button
	Scaffold    ScaffoldOffer
}

// LabeledCell is a cell with a visible label, for forms laid out as cards.
type LabeledCell struct {
	Label string
	Cell  Cell
}

// ConsolidationRow is one row of the consolidation review.
type ConsolidationRow struct {
	RowID      string
	Cells      []Cell
	Suggestion string
	Reason     string
	Agrees     bool
	Delete     Button
}

// Aggregates is the aggregates step: pair analyses, consolidation review and the scratchpad.
type Aggregates struct {
	Workspace
	Cards            []AggregateCard
	Consolidations   []ConsolidationRow
	Considerations   []Field
	Entities         []Option
	AddAggregate     string
	AddConsolidation string
	// Related adds an analysis of each related pair not analysed yet; zero when there is none.
	Related Button
	Paste   AggregatePaste
}

// AggregatePaste is the box that takes a pasted aggregate section: the text and refusal of a paste
// refused, or what the last one read and the notes on what it did not.
type AggregatePaste struct {
	Action, Text, Error, Done string
	Notes                     []string
	Open                      bool
}

// Validation is the validation step: every finding and the seed's checklists, ticked by the tool.
type Validation struct {
	Workspace
	// AllClear is what the step says when there is no finding.
	AllClear                string
	Errors, Warnings, Infos []FindingView
	Requirements            []ChecklistView
	DataModel               []ChecklistView
	// Prose are the data model's narrative sections, in the document's order.
	Prose []Field
}

// ChecklistView is one line of a seed checklist; Href, on a line not ticked, links to the field
// that would tick it.
type ChecklistView struct {
	Item string
	OK   bool
	Href string
}

// Export is the export step.
type Export struct {
	Workspace
	// Documents are the markdown deliverables, previewed; Files are the machine formats.
	Documents []ExportFormat
	Files     []ExportFormat
}

// ExportFormat is one downloadable document with its preview.
type ExportFormat struct {
	ID, Title, Filename, Download, Description string
	// Source is the file for Copy to take; "" when it is too long to carry in the page, and Copy
	// reads CopyFrom, its download address, instead.
	Source, CopyFrom string
	// DownloadDiagrams is the same document with its diagrams as Mermaid code blocks; "" for a
	// format that carries none.
	DownloadDiagrams string
	// Preview is the markdown documents' preview; empty for machine formats.
	Preview ExportPreview
	// Size is the document's size for people, such as "12.4 KB".
	Size string
	// LeftOut is what of the design the format cannot hold, one line each.
	LeftOut []string
}

// ExportPreview is one part of a markdown document rendered by goldmark in safe mode, with links
// to the other parts when it is long.
type ExportPreview struct {
	Body templ.Component
	// Target is the id of the element a part link replaces.
	Target string
	// Pager and Contents are the way to the other parts; Pager.Pages is 0 for a document shown whole.
	Pager    Pager
	Contents []PreviewLink
}

// PreviewLink is a link to one part of a previewed document, named by its first heading.
type PreviewLink struct {
	Href, Label string
	Current     bool
}

// Import is the import page.
type Import struct {
	Page
	Error string
}

// ImportReport tells what an import made of a file: what it read, the sections it kept as prose,
// and each note with the line it is about.
type ImportReport struct {
	Page
	Name    string
	EditURL string
	// Read counts what the design holds: "2 tables, 3 GSIs, 14 access patterns, …".
	Read string
	// Prose are the titles of the sections kept as prose.
	Prose []string
	Notes []ImportNote
}

// ImportNote is one note of an import: the file it is about when two files were read, "line 12"
// (empty for the file as a whole), and what was made of it.
type ImportNote struct {
	File, Line string
	Message    string
}

func (c Cell) target() string {
	if c.Target == "" {
		return "#" + c.ID + "-cell"
	}
	return c.Target
}

// Tables is the tables-and-indexes step: one table at a time, chosen from tabs.
type Tables struct {
	Workspace
	Tabs     []Step
	AddTable string
	Table    *TableView
	// Map is the model map of every table, above the one table shown.
	Map Diagram
}

// TableView is one table: schema, taxonomy, attributes, indexes, the item grid and the index grids.
type TableView struct {
	// Section is the design path the section lock of this part covers (data-section), for
	// app.js to mark it locked and offer its lock.
	Section     string
	ID          string
	Name        string
	Header      []LabeledCell
	Schema      []LabeledCell
	Notes       []LabeledCell
	Delete      Button
	EntityTypes []CellRow
	AddEntity   string
	Attributes  []CellRow
	AddAttr     AddAttribute
	Indexes     []IndexCard
	AddIndex    string
	Grid        ItemGrid
	IndexGrids  []IndexGrid
	Comments    CommentBadge
	// EntityAttrs are the entities' attributes the table does not declare, offered when adding
	// one; EntityNames the entities, offered when adding an entity type.
	EntityAttrs []EntityAttributeOption
	EntityNames []string
	DeclareFrom DeclareEntityAttributes
}

// CellRow is a row of cells with its buttons.
type CellRow struct {
	RowID   string
	Cells   []Cell
	Buttons []Button
}

// IndexCard edits one GSI or LSI.
type IndexCard struct {
	ID, Name, Kind string
	Cells          []LabeledCell
	Delete         Button
	Comments       CommentBadge
}

// ItemGrid is the spreadsheet of a table's sample items, grouped by partition.
type ItemGrid struct {
	ID        string
	Table     string
	Columns   []GridColumn
	Groups    []ItemGroup
	Count     int
	AddRow    Button
	Paste     string
	Generate  string
	AddColumn string
	Types     []Option
	// Message reports a refused paste or generation.
	Message string
	// Pager moves between the grid's pages; GoTo opens the page holding an item by its key.
	Pager Pager
	GoTo  GoToItem
}

// Pager is where a paged list stands and the links to its other pages. The links are real links
// (the page works without JavaScript); htmx swaps Target's element from their answer in place.
type Pager struct {
	Target string // the element a page link replaces, "#id"
	// Page and Pages count from 1; First and Last are the 1-based positions of the rows shown.
	Page, Pages, First, Last, Total int
	Noun                            string // "items", "entries"
	// FirstHref, Prev, Next and LastHref are "" where there is no such page.
	FirstHref, Prev, Next, LastHref string
}

// GoToItem is the form that opens the page holding an item, by its key values.
type GoToItem struct {
	Action string // the step's path; the form is a GET
	// Hidden are the values the form carries over (the table, the projector mode).
	Hidden []Param
	// PK and SK name the key attributes; SK is "" for a table without a sort key.
	PK, SK           string
	PKValue, SKValue string
	// Error says why no item was found, naming the field; Field is that field's name.
	Error, Field string
}

// GridColumn is one attribute column.
type GridColumn struct {
	Name, Type, Role string // Role: "pk", "sk" or ""
}

// ItemGroup is one partition: the items sharing a partition key value.
type ItemGroup struct {
	Partition string
	// Continued is set when the partition began on the previous page, Continues when it goes on
	// on the next one.
	Continued, Continues bool
	Rows                 []ItemRowView
}

// ItemRowView is one sample item.
type ItemRowView struct {
	RowID, ItemID string
	// Target marks the row a link or "go to item" asked for.
	Target      bool
	Cells       []Cell
	Size        string
	SizeID      string
	EntityType  string
	EntityClass string
	Buttons     []Button
	Comments    CommentBadge
}

// IndexGrid is the computed view of one index.
type IndexGrid struct {
	ID, Name, Kind string
	Columns        []GridColumn
	Rows           []IndexGridRow
	Excluded       []ExcludedView
	Projection     string
	// Total counts the index's entries; Rows holds one page of them. ExcludedTotal counts the
	// items left out; Excluded holds the first ones.
	Total, ExcludedTotal int
	Pager                Pager
	// OOB marks the grid as an out-of-band part of an answer, replacing the one with its ID.
	OOB bool
}

// IndexGridRow is one entry of an index. ID is the row's element id, by which an answer replaces
// the row alone.
type IndexGridRow struct {
	ID     string
	ItemID string
	Cells  []string
	Size   string
}

// ExcludedView is an item an index leaves out, and why. Key is the item as the room knows it, by
// its table key values; ItemID only marks the row for the page.
type ExcludedView struct {
	ItemID, Key, Reason string
}

// Mapping is the mapping step: each access pattern's operations, run live against the samples.
type Mapping struct {
	Workspace
	Cards []MappingCard
}

// MappingCard is one access pattern with its operations. A card is shown collapsed — its number,
// description, operations in a line and verdict — until it is opened; only an open card (Open)
// carries its operations, results and notes.
type MappingCard struct {
	ID, Number, Description string
	Open                    bool
	// OOB marks the card as an out-of-band part of an answer, morphed over the one with its ID.
	OOB bool
	// OpsSummary names the operations in one line; Verdict is "pass", "fail" or "" (unproved),
	// VerdictID the verdict's element id, so that an answer can update it out of band.
	OpsSummary, Verdict, VerdictID string
	// Detail fetches the open card; OpenHref opens the step with this card open (without JavaScript).
	Detail, OpenHref string
	// Status is the pattern's status in words; StatusKind its value, which picks the pill's colour.
	Status, StatusKind string
	Notes              Cell
	Source             string
	Ops                []OperationView
	// Code is the pattern's requests as code to paste, one per request; CodeID the id of its fold.
	Code   []RequestCode
	CodeID string
	Add    Button
}

// RequestCode is one request of a pattern as code in each language; Reason, set instead, says
// why no code can be written.
type RequestCode struct {
	ID, Reason string
	Blocks     []CodeBlock
}

// CodeBlock is one language's code; ID is the id of its <pre>, which its Copy button copies.
type CodeBlock struct {
	ID, Lang, Label, Code string
}

// OperationView is one mapped operation with its live result. A write shows the key condition
// its key fields wrote, and the forms that add clauses to its update and condition.
type OperationView struct {
	ID    string
	Cells []LabeledCell
	// KeyConditionID, set for a write keyed by its key fields, is the id of the line that shows
	// the KeyCondition they wrote.
	KeyCondition, KeyConditionID string
	Builders                     []ClauseForm
	Delete                       Button
	Result                       ResultView
}

// ClauseForm adds one clause to an operation's update or condition: a choice (SET, REMOVE…, or
// attribute_exists, =…), an attribute, offered from the table's, and a value.
type ClauseForm struct {
	ID, Title, Action, Target string
	Pattern, Index            string
	Choices                   []Option
	Attributes                []string
	TestID                    string
	// Error is a refusal of what was posted, shown with the posted Choice, Attribute and Text.
	Error, Choice, Attribute, Text string
}

// ItemChange is one item before and after a write, attribute by attribute.
type ItemChange struct {
	Key string
	// Failed: the condition failed and nothing was written; Absent: there was no item before;
	// Gone: there is none after (a delete).
	Failed, Absent, Gone bool
	Attributes           []AttributeChange
}

// AttributeChange is one attribute of an ItemChange; Change is "added", "removed", "changed" or "".
type AttributeChange struct {
	Name, Before, After, Change string
}

// ResultView is what an operation returns from the sample items, and whether that is what the
// team expects.
type ResultView struct {
	ID      string
	Error   string
	Summary string
	// Verdict is "pass", "fail" or "" when no expected result is recorded.
	Verdict string
	Rows    []ResultRow
	More    int
	Clear   *Button
	// IndexWrites says, for a write, what it does to each index's entries and what that costs.
	IndexWrites []string
	// Hint is Error in the room's words; Error stays beneath it as DynamoDB's own message.
	Hint string
	// Write marks a write's result: Condition is "holds", "fails" or "" (none), said in
	// ConditionText; Items are the items before and after.
	Write         bool
	Condition     string
	ConditionText string
	Items         []ItemChange
}

// ResultRow is one candidate item: returned or not, expected or not, with the button that marks it.
type ResultRow struct {
	Key      string
	Returned bool
	Expected bool
	Toggle   Button
}

// Share is the body of the Share popover: the links, and for the holder of the edit link the
// controls that replace them and limit the view link's life.
type Share struct {
	EditURL string // empty unless the page was opened with the edit token
	ViewURL string
	// Action is the path the controls post to ("/d/<edit token>/share"); empty on a view page.
	Action string
	// Step is the id of the step the popover is on, so a new edit link opens the same step.
	Step string
	// ViewExpiry says in words when the view link stops working; ViewExpired is set once it has.
	ViewExpiry  string
	ViewExpired bool
	// Expiry is the choice the expiry form shows, one of ExpiryChoices' values; ExpiryDate the
	// date it shows (YYYY-MM-DD).
	Expiry        string
	ExpiryDate    string
	ExpiryChoices []Option
	// Notice tells what was just done; Error why a choice was refused.
	Notice, Error string
}

// CommentBadge is the button on an element that opens its comments, with the count of open ones.
type CommentBadge struct {
	ID     string // element id, so an answer can update the badge out of band
	Target string // the element's path, as comments address it
	Href   string // the thread panel of the element
	Open   int
	Label  string // accessible name: "Comments on pattern 4, 2 open"
}

// CommentsPanel is the thread panel of one element: its threads, and for editors the forms that
// add, reply, resolve and delete.
type CommentsPanel struct {
	Target, Label string
	// Href fetches the panel again when the design changes while it is open.
	Href     string
	Revision int64
	CanEdit  bool
	Threads  []CommentThreadView
	// Action adds a comment or a reply; ResolveAction and DeleteAction act on one comment.
	Action, ResolveAction, DeleteAction string
	// Error tells why a comment was refused; Draft and DraftParent keep what was typed and where.
	Error, Draft, DraftParent string
	Autofocus                 bool
}

// CommentThreadView is a root comment and its replies; a resolved thread is shown collapsed.
type CommentThreadView struct {
	Root     CommentView
	Replies  []CommentView
	Resolved bool
	Resolve  Button
}

// CommentView is one comment. Body is plain text, shown escaped.
type CommentView struct {
	ID, Author, Body string
	At, When         string // the RFC 3339 time and how long ago it was
	Delete           *Button
}
