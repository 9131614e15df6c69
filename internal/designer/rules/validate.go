package rules

import (
	"cmp"
	"slices"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
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

// rule appends what one check of the catalogue finds in the design v validates to out. Checks only
// read it, so they can run in any order; Validate sorts their findings. Most checks read the design
// as a whole (onDesign); those whose work is per table or per pattern take what the last validation
// found for the tables and patterns that have not changed since from v (memo.go).
type rule func(v *validation, out []Finding) []Finding

// onDesign is a check of the whole design as a rule.
func onDesign(check func(d designer.Design, out []Finding) []Finding) rule {
	return func(v *validation, out []Finding) []Finding { return check(v.d, out) }
}

// catalogue is RULES.md as a table: each code, its severity, and the check that finds it, run in
// this order. A check that finds several codes in one pass is listed under the first; the rows of
// the others name no check. REQ006 and MOD007 choose their severity per finding.
var catalogue = []struct {
	code, severity string
	check          rule
}{
	{"REQ001", SeverityError, onDesign(req001PatternRPS)},
	{"REQ002", SeverityError, onDesign(req002DuplicateNumbers)},
	{"REQ003", SeverityWarning, onDesign(req003EntityCoverage)},
	{"REQ005", SeverityWarning, nil}, // req003EntityCoverage
	{"REQ004", SeverityWarning, onDesign(req004PatternKeyNeeds)},
	{"REQ006", "", onDesign(req006AggregateDecision)},
	{"REQ007", SeverityWarning, onDesign(req007Identifying)},
	{"REQ008", SeverityWarning, onDesign(req008Consolidation)},
	{"REQ009", SeverityInfo, onDesign(req009RelationshipCount)},
	{"MOD001", SeverityError, onDesign(mod001Names)},
	{"MOD002", SeverityError, onDesign(mod002KeyTypes)},
	{"MOD003", SeverityError, onDesign(mod003KeyShape)},
	{"MOD004", SeverityError, onDesign(mod004IndexCounts)},
	{"MOD005", SeverityError, onDesign(mod005Projections)},
	{"MOD006", SeverityError, modItemRules},
	{"MOD007", "", nil},              // modItemRules
	{"MOD008", SeverityError, nil},   // modItemRules
	{"MOD009", SeverityError, nil},   // modItemRules
	{"MOD010", SeverityError, nil},   // modItemRules
	{"MOD011", SeverityWarning, nil}, // modItemRules
	{"MOD014", SeverityWarning, nil}, // modItemRules
	{"MOD015", SeverityError, nil},   // modItemRules
	{"MOD012", SeverityInfo, onDesign(mod012GenericNames)},
	{"MOD013", SeverityWarning, onDesign(mod013FewItems)},
	{"MOD016", SeverityWarning, onDesign(mod016UnusedIndex)},
	{"MOD017", SeverityWarning, mod017Sparse},
	{"MOD018", SeverityInfo, onDesign(mod018AllProjection)},
	{"MOD019", SeverityWarning, onDesign(mod019Undeclared)},
	{"MOD020", SeverityError, onDesign(mod020TableKeys)},
	{"MOD021", SeverityError, onDesign(mod021Billing)},
	{"MAP001", SeverityError, onDesign(map001Unmapped)},
	{"MAP002", SeverityError, map002KeyedOperations},
	{"MAP003", SeverityError, map003QueryKeys},
	{"MAP004", SeverityWarning, map004Scans},
	{"MAP005", SeverityError, map005ConsistentGSI},
	{"MAP006", SeverityWarning, map006Projection},
	{"MAP007", SeverityError, map007FilterOnKey},
	{"MAP008", SeverityError, onDesign(map008CallSizes)},
	{"MAP009", SeverityWarning, mapEvaluated},
	{"MAP011", SeverityWarning, nil}, // mapEvaluated
	{"MAP014", SeverityWarning, nil}, // mapEvaluated
	{"MAP010", SeverityWarning, map010Unbounded},
	{"MAP012", SeverityError, map012Names},
	{"MAP013", SeverityWarning, onDesign(map013NoTable)},
	{"CAP001", SeverityError, capRules},
	{"CAP002", SeverityWarning, nil}, // capRules
	{"CAP003", SeverityWarning, nil}, // capRules
	{"CAP004", SeverityInfo, nil},    // capRules
	{"CAP005", SeverityWarning, nil}, // capRules
}

// readsItems are the rows whose checks read sample items: the others find the same in a design
// whose only changes are to items (memo.go).
var readsItems = map[string]bool{"MOD006": true, "MOD013": true, "MOD017": true, "MAP009": true, "MAP012": true, "CAP001": true}

// keptInParts are the rows whose checks keep their findings per table or per pattern (memo.go);
// MAP012's findings depend on the items only through the attribute names they use.
var keptInParts = map[string]bool{"MOD006": true, "MOD017": true, "MAP009": true}

// severityOf is each code's severity in the catalogue. It is filled by init: the checks use it
// through finding, so the catalogue's own initializer cannot build it.
var severityOf = map[string]string{}

func init() {
	for _, r := range catalogue {
		severityOf[r.code] = r.severity
	}
}

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
		case v.itemsOnly && v.prev.rules[i] != nil && (!readsItems[r.code] || r.code == "MAP012" && v.sameAttributeNames()):
			out = append(out, v.prev.rules[i]...)
			v.next.rules[i] = v.prev.rules[i]
		case keptInParts[r.code]:
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
