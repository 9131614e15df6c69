// Package designer owns the Dynaloom design document: its types, the typed changes that edit it
// and their registry, its JSON form (design-json), item sizes, key order and key templates, table
// rows, paste, sample-data generation, diff, path overlap and the examples a new design can start
// from. It imports only the standard library: no HTTP, no SQL, no clock and no randomness except
// where a caller asks for a new id. What a design means to DynamoDB is package dynamo's, the rule
// catalogue package rules', and the file formats package format's; each of them imports this one.
//
// A Design is treated as an immutable value. Changes never modify the design they are given; they
// copy the parts they touch and share the rest, so a stored revision can never be altered by a later
// edit.
package designer

import (
	"strconv"
	"strings"
)

// Format is the value of the "format" member of every design-json document.
const Format = "dynaloom/1"

// Design is one DynamoDB data model, from requirements to tables and sample items.
type Design struct {
	Format         string                `json:"format"`
	Name           string                `json:"name"`
	Overview       Overview              `json:"overview"`
	Entities       []Entity              `json:"entities"`
	Relationships  []Relationship        `json:"relationships"`
	Patterns       []Pattern             `json:"access_patterns"`
	Aggregates     []AggregateAnalysis   `json:"aggregates"`
	Consolidations []ConsolidationReview `json:"consolidations"`
	Considerations Considerations        `json:"considerations"`
	Tables         []Table               `json:"tables"`
	Prose          Prose                 `json:"prose"`
	Comments       []Comment             `json:"comments"`
	// Workbench keeps what an imported NoSQL Workbench model held that the fields above do not,
	// so that workbench.Export writes it back; nil for a design that never came from one.
	Workbench *WorkbenchExtras `json:"workbench,omitempty"`
	// Capacity holds the prices and settings the team set for the capacity and cost view; empty
	// (and omitted) leaves every figure to its default.
	Capacity CapacitySettings `json:"capacity,omitzero"`
	// Diagrams keeps where people placed boxes on the diagrams; empty until someone moves one.
	Diagrams Diagrams `json:"diagrams,omitempty"`
}

// Overview is the "Application Overview" of the requirement document.
type Overview struct {
	Domain          string `json:"domain"`
	KeyEntities     string `json:"key_entities"`
	BusinessContext string `json:"business_context"`
	// Scale is the expected users and total requests per second, as the team states them.
	Scale string `json:"scale"`
	Notes string `json:"notes"`
}

// Entity is a thing of the domain (User, Order) with its typed attributes.
type Entity struct {
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	Attributes  []Attribute `json:"attributes"`
	// Count is how many there will be, as the requirement states it; nil is not stated yet.
	// CountFrom says where it came from: FromTeam, or the line of a document it was read from.
	Count     *int64 `json:"count,omitempty"`
	CountFrom string `json:"count_from,omitempty"`
	// Growth is how many new items each GrowthUnit (Day, Week, Month, Year) brings; Retention how
	// long each item is kept, in RetentionUnit. Each says where it came from as CountFrom does.
	Growth        *float64 `json:"growth,omitempty"`
	GrowthUnit    string   `json:"growth_unit,omitempty"`
	GrowthFrom    string   `json:"growth_from,omitempty"`
	Retention     *float64 `json:"retention,omitempty"`
	RetentionUnit string   `json:"retention_unit,omitempty"`
	RetentionFrom string   `json:"retention_from,omitempty"`
	// InState counts those of the items that are in a state at any time ("about 10,000
	// appointments are open"): the entries of a sparse index that holds only them.
	InState []StateCount `json:"in_state,omitempty"`
	// AcceptedGaps records gaps the team chose to keep: GapNoWrite (read but never written) or
	// GapNoRead (written but never read).
	AcceptedGaps []string `json:"accepted_gaps,omitempty"`
}

// StateCount is how many of an entity's items are in a state at any time, with where it came
// from as Entity.CountFrom says.
type StateCount struct {
	State string `json:"state"`
	Count int64  `json:"count"`
	From  string `json:"from,omitempty"`
}

// Gaps an entity may be marked as accepting.
const (
	GapNoWrite = "no_write"
	GapNoRead  = "no_read"
)

// Attribute is a named, typed attribute of an entity or a table.
type Attribute struct {
	Name        string `json:"name"`
	Type        Type   `json:"type"`
	Description string `json:"description,omitempty"`
	// Generator says how GenerateSampleItems fills a table attribute; nil leaves it to the defaults.
	Generator *Generator `json:"generator,omitempty"`
}

