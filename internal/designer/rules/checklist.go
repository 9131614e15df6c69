package rules

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// ChecklistItem is one line of a seed checklist, ticked by the tool. Path, on a line not ticked,
// names the field that would tick it, as a finding's path does: the field at fault of the first
// finding that unticks it, else the first thing the line asks for that is not there yet.
type ChecklistItem struct {
	Item string `json:"item"`
	OK   bool   `json:"ok"`
	Path string `json:"path,omitempty"`
}

// Checklists are the seed's two checklists: the requirement document's "Validation Checklist" and
// the data model's "Validation Results".
type Checklists struct {
	Requirements []ChecklistItem `json:"requirements"`
	DataModel    []ChecklistItem `json:"data_model"`
}

// Checklist returns the seed's checklists of d: BuildChecklists of d and Validate(d). The
// Validation step, the API and both markdown exports show it, so they agree line by line.
func Checklist(d designer.Design) Checklists { return BuildChecklists(d, Validate(d)) }

// BuildChecklists ticks the seed's checklist lines from the findings of Validate(d) and the design.
//
// A line is ticked when no error or warning of the codes behind it was found and the content it
// speaks about exists: a rule that finds nothing in an empty list has checked nothing, so the
// content condition keeps an empty design from ticking every line. Advice (info) never unticks a
// line: a justified deviation from the thresholds is what the seed asks for.
//
// Each line is worked out as the path of what it still needs, in the order a person would fill
// it in; a line needing nothing is ticked.
func BuildChecklists(d designer.Design, findings []Finding) Checklists {
	// blocked is the path of the first error or warning of each code.
	blocked := map[string]string{}
	for _, f := range findings {
		if _, seen := blocked[f.Code]; !seen && f.Severity != SeverityInfo {
			blocked[f.Code] = f.Path
		}
	}
	// firstOf returns the first path given that is not empty: what the line needs first.
	firstOf := func(needs ...func() string) string {
		for _, need := range needs {
			if p := need(); p != "" {
				return p
			}
		}
		return ""
	}
	// findingOf needs no finding of the codes; a finding without a path points at the list of
	// findings.
	findingOf := func(codes ...string) func() string {
		return func() string {
			for _, c := range codes {
				if p, ok := blocked[c]; ok {
					return cmp.Or(p, "findings")
				}
			}
			return ""
		}
	}
	given := func(text, path string) func() string {
		return func() string {
			if textGiven(text) {
				return ""
			}
			return path
		}
	}
	some := func(n int, path string) func() string {
		return func() string {
			if n > 0 {
				return ""
			}
			return path
		}
	}
	line := func(item, path string) ChecklistItem { return ChecklistItem{Item: item, OK: path == "", Path: path} }
	patterns := some(len(d.Patterns), "access_patterns")
	tables := some(len(d.Tables), "tables")
	aggregates := some(len(d.Aggregates), "aggregates")
	consolidations := some(len(d.Consolidations), "consolidations")

	return Checklists{
		Requirements: []ChecklistItem{
			// Prose only: the overview's domain and scale are written.
			line("Application domain and scale documented",
				firstOf(given(d.Overview.Domain, "overview/domain"), given(d.Overview.Scale, "overview/scale"))),
			// Entities exist, and relationships too once there are two entities to relate.
			line("All entities and relationships mapped", firstOf(some(len(d.Entities), "entities"), func() string {
				if len(d.Entities) == 1 || len(d.Relationships) > 0 {
					return ""
				}
				return "relationships"
			})),
			// REQ006; every aggregate analysis has a decision.
			line("Aggregate boundaries identified based on access patterns",
				firstOf(findingOf("REQ006"), aggregates, firstRow(d.Aggregates, func(a designer.AggregateAnalysis) string {
					return given(a.Decision, "aggregates/"+a.ID+"/decision")()
				}))),
			// REQ007; every aggregate's identifying check is answered in full.
			line("Identifying relationships checked for consolidation opportunities",
				firstOf(findingOf("REQ007"), aggregates, firstRow(d.Aggregates, identifyingUnanswered))),
			// Every consolidation candidate has a decision.
			line("Table consolidation analysis completed",
				firstOf(consolidations, firstRow(d.Consolidations, func(c designer.ConsolidationReview) string {
					return given(c.Decision, "consolidations/"+c.ID+"/decision")()
				}))),
			// REQ001, REQ004.
			line("Every access pattern has: RPS (avg/peak), latency SLO, consistency, expected result bound, item size band",
				firstOf(findingOf("REQ001", "REQ004"), patterns)),
			// REQ003; every pattern has a type, since an untyped one is neither read nor write.
			line("Write pattern exists for every read pattern (and vice versa) unless USER explicitly declines",
				firstOf(findingOf("REQ003"), patterns, firstRow(d.Patterns, func(p designer.Pattern) string {
					return given(p.Type, patternPath(p, "type"))()
				}))),
			// Prose only: the scratchpad's hot partition concerns are written.
			line("Hot partition risks evaluated", given(d.Considerations.HotPartitions, "considerations/hot_partitions")()),
			// REQ008; every candidate has the overlap the rules need and a decision.
			line("Consolidation framework applied; candidates reviewed",
				firstOf(findingOf("REQ008"), consolidations, firstRow(d.Consolidations, func(c designer.ConsolidationReview) string {
					if c.OverlapPct == nil {
						return "consolidations/" + c.ID + "/overlap_pct"
					}
					return given(c.Decision, "consolidations/"+c.ID+"/decision")()
				}))),
			// Prose only: at least one scratchpad heading is written.
			line("Design considerations captured (subject to final validation)", func() string {
				if considerationsWritten(d.Considerations) {
					return ""
				}
				return "considerations/hot_partitions"
			}()),
		},
		DataModel: []ChecklistItem{
			// Prose only: the design philosophy is written.
			line("Reasoned step-by-step through design decisions, applying Important DynamoDB Context, Core Design Philosophy, and optimizing using Design Patterns",
				given(d.Prose.DesignPhilosophy, "prose/design_philosophy")()),
			// REQ006; the aggregate decisions are written and every table states its boundary.
			line("Aggregate boundaries clearly defined based on access pattern analysis",
				firstOf(findingOf("REQ006"), given(d.Prose.AggregateDecisions, "prose/aggregate_decisions"), tables,
					firstRow(d.Tables, func(t designer.Table) string {
						return given(t.AggregateBoundary, tableFieldPath(t, "aggregate_boundary"))()
					}))),
			// MAP001, MAP002, MAP003, MAP012; every pattern is solved with an operation, or served
			// outside DynamoDB.
			line("Every access pattern solved or alternative provided",
				firstOf(findingOf("MAP001", "MAP002", "MAP003", "MAP012"), patterns, firstRow(d.Patterns, unsolved))),
			// MOD016 (an index no pattern reads through), REQ007; a design without tables has no
			// indexes to judge.
			line("Unnecessary GSIs are removed and solved with an identifying relationship",
				firstOf(findingOf("MOD016", "REQ007"), tables)),
			// Every table and index has its purpose and key (and projection) justifications.
			line("All tables and GSIs documented with full justification", firstOf(tables, firstRow(d.Tables, tableUnjustified))),
			// CAP001, CAP002; the hot partition analysis is written.
			line("Hot partition analysis completed",
				firstOf(findingOf("CAP001", "CAP002"), given(d.Prose.HotPartitions, "prose/hot_partition_analysis"))),
			// Every table has its capacity planning written.
			line("Cost estimates provided for high-volume operations",
				firstOf(tables, firstRow(d.Tables, func(t designer.Table) string { return given(t.Capacity, tableFieldPath(t, "capacity_notes"))() }))),
			// Prose only: the trade-offs are written.
			line("Trade-offs explicitly documented and justified", given(d.Prose.TradeOffs, "prose/trade_offs")()),
			// Every pattern served outside DynamoDB says how, in its mapping notes or considerations.
			line("Integration patterns detailed for non-DynamoDB functionality",
				firstOf(patterns, firstRow(d.Patterns, func(p designer.Pattern) string {
					if p.Status != designer.StatusOutside || textGiven(p.Mapping.Notes) || textGiven(p.Considerations) {
						return ""
					}
					return patternPath(p, "mapping/notes")
				}))),
			// MAP004; some pattern is mapped, and no mapped operation is a Scan.
			line("No Scans used to solve access patterns",
				firstOf(findingOf("MAP004"), patterns, func() string {
					if anyOperation(d) {
						return ""
					}
					return patternPath(d.Patterns[0], "mapping")
				}, firstRow(d.Patterns, func(p designer.Pattern) string {
					if i := slices.IndexFunc(p.Mapping.Operations, func(op designer.Operation) bool { return op.Op == "Scan" }); i >= 0 {
						return patternPath(p, "mapping/operations/"+strconv.Itoa(i))
					}
					return ""
				}))),
			// MAP012; the model refers to the requirements: every operation names a table of the
			// design, and every entity a pattern or the SK taxonomy names is a declared entity.
			line("Cross-referenced against `dynamodb_requirement.md` for accuracy",
				firstOf(findingOf("MAP012"), patterns, tables, func() string { return notCrossReferenced(d) })),
		},
	}
}

