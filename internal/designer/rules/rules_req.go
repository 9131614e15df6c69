package rules

import (
	"slices"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// reqCatalogue holds the requirement rules of the catalogue, in the order they run.
var reqCatalogue = []catalogueRow{
	{"REQ001", SeverityError, onDesign(req001PatternRPS),
		"an access pattern has no peak RPS, no average RPS, or neither", readsNoItems},
	{"REQ002", SeverityError, onDesign(req002DuplicateNumbers),
		"two or more access patterns have the same number", readsNoItems},
	{"REQ003", SeverityWarning, onDesign(req003EntityCoverage),
		"patterns read an entity and none writes it, or write it and none reads it, and the team has not accepted that gap", readsNoItems},
	{"REQ005", SeverityWarning, nil, // req003EntityCoverage
		"an entity appears in no access pattern", readsNoItems},
	{"REQ004", SeverityWarning, onDesign(req004PatternKeyNeeds),
		"an access pattern is missing its latency SLO, consistency, expected result bound or item size band (one finding names every gap)", readsNoItems},
	{"REQ006", SeverityWarning + " / " + SeverityInfo, onDesign(req006AggregateDecision),
		"an aggregate is decided otherwise than the seed's thresholds suggest (over 90 % correlation, bounded and within 100 KB: single item; " +
			"50–90 %, or over 90 % but unbounded or over 100 KB: item collection; under 50 %: separate tables); " +
			"a warning while no justification is written, advice once one is", readsNoItems},
	{"REQ007", SeverityWarning, onDesign(req007Identifying),
		"an aggregate's identifying check says the child cannot exist without its parent, the parent's id is always known and a separate table is planned, " +
			"and no table holds the child yet, or one holds it apart from its parent and has a GSI", readsNoItems},
	{"REQ008", SeverityWarning, onDesign(req008Consolidation),
		"a consolidation is decided otherwise than the seed's rules suggest (under 30 % overlap or unbounded growth: keep separate; " +
			"over 50 % overlap with a bounded, identifying parent and child: consolidate) and no justification is written", readsNoItems},
	{"REQ009", SeverityInfo, onDesign(req009RelationshipCount),
		"a relationship has no average count, no maximum count, or neither", readsNoItems},
}

// The requirement rules (REQ, docs/rules.md): what the seed asks of the requirement document before
// any table is designed.

// req001PatternRPS is REQ001: the seed says every pattern MUST have RPS documented, peak and average.
func req001PatternRPS(d designer.Design, out []Finding) []Finding {
	for _, p := range d.Patterns {
		var missing, field string
		switch {
		case p.PeakRPS == nil && p.AvgRPS == nil:
			missing, field = "no peak or average RPS", designer.PatternField.PeakRPS.Key
		case p.PeakRPS == nil:
			missing, field = "no peak RPS", designer.PatternField.PeakRPS.Key
		case p.AvgRPS == nil:
			missing, field = "no average RPS", designer.PatternField.AvgRPS.Key
		default:
			continue
		}
		out = append(out, finding("REQ001", patternFieldPath(p, field),
			patternName(p)+" has "+missing+"; every pattern needs its peak and average RPS (estimate them from the business context if nobody knows)"))
	}
	return out
}

// req002DuplicateNumbers is REQ002: patterns are referenced by number throughout both documents.
func req002DuplicateNumbers(d designer.Design, out []Finding) []Finding {
	first := make(map[int]int, len(d.Patterns))
	reported := map[int]bool{}
	for i, p := range d.Patterns {
		j, seen := first[p.Number]
		if !seen {
			first[p.Number] = i
			continue
		}
		if reported[p.Number] {
			continue
		}
		reported[p.Number] = true
		var labels []string
		for _, q := range d.Patterns[j:] {
			if q.Number == p.Number {
				labels = append(labels, inQuotes(q.Description))
			}
		}
		out = append(out, finding("REQ002", patternFieldPath(p, designer.PatternField.Number.Key),
			strconv.Itoa(len(labels))+" patterns share number "+strconv.Itoa(p.Number)+" ("+designer.ListAnd(labels)+"); give each pattern its own number"))
	}
	return out
}

// entityUse is how the patterns touch one entity: the patterns that read it and write it.
type entityUse struct {
	reads, writes []*designer.Pattern
	listed        bool
}

// entityUses maps each entity name to the patterns that list it. A pattern without a type counts as
// neither a read nor a write, but it still gives the entity a pattern.
func entityUses(d designer.Design) map[string]*entityUse {
	uses := make(map[string]*entityUse, len(d.Entities))
	for _, e := range d.Entities {
		uses[e.Name] = &entityUse{}
	}
	for i := range d.Patterns {
		p := &d.Patterns[i]
		for _, name := range p.Entities {
			u := uses[name]
			if u == nil {
				continue
			}
			u.listed = true
			switch p.Type {
			case designer.Read:
				u.reads = appendOnce(u.reads, p)
			case designer.Write:
				u.writes = appendOnce(u.writes, p)
			}
		}
	}
	return uses
}

// appendOnce keeps a pattern that lists an entity twice from being named twice.
func appendOnce(ps []*designer.Pattern, p *designer.Pattern) []*designer.Pattern {
	if n := len(ps); n > 0 && ps[n-1] == p {
		return ps
	}
	return append(ps, p)
}

// req003EntityCoverage is REQ003 and REQ005: the seed's checklist asks for a write pattern for every
// read pattern and vice versa, and every entity should be reached by some pattern.
func req003EntityCoverage(d designer.Design, out []Finding) []Finding {
	uses := entityUses(d)
	for _, e := range d.Entities {
		u := uses[e.Name]
		path := "entities/" + e.Name
		switch {
		case !u.listed:
			out = append(out, finding("REQ005", path,
				e.Name+" has no access pattern; add a pattern that reads or writes "+e.Name+", or remove the entity"))
		case len(u.reads) > 0 && len(u.writes) == 0 && !hasGap(e, designer.GapNoWrite):
			out = append(out, finding("REQ003", path,
				e.Name+" is read by "+patternList(u.reads)+" but written by no pattern; add a write pattern for "+e.Name+", or accept the gap if it is written outside this design"))
		case len(u.writes) > 0 && len(u.reads) == 0 && !hasGap(e, designer.GapNoRead):
			out = append(out, finding("REQ003", path,
				e.Name+" is written by "+patternList(u.writes)+" but read by no pattern; add a read pattern for "+e.Name+", or accept the gap if nothing here reads it back"))
		}
	}
	return out
}

func hasGap(e designer.Entity, gap string) bool {
	for _, g := range e.AcceptedGaps {
		if g == gap {
			return true
		}
	}
	return false
}

// req004PatternKeyNeeds is REQ004: one finding per pattern, naming every key requirement it lacks, so a
// new pattern does not flood the panel.
func req004PatternKeyNeeds(d designer.Design, out []Finding) []Finding {
	for _, p := range d.Patterns {
		var missing []string
		field := ""
		for _, need := range [...]struct{ value, name, field string }{
			{p.LatencySLO, "latency SLO", designer.PatternField.LatencySLO.Key},
			{p.Consistency, "consistency", designer.PatternField.Consistency.Key},
			{p.ResultBound, "expected result bound", designer.PatternField.ResultBound.Key},
			{p.SizeBand, "item size band", designer.PatternField.ItemSizeBand.Key},
		} {
			if strings.TrimSpace(need.value) == "" {
				missing = append(missing, need.name)
				if field == "" {
					field = need.field
				}
			}
		}
		if len(missing) == 0 {
			continue
		}
		out = append(out, finding("REQ004", patternFieldPath(p, field),
			patternName(p)+" has no "+designer.ListOr(missing)+"; every pattern needs its latency SLO, consistency, expected result bound and item size band"))
	}
	return out
}

// req006AggregateDecision is REQ006: a decision against the seed's thresholds needs its reason written.
func req006AggregateDecision(d designer.Design, out []Finding) []Finding {
	for i, a := range d.Aggregates {
		if a.Decision == "" {
			continue
		}
		s := SuggestAggregate(a)
		if s.Decision == "" || s.Decision == a.Decision {
			continue
		}
		f := finding("REQ006", "aggregates/"+rowID(a.ID, "ag", i)+"/decision", "")
		label := "Aggregate " + a.EntityA + " + " + a.EntityB + " is decided as " + decisionName(a.Decision)
		if strings.TrimSpace(a.Justification) == "" {
			f.Severity = SeverityWarning
			f.Message = label + ", but " + s.Reason + "; write the justification, or follow the thresholds"
		} else {
			f.Severity = SeverityInfo
			f.Message = label + " against the thresholds (" + s.Reason + "); the justification explains why"
		}
		out = append(out, f)
	}
	return out
}

// req007Identifying is REQ007: the seed's identifying-relationship check answered No/Yes/Yes. Once the
// tables say where the child lives, they decide whether a separate table plus a GSI is really there:
// a child already in its parent's table, or in a table of its own without any GSI (keyed by the
// parent id, as the rule suggests), is not reported whatever the check says.
func req007Identifying(d designer.Design, out []Finding) []Finding {
	for i, a := range d.Aggregates {
		c := a.Identifying
		if !answeredNo(c.ChildIndependent) || !answeredYes(c.ParentIDKnown) || !answeredYes(c.SeparateTablePlanned) {
			continue
		}
		if placed, separateWithGSI := childTable(d, a.EntityA, a.EntityB); placed && !separateWithGSI {
			continue
		}
		parent, child := a.EntityA, a.EntityB
		out = append(out, finding("REQ007", "aggregates/"+rowID(a.ID, "ag", i)+"/separate_table_planned",
			child+" cannot exist without "+parent+" and is always read with the "+parent+" id, yet a separate table plus a GSI is planned; use an identifying relationship instead: PK = "+parent+" id, SK = "+child+" id, and drop the GSI"))
	}
	return out
}

// req008Consolidation is REQ008: a consolidation decision against the seed's rules needs its reason
// written. A justified one is the team's call and is not reported.
func req008Consolidation(d designer.Design, out []Finding) []Finding {
	for i, c := range d.Consolidations {
		if c.Decision == "" || strings.TrimSpace(c.Justification) != "" {
			continue
		}
		s := SuggestConsolidation(c)
		if s.Decision == "" || s.Decision == c.Decision {
			continue
		}
		out = append(out, finding("REQ008", "consolidations/"+rowID(c.ID, "c", i)+"/decision",
			"Consolidation of "+c.Parent+" and "+c.Child+" is decided as "+decisionName(c.Decision)+", but "+s.Reason+"; write the justification, or follow the rule"))
	}
	return out
}

// req009RelationshipCount is REQ009: the seed's deep dive gives every relationship its average and
// maximum count ("avg 5 orders per user, max 1000"), which sizing and hot-partition checks need.
func req009RelationshipCount(d designer.Design, out []Finding) []Finding {
	for i, r := range d.Relationships {
		var missing, field string
		switch {
		case r.Avg == nil && r.Max == nil:
			missing, field = "no average or maximum count", designer.RelationshipField.AvgCount.Key
		case r.Avg == nil:
			missing, field = "no average count", designer.RelationshipField.AvgCount.Key
		case r.Max == nil:
			missing, field = "no maximum count", designer.RelationshipField.MaxCount.Key
		default:
			continue
		}
		out = append(out, finding("REQ009", "relationships/"+rowID(r.ID, "r", i)+"/"+field,
			"Relationship "+relationshipText(r)+" has "+missing+"; give both, as in \"avg 5 orders per user, max 1000\""))
	}
	return out
}

// childTable reports whether some table's SK taxonomy holds child, and whether one that does is a
// table without parent that has a GSI.
func childTable(d designer.Design, parent, child string) (placed, separateWithGSI bool) {
	holds := func(t designer.Table, entity string) bool {
		return slices.ContainsFunc(t.EntityTypes, func(et designer.EntityType) bool { return et.Entity == entity })
	}
	for _, t := range d.Tables {
		if !holds(t, child) {
			continue
		}
		placed = true
		if !holds(t, parent) && len(t.GSIs) > 0 {
			separateWithGSI = true
		}
	}
	return placed, separateWithGSI
}

func relationshipText(r designer.Relationship) string {
	s := r.From + " → " + r.To
	if r.Kind != "" {
		s += " (" + r.Kind + ")"
	}
	return s
}

func decisionName(decision string) string {
	switch decision {
	case designer.SingleItem:
		return "a single item"
	case designer.ItemCollection:
		return "an item collection"
	case designer.SeparateTables:
		return "separate tables"
	case designer.Consolidate:
		return "consolidate"
	case designer.Separate:
		return "keep separate"
	}
	return decision
}

// patternLabel names a pattern the way a workshop does: by number, with its description.
func patternName(p designer.Pattern) string {
	if strings.TrimSpace(p.Description) == "" {
		return "Pattern " + strconv.Itoa(p.Number)
	}
	return "Pattern " + strconv.Itoa(p.Number) + " " + inQuotes(p.Description)
}

func patternFieldPath(p designer.Pattern, field string) string {
	return "access_patterns/" + strconv.Itoa(p.Number) + "/" + field
}

// patternList names up to three patterns and counts the rest.
func patternList(ps []*designer.Pattern) string {
	if len(ps) == 1 {
		return "pattern " + strconv.Itoa(ps[0].Number) + " " + inQuotes(ps[0].Description)
	}
	var names []string
	for i, p := range ps {
		if i == 3 {
			names = append(names, strconv.Itoa(len(ps)-3)+" more")
			break
		}
		names = append(names, strconv.Itoa(p.Number))
	}
	return "patterns " + designer.ListAnd(names)
}

// rowID is the id of a row, or the id Normalize would give it when the design was never normalized.
func rowID(id, prefix string, i int) string {
	if id != "" {
		return id
	}
	return prefix + strconv.Itoa(i+1)
}

func inQuotes(s string) string { return `"` + s + `"` }

func answeredYes(b *bool) bool { return b != nil && *b }
func answeredNo(b *bool) bool  { return b != nil && !*b }