// Relationship kinds.
const (
	OneToOne   = "1:1"
	OneToMany  = "1:M"
	ManyToMany = "M:M"
)

// Relationship links two entities, with the counts the seed's "deep dive" asks for.
//
// The ID of a relationship, pattern, aggregate analysis or consolidation review identifies the row
// while its other fields are edited; Normalize assigns one where it is missing.
type Relationship struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	// Avg is the average number of To per From, which may be a fraction (1.6); Max the most there
	// can be. Each may be counted in a unit the team names ("per year"), kept as typed.
	Avg     *float64 `json:"avg_count,omitempty"`
	AvgUnit string   `json:"avg_unit,omitempty"`
	Max     *int64   `json:"max_count,omitempty"`
	MaxUnit string   `json:"max_unit,omitempty"`
	Notes   string   `json:"notes,omitempty"`
}

// Counts is the relationship's counts as a diagram labels its line: "avg 1.6, max 12", each with
// the unit the team counted it in ("avg 4 per year"); "" when neither is given.
func (r Relationship) Counts() string {
	var parts []string
	if r.Avg != nil {
		parts = append(parts, strings.TrimSpace("avg "+strconv.FormatFloat(*r.Avg, 'f', -1, 64)+" "+r.AvgUnit))
	}
	if r.Max != nil {
		parts = append(parts, strings.TrimSpace("max "+strconv.FormatInt(*r.Max, 10)+" "+r.MaxUnit))
	}
	return strings.Join(parts, ", ")
}

// Pattern types.
const (
	Read  = "read"
	Write = "write"
)

// Pattern statuses, shown as ✅ ⏳ ❌ ⚠️.
const (
	StatusSolved  = "solved"
	StatusOpen    = "open"
	StatusOutside = "outside"
	StatusAtRisk  = "at_risk"
)

// Consistency levels.
const (
	Strong   = "strong"
	Eventual = "eventual"
)

// Pattern is one access pattern: what the application asks of the data, how often, and how it is
// served.
type Pattern struct {
	ID          string   `json:"id"`
	Number      int      `json:"number"`
	Description string   `json:"description"`
	Type        string   `json:"type"`
	PeakRPS     *float64 `json:"peak_rps,omitempty"`
	AvgRPS      *float64 `json:"avg_rps,omitempty"`
	// ConditionalFailurePct is, for a write, how many attempts fail their condition per 100 that
	// succeed (the RPS counts those that succeed): DynamoDB bills each failed one as a write.
	ConditionalFailurePct *float64 `json:"conditional_failure_pct,omitempty"`
	Attributes            []string `json:"attributes,omitempty"`
	LatencySLO            string   `json:"latency_slo,omitempty"`
	Consistency           string   `json:"consistency,omitempty"`
	ResultBound           string   `json:"result_bound,omitempty"`
	SizeBand              string   `json:"item_size_band,omitempty"`
	// KeyNotes keeps key requirements that are none of the fields above.
	KeyNotes       string   `json:"key_notes,omitempty"`
	Considerations string   `json:"considerations,omitempty"`
	Status         string   `json:"status"`
	Entities       []string `json:"entities,omitempty"`
	Mapping        Mapping  `json:"mapping"`
}

// Mapping is how a pattern is served: the operations it runs and the notes that go with them.
type Mapping struct {
	Operations []Operation `json:"operations,omitempty"`
	Notes      string      `json:"notes,omitempty"`
	// Source is the operation text as an imported document wrote it, kept verbatim.
	Source string `json:"source,omitempty"`
}