// firstRow returns what the first row needing something needs.
func firstRow[T any](rows []T, need func(T) string) func() string {
	return func() string {
		for _, r := range rows {
			if p := need(r); p != "" {
				return p
			}
		}
		return ""
	}
}

func patternPath(p designer.Pattern, field string) string { return patternFieldPath(p, field) }

func tableFieldPath(t designer.Table, field string) string { return tablePath(t) + "/" + field }

func textGiven(s string) bool { return strings.TrimSpace(s) != "" }

func identifyingUnanswered(a designer.AggregateAnalysis) string {
	c, at := a.Identifying, "aggregates/"+a.ID+"/"
	switch {
	case c.ChildIndependent == nil:
		return at + "child_independent"
	case c.ParentIDKnown == nil:
		return at + "parent_id_known"
	case c.SeparateTablePlanned == nil:
		return at + "separate_table_planned"
	}
	return ""
}

func considerationsWritten(c designer.Considerations) bool {
	return textGiven(c.HotPartitions) || textGiven(c.GSIProjections) || textGiven(c.SparseGSIs) ||
		textGiven(c.ItemCollections) || textGiven(c.MultiEntityQueries) || textGiven(c.Denormalization)
}

// unsolved is where pattern p is still to be solved: its mapping without an operation, its status
// when it has one; nothing when it is solved or served outside DynamoDB.
func unsolved(p designer.Pattern) string {
	switch {
	case p.Status == designer.StatusOutside || (p.Status == designer.StatusSolved && len(p.Mapping.Operations) > 0):
		return ""
	case len(p.Mapping.Operations) == 0:
		return patternPath(p, "mapping")
	}
	return patternPath(p, "status")
}

