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

// catalogue is the rule table that docs/rules.md prints (TestRulesDoc_isTheCatalogue keeps the two
// alike): each code, its severity, the check that finds it and when it fires, run in this order.
// A check that finds several codes in one pass is listed under the first; the rows of the others
// name no check. A check that chooses its severity per finding (REQ006, MOD007) lists its choices,
// most severe first, as "warning / info".
var catalogue = []struct {
	code, severity string
	check          rule
	when           string
	// reads says what of the sample items the check reads, so that ValidateFrom knows what an
	// edit of items only leaves as it was.
	reads reads
}{
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
	{"MOD001", SeverityError, onDesign(mod001Names),
		"a table or index name is under 3 or over 255 characters or holds a character other than a letter, a digit, `_`, `-` or `.`, " +
			"or two tables, or two indexes of one table, share a name", readsNoItems},
	{"MOD002", SeverityError, onDesign(mod002KeyTypes),
		"a key attribute of a table or index has no type, or a type other than S, N or B", readsNoItems},
	{"MOD003", SeverityError, onDesign(mod003KeyShape),
		"an index key has too many attributes: over 4 in a GSI's partition or sort key, or more than one in an LSI's", readsNoItems},
	{"MOD004", SeverityError, onDesign(mod004IndexCounts),
		"a table has over 20 GSIs or over 5 LSIs, or an LSI's partition key is not the table's", readsNoItems},
	{"MOD005", SeverityError, onDesign(mod005Projections),
		"an INCLUDE projection lists a key attribute or over 20 non-key attributes, " +
			"or a table's INCLUDE projections add up to over 100 non-key attributes (an attribute counts once per index)", readsNoItems},
	{"MOD006", SeverityError, modItemRules,
		"a sample item lacks a table key attribute or holds it with another type than the table's, " +
			"or holds an empty string or binary in a key attribute of the table or of an index", readsItemsByPart},
	{"MOD007", SeverityError + " / " + SeverityWarning, nil, // modItemRules
		"a sample item is over 100 KB (102,400 bytes): a warning, or an error over 400 KB (409,600 bytes), the most DynamoDB stores", readsNoItems},
	{"MOD008", SeverityError, nil, // modItemRules
		"a sample item's value of a partition key is over 2,048 bytes, or of a sort key over 1,024, " +
			"in the table's key or an index's (an attribute in several keys is held to the smallest limit)", readsNoItems},
	{"MOD009", SeverityError, nil, // modItemRules
		"a sample item holds an index key attribute with another type than the index declares, so DynamoDB would refuse the whole write", readsNoItems},
	{"MOD010", SeverityError, nil, // modItemRules
		"two or more sample items of a table have the same primary key, compared as DynamoDB compares keys (1.50 and 1.5 are one number)", readsNoItems},
	{"MOD011", SeverityWarning, nil, // modItemRules
		"a sample item holds the text null, in any case, as a top-level string, where the attribute should be left out", readsNoItems},
	{"MOD014", SeverityWarning, nil, // modItemRules
		"a sample item's string or number sort key matches none of its table's sort key templates " +
			"(on a table without a sort key, its partition key none of the partition key templates); a table without templates is not checked", readsNoItems},
	{"MOD015", SeverityError, nil, // modItemRules
		"a table declares its TTL attribute with another type than N, or a sample item holds it as something other than a Number", readsNoItems},
	{"MOD012", SeverityInfo, onDesign(mod012GenericNames),
		"a key attribute of a table or index, or an index, has a generic name that only says it is a key or an index " +
			"(PK, SK, GSI1PK, GSI1, data and the like)", readsNoItems},
	{"MOD013", SeverityWarning, onDesign(mod013FewItems),
		"a table has fewer than 5 sample items", readsItems},
	{"MOD016", SeverityWarning, onDesign(mod016UnusedIndex),
		"no operation of any access pattern targets an index and no pattern's attributes are recorded on it", readsNoItems},
	{"MOD017", SeverityWarning, mod017Sparse,
		"an index of a table with sample items is marked sparse though every item has its key attributes, " +
			"or is not marked sparse though some item lacks one of them", readsItemsByPart},
	{"MOD018", SeverityInfo, onDesign(mod018AllProjection),
		"an index projects ALL, and every pattern that reads through it, one at least, is known to need at most 3 attributes beyond the keys " +
			"(from its attributes recorded on the index, else its ProjectionExpression)", readsNoItems},
	{"MOD019", SeverityWarning, onDesign(mod019Undeclared),
		"a table's index keys, INCLUDE projections, per-pattern index attributes, key templates or TTL name an attribute " +
			"that is neither a key of the table nor among its declared attributes", readsNoItems},
	{"MOD020", SeverityError, onDesign(mod020TableKeys),
		"CreateTable would refuse a key or projection no other rule reports: a table key attribute with no name or one over 255 bytes, " +
			"a sort key that is the partition key, an attribute given two types by the keys of one table, " +
			"an LSI on a table without a sort key, without a sort key of its own or sorted by a table key, " +
			"a GSI without a partition key, an index key attribute without a usable name or twice in one key, " +
			"a projection type other than ALL, KEYS_ONLY or INCLUDE, or an INCLUDE attribute name that is empty or over 255 bytes", readsNoItems},
	{"MOD021", SeverityError, onDesign(mod021Billing),
		"a table's billing mode is neither `PAY_PER_REQUEST` nor `PROVISIONED`, " +
			"or it is `PROVISIONED` without at least 1 read and 1 write capacity unit", readsNoItems},
	{"MAP001", SeverityError, onDesign(map001Unmapped),
		"the design has a table, and an access pattern not served outside DynamoDB has no operation", readsNoItems},
	{"MAP002", SeverityError, map002KeyedOperations,
		"a GetItem, PutItem, UpdateItem or DeleteItem, or a request of a batch or transaction, on a table of the design targets an index, " +
			"or does not give exactly the table's primary key with = (or IN, in a batch or transaction)", readsNoItems},
	{"MAP003", SeverityError, map003QueryKeys,
		"a Query on a table or index of the design has no key condition it can read, or one DynamoDB refuses: an attribute that is no key of its target, " +
			"a partition key attribute missing, given twice or not compared with =, two conditions on one sort key attribute, " +
			"a sort key attribute conditioned without the one before it, <> on a sort key, begins_with on a number, " +
			"or a range on a sort key attribute before the last one conditioned", readsNoItems},
	{"MAP004", SeverityWarning, map004Scans,
		"an operation of an access pattern is a Scan", readsNoItems},
	{"MAP005", SeverityError, map005ConsistentGSI,
		"an operation asks a GSI for a strongly consistent read", readsNoItems},
	{"MAP006", SeverityWarning, map006Projection,
		"a Query or Scan on an index that does not project ALL needs attributes the index does not project: " +
			"those recorded for its pattern on the index, else those of its ProjectionExpression, else its pattern's when it is the only operation", readsNoItems},
	{"MAP007", SeverityError, map007FilterOnKey,
		"a Query's filter names a key attribute of the table or index it queries", readsNoItems},
	{"MAP008", SeverityError, onDesign(map008CallSizes),
		"one access pattern puts over 100 keys into a BatchGetItem, over 25 requests into a BatchWriteItem, " +
			"or over 100 items into a transaction, counting its operations of one kind as the requests of one call", readsNoItems},
	{"MAP009", SeverityWarning, mapEvaluated,
		"a read operation with an expected result, run on the sample items, returns other items than expected", readsItemsByPart},
	{"MAP011", SeverityWarning, nil, // mapEvaluated
		"a read pattern not served outside DynamoDB has read operations and, run on the sample items, none returns an item, " +
			"while none leaves a value open that the samples cannot fill (MAP014)", readsNoItems},
	{"MAP014", SeverityWarning, nil, // mapEvaluated
		"an operation of a pattern not served outside DynamoDB leaves a :value open that no sample item of its table fills, " +
			"so the samples cannot show it working and the MCP model export lists it without a command", readsNoItems},
	{"MAP010", SeverityWarning, map010Unbounded,
		"a Query or Scan has no Limit, and its pattern's result bound is unbounded or over 100 items", readsNoItems},
	{"MAP012", SeverityError, map012Names,
		"an operation names no table, a table the design lacks or an index its table lacks, or its key condition, filter or projection " +
			"uses a #name its names do not define or an attribute its table neither keys on, declares nor holds in a sample item", readsItemNames},
	{"MAP013", SeverityWarning, onDesign(map013NoTable),
		"the design has no table yet and some access pattern not served outside DynamoDB waits for one (one finding for them all)", readsNoItems},
	{"CAP001", SeverityError, capRules,
		"the hottest value of a table's or GSI's partition key takes more than one partition serves at peak: " +
			"its RCU/s ÷ 3,000 plus its WCU/s ÷ 1,000 is over 1", readsItems},
	{"CAP002", SeverityWarning, nil, // capRules
		"a table's or GSI's partition key reaches fewer than 100 distinct values, and is not one that grows with time, " +
			"and the load on them puts a tenth of a partition or more on its hottest value", readsNoItems},
	{"CAP003", SeverityWarning, nil, // capRules
		"a write changes the key of an index entry, which DynamoDB does as a delete and a put on the index", readsNoItems},
	{"CAP004", SeverityInfo, nil, // capRules
		"the writes of a pattern not typed as a read put 100 WCU/s or more on the newest value of a partition key that grows with time, such as a date", readsNoItems},
	{"CAP005", SeverityWarning, nil, // capRules
		"a table has an LSI and its largest item collection, estimated as the table's and its LSIs' storage ÷ its partition key's distinct values × the skew, " +
			"is over 10 GB", readsNoItems},
}

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