// Operation is one DynamoDB call made by a pattern.
type Operation struct {
	Op           string `json:"op"`
	Table        string `json:"table"`
	Index        string `json:"index,omitempty"`
	KeyCondition string `json:"key_condition,omitempty"`
	Filter       string `json:"filter,omitempty"`
	Projection   string `json:"projection,omitempty"`
	// Condition is a write's ConditionExpression; Update an UpdateItem's UpdateExpression (SET,
	// REMOVE, ADD, DELETE). Both read their placeholders from Names and Values, as the key
	// condition does.
	Condition  string            `json:"condition,omitempty"`
	Update     string            `json:"update,omitempty"`
	Limit      *int              `json:"limit,omitempty"`
	Descending bool              `json:"descending,omitempty"`
	Consistent bool              `json:"consistent_read,omitempty"`
	Names      map[string]string `json:"names,omitempty"`
	Values     map[string]Value  `json:"values,omitempty"`
	// Action says what a BatchWriteItem or TransactWriteItems row does to its keys (one of
	// OperationActions); empty leaves it to the values, as package dynamo's write.go describes: a put when the
	// row gives attributes, a delete when it gives none. Other operations leave it empty.
	Action string `json:"action,omitempty"`
	Notes  string `json:"notes,omitempty"`
	// Expected lists the keys of the items the operation must return; nil means not stated yet,
	// an empty list means "returns nothing".
	Expected *[]Item `json:"expected,omitempty"`
}

// Operation names DynamoDB accepts.
var Operations = []string{
	"GetItem", "Query", "Scan", "PutItem", "UpdateItem", "DeleteItem",
	"BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems",
}

// IsWriteOp reports whether op is one of DynamoDB's write operations.
func IsWriteOp(op string) bool {
	switch op {
	case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems":
		return true
	}
	return false
}

// What a BatchWriteItem or TransactWriteItems row does (Operation.Action).
const (
	ActionPut            = "put"
	ActionUpdate         = "update"
	ActionDelete         = "delete"
	ActionConditionCheck = "condition_check"
)

// OperationActions lists the actions a row of operation op may name: put and delete for a
// BatchWriteItem, which has no other requests; put, update, delete and condition_check for a
// TransactWriteItems; none for any other operation.
func OperationActions(op string) []string {
	switch op {
	case "BatchWriteItem":
		return []string{ActionPut, ActionDelete}
	case "TransactWriteItems":
		return []string{ActionPut, ActionUpdate, ActionDelete, ActionConditionCheck}
	}
	return nil
}

// Aggregate decisions.
const (
	SingleItem     = "single_item"
	ItemCollection = "item_collection"
	SeparateTables = "separate_tables"
)

// AggregateAnalysis is the seed's "Item Collection Analysis" for one pair of entities.
type AggregateAnalysis struct {
	ID             string           `json:"id"`
	EntityA        string           `json:"entity_a"`
	EntityB        string           `json:"entity_b"`
	CorrelationPct *float64         `json:"correlation_pct,omitempty"`
	OnlyAPct       *float64         `json:"only_a_pct,omitempty"`
	OnlyBPct       *float64         `json:"only_b_pct,omitempty"`
	BothPct        *float64         `json:"both_pct,omitempty"`
	Size           string           `json:"size_constraints,omitempty"`
	CombinedKB     *float64         `json:"combined_kb,omitempty"`
	Bounded        *bool            `json:"bounded,omitempty"`
	Updates        string           `json:"update_patterns,omitempty"`
	Identifying    IdentifyingCheck `json:"identifying"`
	Decision       string           `json:"decision,omitempty"`
	Justification  string           `json:"justification,omitempty"`
}

// IdentifyingCheck is the seed's identifying-relationship check; nil means not answered.
type IdentifyingCheck struct {
	ChildIndependent     *bool `json:"child_independent,omitempty"`
	ParentIDKnown        *bool `json:"parent_id_known,omitempty"`
	SeparateTablePlanned *bool `json:"separate_table_planned,omitempty"`
}

// Consolidation decisions.
const (
	Consolidate = "consolidate"
	Separate    = "separate"
)

// ConsolidationReview is one row of the "Consolidation Candidates Review" table.
type ConsolidationReview struct {
	ID            string   `json:"id"`
	Parent        string   `json:"parent"`
	Child         string   `json:"child"`
	Relationship  string   `json:"relationship,omitempty"`
	OverlapPct    *float64 `json:"overlap_pct,omitempty"`
	Bounded       *bool    `json:"bounded,omitempty"`
	Identifying   *bool    `json:"identifying,omitempty"`
	Decision      string   `json:"decision,omitempty"`
	Justification string   `json:"justification,omitempty"`
}

// Considerations is the design-considerations scratchpad, one text per heading of the template.
type Considerations struct {
	HotPartitions      string `json:"hot_partitions,omitempty"`
	GSIProjections     string `json:"gsi_projections,omitempty"`
	SparseGSIs         string `json:"sparse_gsis,omitempty"`
	ItemCollections    string `json:"item_collections,omitempty"`
	MultiEntityQueries string `json:"multi_entity_queries,omitempty"`
	Denormalization    string `json:"denormalization,omitempty"`
}