func anyOperation(d designer.Design) bool {
	return slices.ContainsFunc(d.Patterns, func(p designer.Pattern) bool { return len(p.Mapping.Operations) > 0 })
}

// tableUnjustified is the first justification of table t or one of its GSIs still to be written.
func tableUnjustified(t designer.Table) string {
	need := []struct{ text, field string }{{t.Purpose, "purpose"}, {t.PartitionKeyWhy, "partition_key_justification"}}
	if t.SortKey != nil {
		need = append(need, struct{ text, field string }{t.SortKeyWhy, "sort_key_justification"})
	}
	for _, n := range need {
		if !textGiven(n.text) {
			return tableFieldPath(t, n.field)
		}
	}
	for i := range t.GSIs {
		ix := &t.GSIs[i]
		need := []struct{ text, field string }{{ix.Purpose, "purpose"}, {ix.PartitionKeyWhy, "partition_key_justification"}}
		if len(ix.SortKey) > 0 {
			need = append(need, struct{ text, field string }{ix.SortKeyWhy, "sort_key_justification"})
		}
		need = append(need, struct{ text, field string }{ix.ProjectionWhy, "projection_justification"})
		for _, n := range need {
			if !textGiven(n.text) {
				return indexPath(t, ix) + "/" + n.field
			}
		}
	}
	return ""
}

// notCrossReferenced is the first name the model uses that the requirements do not declare: an
// SK-taxonomy entity, a pattern's entity or an operation's table.
func notCrossReferenced(d designer.Design) string {
	entities := make(map[string]bool, len(d.Entities))
	for _, e := range d.Entities {
		entities[e.Name] = true
	}
	tables := make(map[string]bool, len(d.Tables))
	for _, t := range d.Tables {
		tables[t.Name] = true
	}
	for _, t := range d.Tables {
		for i, et := range t.EntityTypes {
			if !entities[et.Entity] {
				return tableFieldPath(t, "entity_types/"+strconv.Itoa(i)+"/entity")
			}
		}
	}
	for _, p := range d.Patterns {
		if !slices.ContainsFunc(p.Entities, func(e string) bool { return !entities[e] }) {
			if i := slices.IndexFunc(p.Mapping.Operations, func(op designer.Operation) bool { return !tables[op.Table] }); i >= 0 {
				return patternPath(p, "mapping/operations/"+strconv.Itoa(i)+"/table")
			}
			continue
		}
		return patternPath(p, "entities")
	}
	return ""
}
