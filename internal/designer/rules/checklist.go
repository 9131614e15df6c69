package rules

import (
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// ChecklistItem is one line of a seed checklist, ticked by the tool.
type ChecklistItem struct {
	Item string `json:"item"`
	OK   bool   `json:"ok"`
}

// Checklists are the seed's two checklists: the requirement document's "Validation Checklist" and
// the data model's "Validation Results".
type Checklists struct {
	Requirements []ChecklistItem `json:"requirements"`
	DataModel    []ChecklistItem `json:"data_model"`
}

// BuildChecklists ticks the seed's checklist lines from the findings of Validate(d) and the design.
//
// A line is ticked when no error or warning of the codes behind it was found (RULES.md "The seed
// checklists") and the content it speaks about exists: a rule that finds nothing in an empty list
// has checked nothing, so the content condition keeps an empty design from ticking every line.
// Advice (info) never unticks a line: a justified deviation from the thresholds is what the seed
// asks for. Codes that no rule reports yet (CAP) are listed so the lines tighten when those rules
// arrive; until then the content condition does the checking.
func BuildChecklists(d designer.Design, findings []Finding) Checklists {
	blocked := map[string]bool{}
	for _, f := range findings {
		if f.Severity != SeverityInfo {
			blocked[f.Code] = true
		}
	}
	noneOf := func(codes ...string) bool {
		return !slices.ContainsFunc(codes, func(c string) bool { return blocked[c] })
	}
	tick := func(item string, ok bool) ChecklistItem { return ChecklistItem{Item: item, OK: ok} }
	patterns := len(d.Patterns) > 0
	tables := len(d.Tables) > 0

	return Checklists{
		Requirements: []ChecklistItem{
			// Prose only: the overview's domain and scale are written.
			tick("Application domain and scale documented",
				textGiven(d.Overview.Domain) && textGiven(d.Overview.Scale)),
			// Entities exist, and relationships too once there are two entities to relate.
			tick("All entities and relationships mapped",
				len(d.Entities) > 0 && (len(d.Entities) == 1 || len(d.Relationships) > 0)),
			// REQ006; every aggregate analysis has a decision.
			tick("Aggregate boundaries identified based on access patterns",
				noneOf("REQ006") && len(d.Aggregates) > 0 && everyRow(d.Aggregates, func(a designer.AggregateAnalysis) bool { return a.Decision != "" })),
			// REQ007; every aggregate's identifying check is answered in full.
			tick("Identifying relationships checked for consolidation opportunities",
				noneOf("REQ007") && len(d.Aggregates) > 0 && everyRow(d.Aggregates, identifyingAnswered)),
			// Every consolidation candidate has a decision.
			tick("Table consolidation analysis completed",
				len(d.Consolidations) > 0 && everyRow(d.Consolidations, func(c designer.ConsolidationReview) bool { return c.Decision != "" })),
			// REQ001, REQ004.
			tick("Every access pattern has: RPS (avg/peak), latency SLO, consistency, expected result bound, item size band",
				noneOf("REQ001", "REQ004") && patterns),
			// REQ003; every pattern has a type, since an untyped one is neither read nor write.
			tick("Write pattern exists for every read pattern (and vice versa) unless USER explicitly declines",
				noneOf("REQ003") && patterns && everyRow(d.Patterns, func(p designer.Pattern) bool { return p.Type != "" })),
			// Prose only: the scratchpad's hot partition concerns are written.
			tick("Hot partition risks evaluated", textGiven(d.Considerations.HotPartitions)),
			// REQ008; every candidate has the overlap the rules need and a decision.
			tick("Consolidation framework applied; candidates reviewed",
				noneOf("REQ008") && len(d.Consolidations) > 0 && everyRow(d.Consolidations, func(c designer.ConsolidationReview) bool {
					return c.OverlapPct != nil && c.Decision != ""
				})),
			// Prose only: at least one scratchpad heading is written.
			tick("Design considerations captured (subject to final validation)", considerationsWritten(d.Considerations)),
		},
		DataModel: []ChecklistItem{
			// Prose only: the design philosophy is written.
			tick("Reasoned step-by-step through design decisions, applying Important DynamoDB Context, Core Design Philosophy, and optimizing using Design Patterns",
				textGiven(d.Prose.DesignPhilosophy)),
			// REQ006; the aggregate decisions are written and every table states its boundary.
			tick("Aggregate boundaries clearly defined based on access pattern analysis",
				noneOf("REQ006") && textGiven(d.Prose.AggregateDecisions) && tables && everyRow(d.Tables, func(t designer.Table) bool { return textGiven(t.AggregateBoundary) })),
			// MAP001, MAP002, MAP003, MAP012; every pattern is solved with an operation, or served
			// outside DynamoDB.
			tick("Every access pattern solved or alternative provided",
				noneOf("MAP001", "MAP002", "MAP003", "MAP012") && patterns && everyRow(d.Patterns, solvedOrOutside)),
			// MOD016 (an index no pattern reads through), REQ007; a design without tables has no
			// indexes to judge.
			tick("Unnecessary GSIs are removed and solved with an identifying relationship",
				noneOf("MOD016", "REQ007") && tables),
			// Every table and index has its purpose and key (and projection) justifications.
			tick("All tables and GSIs documented with full justification", tables && everyRow(d.Tables, tableJustified)),
			// CAP001, CAP002; the hot partition analysis is written.
			tick("Hot partition analysis completed",
				noneOf("CAP001", "CAP002") && textGiven(d.Prose.HotPartitions)),
			// Every table has its capacity planning written.
			tick("Cost estimates provided for high-volume operations",
				tables && everyRow(d.Tables, func(t designer.Table) bool { return textGiven(t.Capacity) })),
			// Prose only: the trade-offs are written.
			tick("Trade-offs explicitly documented and justified", textGiven(d.Prose.TradeOffs)),
			// Every pattern served outside DynamoDB says how, in its mapping notes or considerations.
			tick("Integration patterns detailed for non-DynamoDB functionality",
				patterns && everyRow(d.Patterns, func(p designer.Pattern) bool {
					return p.Status != designer.StatusOutside || textGiven(p.Mapping.Notes) || textGiven(p.Considerations)
				})),
			// MAP004; some pattern is mapped, and no mapped operation is a Scan.
			tick("No Scans used to solve access patterns",
				noneOf("MAP004") && anyOperation(d) && everyRow(d.Patterns, func(p designer.Pattern) bool {
					return !slices.ContainsFunc(p.Mapping.Operations, func(op designer.Operation) bool { return op.Op == "Scan" })
				})),
			// MAP012; the model refers to the requirements: every operation names a table of the
			// design, and every entity a pattern or the SK taxonomy names is a declared entity.
			tick("Cross-referenced against `dynamodb_requirement.md` for accuracy",
				noneOf("MAP012") && patterns && tables && crossReferenced(d)),
		},
	}
}

func textGiven(s string) bool { return strings.TrimSpace(s) != "" }

func everyRow[T any](rows []T, ok func(T) bool) bool {
	return !slices.ContainsFunc(rows, func(r T) bool { return !ok(r) })
}

func identifyingAnswered(a designer.AggregateAnalysis) bool {
	c := a.Identifying
	return c.ChildIndependent != nil && c.ParentIDKnown != nil && c.SeparateTablePlanned != nil
}

func considerationsWritten(c designer.Considerations) bool {
	return textGiven(c.HotPartitions) || textGiven(c.GSIProjections) || textGiven(c.SparseGSIs) ||
		textGiven(c.ItemCollections) || textGiven(c.MultiEntityQueries) || textGiven(c.Denormalization)
}

func solvedOrOutside(p designer.Pattern) bool {
	return p.Status == designer.StatusOutside || (p.Status == designer.StatusSolved && len(p.Mapping.Operations) > 0)
}

func anyOperation(d designer.Design) bool {
	return slices.ContainsFunc(d.Patterns, func(p designer.Pattern) bool { return len(p.Mapping.Operations) > 0 })
}

func tableJustified(t designer.Table) bool {
	keysJustified := textGiven(t.Purpose) && textGiven(t.PartitionKeyWhy) && (t.SortKey == nil || textGiven(t.SortKeyWhy))
	return keysJustified && everyRow(t.GSIs, func(ix designer.Index) bool {
		return textGiven(ix.Purpose) && textGiven(ix.PartitionKeyWhy) && (len(ix.SortKey) == 0 || textGiven(ix.SortKeyWhy)) &&
			textGiven(ix.ProjectionWhy)
	})
}

func crossReferenced(d designer.Design) bool {
	entities := make(map[string]bool, len(d.Entities))
	for _, e := range d.Entities {
		entities[e.Name] = true
	}
	tables := make(map[string]bool, len(d.Tables))
	for _, t := range d.Tables {
		tables[t.Name] = true
		if !everyRow(t.EntityTypes, func(et designer.EntityType) bool { return entities[et.Entity] }) {
			return false
		}
	}
	return everyRow(d.Patterns, func(p designer.Pattern) bool {
		return everyRow(p.Entities, func(e string) bool { return entities[e] }) &&
			everyRow(p.Mapping.Operations, func(op designer.Operation) bool { return tables[op.Table] })
	})
}