// Billing modes.
const (
	OnDemand    = "PAY_PER_REQUEST"
	Provisioned = "PROVISIONED"
)

// Table classes, as DynamoDB spells them.
const (
	StandardClass   = "STANDARD"
	StandardIAClass = "STANDARD_INFREQUENT_ACCESS"
)

// KeyAttribute is an attribute used in a key; its type is S, N or B.
type KeyAttribute struct {
	Name string `json:"name"`
	Type Type   `json:"type"`
}

// Table is one DynamoDB table with its indexes and sample items.
type Table struct {
	Name              string        `json:"name"`
	PartitionKey      KeyAttribute  `json:"partition_key"`
	SortKey           *KeyAttribute `json:"sort_key,omitempty"`
	Purpose           string        `json:"purpose,omitempty"`
	AggregateBoundary string        `json:"aggregate_boundary,omitempty"`
	PartitionKeyWhy   string        `json:"partition_key_justification,omitempty"`
	SortKeyWhy        string        `json:"sort_key_justification,omitempty"`
	// EntityTypes is the SK taxonomy: which entity types live in the table and how their keys are
	// built.
	EntityTypes  []EntityType `json:"entity_types,omitempty"`
	Attributes   []Attribute  `json:"attributes,omitempty"`
	BoundedReads string       `json:"bounded_read_strategy,omitempty"`
	Capacity     string       `json:"capacity_notes,omitempty"`
	TTLAttribute string       `json:"ttl_attribute,omitempty"`
	BillingMode  string       `json:"billing_mode"`
	// TableClass is StandardClass (the default when empty) or StandardIAClass; it applies to the
	// table and all its indexes.
	TableClass string       `json:"table_class,omitempty"`
	ReadUnits  *int64       `json:"read_capacity_units,omitempty"`
	WriteUnits *int64       `json:"write_capacity_units,omitempty"`
	GSIs       []Index      `json:"gsis,omitempty"`
	LSIs       []Index      `json:"lsis,omitempty"`
	Items      []SampleItem `json:"items,omitempty"`
}

// EntityType is one line of a table's SK taxonomy: an entity stored in the table and the templates
// its key values follow, such as USER#{user_id}.
type EntityType struct {
	Entity      string `json:"entity"`
	PKTemplate  string `json:"pk_template,omitempty"`
	SKTemplate  string `json:"sk_template,omitempty"`
	Description string `json:"description,omitempty"`
}

// Projection types.
const (
	KeysOnly = "KEYS_ONLY"
	Include  = "INCLUDE"
	All      = "ALL"
)

// Projection says which attributes an index copies from the table.
type Projection struct {
	Type       string   `json:"type"`
	Attributes []string `json:"attributes,omitempty"`
}

// Index is a global or local secondary index. A GSI key has 1–4 partition and 0–4 sort attributes;
// an LSI uses the table's partition key and has exactly one sort attribute.
type Index struct {
	Name            string         `json:"name"`
	PartitionKey    []KeyAttribute `json:"partition_key,omitempty"`
	SortKey         []KeyAttribute `json:"sort_key,omitempty"`
	Projection      Projection     `json:"projection"`
	Sparse          bool           `json:"sparse,omitempty"`
	SparseNote      string         `json:"sparse_note,omitempty"`
	Purpose         string         `json:"purpose,omitempty"`
	PartitionKeyWhy string         `json:"partition_key_justification,omitempty"`
	SortKeyWhy      string         `json:"sort_key_justification,omitempty"`
	ProjectionWhy   string         `json:"projection_justification,omitempty"`
	// PatternAttributes lists, per pattern number, the attributes that pattern needs from the index.
	PatternAttributes []PatternAttributes `json:"pattern_attributes,omitempty"`
	Capacity          string              `json:"capacity_notes,omitempty"`
}

// PatternAttributes is the set of attributes one pattern reads through an index.
type PatternAttributes struct {
	Pattern    int      `json:"pattern"`
	Attributes []string `json:"attributes"`
}

// SampleItem is one item of a table. ID identifies the row across edits of its keys.
type SampleItem struct {
	ID   string `json:"id"`
	Item Item   `json:"item"`
}

