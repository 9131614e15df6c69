package rules

import (
	"cmp"
	"slices"
	"strings"

	"dynaloom/internal/designer"
)

// Finding severities, as RULES.md defines them.
const (
	// SeverityError: DynamoDB would refuse it, or the design cannot serve a pattern.
	SeverityError = "error"
	// SeverityWarning: the seed's method says this is likely wrong.
	SeverityWarning = "warning"
	// SeverityInfo: advice.
	SeverityInfo = "info"
)

// Finding is one result of a rule of the catalogue in RULES.md. Path points at the field at fault
// in the form ValidationError uses ("access_patterns/4/peak_rps", "entities/Order").
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Path     string `json:"path"`
}

// rule appends what one rule of the catalogue finds in d to out. Rules only read d, so they can run
// in any order; Validate sorts their findings.
type rule func(d designer.Design, out []Finding) []Finding

// rules is the catalogue Validate runs. Each group of RULES.md adds its file of rules here.
var rules = []rule{
	req001PatternRPS,
	req002DuplicateNumbers,
	req003EntityCoverage, // and REQ005
	req004PatternKeyNeeds,
	req006AggregateDecision,
	req007Identifying,
	req008Consolidation,
	req009RelationshipCount,
	mod001Names,
	mod002KeyTypes,
	mod003KeyShape,
	mod004IndexCounts,
	mod005Projections,
	modItemRules, // MOD006-MOD011, MOD014, MOD015
	mod012GenericNames,
	mod013FewItems,
	mod016UnusedIndex,
	mod017Sparse,
	mod018AllProjection,
	mod019Undeclared,
	map001Unmapped,
	map002KeyedOperations,
	map003QueryKeys,
	map004Scans,
	map005ConsistentGSI,
	map006Projection,
	map007FilterOnKey,
	map008CallSizes,
	mapEvaluated, // MAP009, MAP011
	map010Unbounded,
	map012Names,
}

// Validate runs every rule on d. The findings come errors first, then warnings, then advice; within
// a severity by code, then by path with numbers compared as numbers, so pattern 10 follows pattern 9.
// The result is never nil.
func Validate(d designer.Design) []Finding {
	out := make([]Finding, 0, 16)
	for _, r := range rules {
		out = r(d, out)
	}
	slices.SortStableFunc(out, compareFindings)
	return out
}

// HasErrors reports whether any finding has error severity: a design without one is valid.
func HasErrors(findings []Finding) bool {
	return slices.ContainsFunc(findings, func(f Finding) bool { return f.Severity == SeverityError })
}

func severityRank(s string) int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	case SeverityInfo:
		return 2
	}
	return 3
}

func compareFindings(a, b Finding) int {
	if c := cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)); c != 0 {
		return c
	}
	if c := strings.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	return naturalCompare(a.Path, b.Path)
}

// naturalCompare orders strings as text, except that runs of digits compare by their value.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		if designer.IsDigit(a[0]) && designer.IsDigit(b[0]) {
			na, ra := digitRun(a)
			nb, rb := digitRun(b)
			// Equal values may differ in leading zeros; the shorter run (fewer zeros) sorts first.
			if c := cmp.Or(cmp.Compare(len(strings.TrimLeft(na, "0")), len(strings.TrimLeft(nb, "0"))),
				strings.Compare(strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")),
				cmp.Compare(len(na), len(nb))); c != 0 {
				return c
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func digitRun(s string) (run, rest string) {
	i := 0
	for i < len(s) && designer.IsDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// Report is what validating a design says: its findings (never nil) and the seed's checklists
// ticked from them. The CLI's `validate --format json` and the API's /validation write it alike.
type Report struct {
	Findings   []Finding  `json:"findings"`
	Checklists Checklists `json:"checklists"`
}

// BuildReport validates d.
func BuildReport(d designer.Design) Report {
	findings := Validate(d)
	if findings == nil {
		findings = []Finding{}
	}
	return Report{Findings: findings, Checklists: BuildChecklists(d, findings)}
}
