package rules

import (
	"cmp"
	"slices"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// Finding severities (docs/rules.md).
const (
	// SeverityError: DynamoDB would refuse it, or the design cannot serve a pattern.
	SeverityError = "error"
	// SeverityWarning: the seed's method says this is likely wrong.
	SeverityWarning = "warning"
	// SeverityInfo: advice.
	SeverityInfo = "info"
)

// Finding is one result of a rule of the catalogue. Path points at the field at fault in the form
// ValidationError uses ("access_patterns/4/peak_rps", "entities/Order").
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Path     string `json:"path"`
}

// rule appends what one check of the catalogue finds in the design v validates to out. Checks only
// read it, so they can run in any order; Validate sorts their findings. Most checks read the design
// as a whole (onDesign); those whose work is per table or per pattern take what the last validation
// found for the tables and patterns that have not changed since from v (memo.go).
type rule func(v *validation, out []Finding) []Finding

// onDesign is a check of the whole design as a rule.
func onDesign(check func(d designer.Design, out []Finding) []Finding) rule {
	return func(v *validation, out []Finding) []Finding { return check(v.d, out) }
}

// catalogueRow is one rule of the catalogue: its code, its severity, the check that finds it and
// when it fires, and what of the sample items it reads, so that ValidateFrom knows what an edit of
// items only leaves as it was. A check that finds several codes in one pass is on the first
// code's row; the rows of the others name no check. A check that chooses its severity per finding
// (REQ006, MOD007) lists its choices, most severe first, as "warning / info".
type catalogueRow struct {
	code, severity string
	check          rule
	when           string
	reads          reads
}

// catalogue is the rule table that docs/rules.md prints (TestRulesDoc_isTheCatalogue keeps the two
// alike, and -update writes it there), run in this order: each family's rows stand in its own
// file, beside its checks.
var catalogue = slices.Concat(reqCatalogue, modCatalogue, mapCatalogue, capCatalogue)

// reads is what a check reads of the sample items (memo.go).
type reads int

const (
	// readsNoItems: the check finds the same in a design whose only changes are to items.
	readsNoItems reads = iota
	// readsItems: it reads the items, and runs again after any item edit.
	readsItems
	// readsItemsByPart: it reads the items and keeps its findings per table or per pattern,
	// working again only on the parts an edit touched.
	readsItemsByPart
	// readsItemNames: it reads only the attribute names the items use.
	readsItemNames
)

// severityOf is each code's severity in the catalogue, for the codes that have one. It is filled
// by init: the checks use it through finding, so the catalogue's own initializer cannot build it.
var severityOf = map[string]string{}

func init() {
	for _, r := range catalogue {
		if s := severities(r.severity); len(s) == 1 {
			severityOf[r.code] = s[0]
		}
	}
}

// severities splits a catalogue row's severity into the severities its findings may take.
func severities(row string) []string { return strings.Split(row, " / ") }

// finding is one finding of code at path, with the severity the catalogue gives code.
func finding(code, path, message string) Finding {
	return Finding{Code: code, Severity: severityOf[code], Path: path, Message: message}
}

// Validate runs every rule on d. The findings come errors first, then warnings, then advice; within
// a severity by code, then by path with numbers compared as numbers, so pattern 10 follows pattern 9.
// The result is never nil.
func Validate(d designer.Design) []Finding {
	out, _ := ValidateFrom(d, nil, nil)
	return out
}

// ValidateFrom is Validate for a design that is read again and again, revision after revision. It
// reads the sample items through cache (nil for none), and takes from prev, what an earlier
// validation of a revision d was made from remembered (nil for nothing), the findings of every
// table and pattern whose inputs have not changed since (memo.go), so that an edit of one table
// repeats only the work on that table and on the patterns that read it. The findings are Validate's,
// in the same order; the Memo returned is for validating the next revision.
func ValidateFrom(d designer.Design, cache *dynamo.Cache, prev *Memo) ([]Finding, *Memo) {
	v := newValidation(d, cache, prev)
	out := make([]Finding, 0, 16)
	v.itemsOnly = v.onlyItemsChanged()
	for i, r := range catalogue {
		switch {
		case r.check == nil:
		case v.itemsOnly && v.prev.rules[i] != nil && (r.reads == readsNoItems || r.reads == readsItemNames && v.sameAttributeNames()):
			out = append(out, v.prev.rules[i]...)
			v.next.rules[i] = v.prev.rules[i]
		case r.reads == readsItemsByPart:
			out = r.check(v, out)
		default:
			from := len(out)
			out = r.check(v, out)
			v.next.rules[i] = append([]Finding{}, out[from:]...)
		}
	}
	slices.SortStableFunc(out, compareFindings)
	return out, v.next
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