// Prose holds the data model's narrative sections and any text an import could not place.
type Prose struct {
	DesignPhilosophy   string    `json:"design_philosophy,omitempty"`
	AggregateDecisions string    `json:"aggregate_decisions,omitempty"`
	HotPartitions      string    `json:"hot_partition_analysis,omitempty"`
	TradeOffs          string    `json:"trade_offs,omitempty"`
	Sections           []Section `json:"sections,omitempty"`
	// CostReport is the AWS DynamoDB MCP server's cost calculator block of the data model, from its
	// "## Cost Report" heading to its "<!-- end-cost-report -->" marker, kept as written: the
	// calculator replaces it in place on its next run.
	CostReport string `json:"cost_report,omitempty"`
}

// Section is a titled block of markdown kept as written. Document says which of the two markdown
// documents it belongs to: RequirementDocument for a section of dynamodb_requirement.md, empty for
// one of dynamodb_data_model.md; each document is written with its own sections only.
type Section struct {
	Title    string `json:"title"`
	Body     string `json:"body"`
	Document string `json:"document,omitempty"`
}

// RequirementDocument is Section.Document of a section kept in dynamodb_requirement.md.
const RequirementDocument = "requirements"

// Comment is a remark on one element of the design, addressed by its path.
type Comment struct {
	ID       string `json:"id"`
	Target   string `json:"target"`
	ParentID string `json:"parent_id,omitempty"`
	Author   string `json:"author"`
	At       string `json:"at"`
	Body     string `json:"body"`
	Resolved bool   `json:"resolved,omitempty"`
}

// EntityByName returns the entity with the given name (names are case-sensitive) and its index.
func (d Design) EntityByName(name string) (Entity, int, bool) {
	return Lookup(d.Entities, name, nameOfEntity)
}

// AttributeByName returns the attribute of e with the given name and its index.
func (e Entity) AttributeByName(name string) (Attribute, int, bool) {
	return Lookup(e.Attributes, name, nameOfAttribute)
}

// TableByName returns the table with the given name (names are case-sensitive) and its index.
func (d Design) TableByName(name string) (Table, int, bool) {
	return Lookup(d.Tables, name, nameOfTable)
}

// AttributeByName returns the declared attribute of t with the given name and its index.
func (t Table) AttributeByName(name string) (Attribute, int, bool) {
	return Lookup(t.Attributes, name, nameOfAttribute)
}

// IndexByName returns the GSI or LSI of t with the given name, whether it is local, and its
// position in its list. GSIs and LSIs share one namespace.
func (t Table) IndexByName(name string) (ix Index, local bool, i int, ok bool) {
	if ix, i, ok := Lookup(t.GSIs, name, nameOfIndex); ok {
		return ix, false, i, true
	}
	ix, i, ok = Lookup(t.LSIs, name, nameOfIndex)
	return ix, ok, i, ok
}

// ItemByID returns the sample item of t with the given id and its index.
func (t Table) ItemByID(id string) (SampleItem, int, bool) {
	return byID(t.Items, id, func(it *SampleItem) string { return it.ID })
}

// RelationshipByID returns the relationship with the given id and its index.
func (d Design) RelationshipByID(id string) (Relationship, int, bool) {
	return byID(d.Relationships, id, func(r *Relationship) string { return r.ID })
}

// PatternByID returns the access pattern with the given id and its index.
func (d Design) PatternByID(id string) (Pattern, int, bool) {
	return byID(d.Patterns, id, func(p *Pattern) string { return p.ID })
}

// PatternByNumber returns the first access pattern with the given number and its index.
func (d Design) PatternByNumber(n int) (Pattern, int, bool) {
	return Lookup(d.Patterns, n, numberOfPattern)
}

// AggregateByID returns the aggregate analysis with the given id and its index.
func (d Design) AggregateByID(id string) (AggregateAnalysis, int, bool) {
	return byID(d.Aggregates, id, func(a *AggregateAnalysis) string { return a.ID })
}

// ConsolidationByID returns the consolidation review with the given id and its index.
func (d Design) ConsolidationByID(id string) (ConsolidationReview, int, bool) {
	return byID(d.Consolidations, id, func(c *ConsolidationReview) string { return c.ID })
}

// byID is Lookup by id, where an empty id names nothing.
func byID[T any](rows []T, id string, idOf func(*T) string) (T, int, bool) {
	if id == "" {
		var zero T
		return zero, -1, false
	}
	return Lookup(rows, id, idOf)
}
