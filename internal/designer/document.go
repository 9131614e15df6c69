package designer

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// New returns an empty design with the given name.
func New(name string) (Design, error) {
	n, err := CleanName("name", name)
	if err != nil {
		return Design{}, err
	}
	return Normalize(Design{Name: n}), nil
}

// newID returns a short random identifier for a new row or comment. It is not a secret.
func newID() string {
	return strings.ToLower(rand.Text()[:12])
}

// Normalize fills defaults so that equal designs have equal JSON: the format, empty lists instead
// of missing ones (including an entity's attributes and a sample item's attributes), the ids of
// relationships, patterns, aggregates, consolidations and sample items ("i1", "i2"… within each
// table), the default pattern status, and the default billing mode and projection. Like a change,
// it copies what it fills and shares the rest.
func Normalize(d Design) Design {
	d.Format = Format
	d.Entities = NonNil(d.Entities)
	d.Relationships = withIDs(NonNil(d.Relationships), relationshipIDPrefix, func(r *Relationship) *string { return &r.ID })
	d.Patterns = withIDs(NonNil(d.Patterns), patternIDPrefix, func(p *Pattern) *string { return &p.ID })
	d.Aggregates = withIDs(NonNil(d.Aggregates), aggregateIDPrefix, func(a *AggregateAnalysis) *string { return &a.ID })
	d.Consolidations = withIDs(NonNil(d.Consolidations), consolidationIDPrefix, func(c *ConsolidationReview) *string { return &c.ID })
	d.Tables = NonNil(d.Tables)
	d.Comments = NonNil(d.Comments)
	if slices.ContainsFunc(d.Entities, func(e Entity) bool { return e.Attributes == nil }) {
		d.Entities = slices.Clone(d.Entities)
		for i := range d.Entities {
			d.Entities[i].Attributes = NonNil(d.Entities[i].Attributes)
		}
	}
	if slices.ContainsFunc(d.Tables, func(t Table) bool {
		return t.BillingMode == "" || needsProjection(t) || hasNilItem(t) || hasItemWithoutID(t)
	}) ||
		slices.ContainsFunc(d.Patterns, func(p Pattern) bool { return p.Status == "" }) {
		d.Tables = slices.Clone(d.Tables)
		for i := range d.Tables {
			t := &d.Tables[i]
			if t.BillingMode == "" {
				t.BillingMode = OnDemand
			}
			if needsProjection(*t) {
				t.GSIs = defaultProjections(t.GSIs)
				t.LSIs = defaultProjections(t.LSIs)
			}
			if hasNilItem(*t) {
				t.Items = slices.Clone(t.Items)
				for j := range t.Items {
					if t.Items[j].Item == nil {
						t.Items[j].Item = Item{}
					}
				}
			}
			t.Items = withIDs(t.Items, ItemIDPrefix, func(it *SampleItem) *string { return &it.ID })
		}
		d.Patterns = slices.Clone(d.Patterns)
		for i := range d.Patterns {
			if d.Patterns[i].Status == "" {
				d.Patterns[i].Status = StatusOpen
			}
		}
	}
	return d
}

// Prefixes of the ids Normalize and the Add changes give to rows: "r1", "ap1", "ag1", "c1".
const (
	relationshipIDPrefix  = "r"
	patternIDPrefix       = "ap"
	aggregateIDPrefix     = "ag"
	consolidationIDPrefix = "c"
	ItemIDPrefix          = "i"
)

// withIDs gives every row without an id the prefix and the smallest positive number no row uses
// yet, in list order. A list whose rows all have ids is returned as it is, without allocating.
func withIDs[T any](rows []T, prefix string, id func(*T) *string) []T {
	missing := false
	for i := range rows {
		if *id(&rows[i]) == "" {
			missing = true
			break
		}
	}
	if !missing {
		return rows
	}
	used := make(map[string]bool, len(rows))
	for i := range rows {
		used[*id(&rows[i])] = true
	}
	out := slices.Clone(rows)
	n := 0
	for i := range out {
		if p := id(&out[i]); *p == "" {
			for n++; used[prefix+strconv.Itoa(n)]; n++ {
			}
			*p = prefix + strconv.Itoa(n)
		}
	}
	return out
}

// nextID returns the id for a row added to rows: the prefix and one more than the highest number
// already used with it. Unlike withIDs it does not fill gaps, so the id of a deleted row, which
// comments and edits in flight may still name, is not handed to a new row unless it was the last.
func nextID[T any](rows []T, prefix string, idOf func(*T) string) string {
	highest := 0
	for i := range rows {
		if rest, ok := strings.CutPrefix(idOf(&rows[i]), prefix); ok {
			if n, err := strconv.Atoi(rest); err == nil && n > highest && n < math.MaxInt32 {
				highest = n
			}
		}
	}
	for n := highest + 1; ; n++ {
		id := prefix + strconv.Itoa(n)
		if _, _, taken := byID(rows, id, idOf); !taken {
			return id
		}
	}
}

func needsProjection(t Table) bool {
	missing := func(ix Index) bool { return ix.Projection.Type == "" }
	return slices.ContainsFunc(t.GSIs, missing) || slices.ContainsFunc(t.LSIs, missing)
}

func hasNilItem(t Table) bool {
	return slices.ContainsFunc(t.Items, func(it SampleItem) bool { return it.Item == nil })
}

func hasItemWithoutID(t Table) bool {
	return slices.ContainsFunc(t.Items, func(it SampleItem) bool { return it.ID == "" })
}

func defaultProjections(ixs []Index) []Index {
	out := slices.Clone(ixs)
	for i := range out {
		if out[i].Projection.Type == "" {
			out[i].Projection.Type = All
		}
	}
	return out
}

func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ParseJSON reads a design-json document. A partial document ({"name": "Orders"}) is accepted;
// members the format does not define, a foreign "format", and malformed values are refused with a
// *ValidationError naming the field.
func ParseJSON(data []byte) (Design, error) {
	var probe struct {
		Format *string `json:"format"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return Design{}, jsonError("", err, "design-json")
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return Design{}, Invalid("body", "must be a JSON object, not null")
	}
	if probe.Format != nil && *probe.Format != Format {
		return Design{}, Invalid("format", "is %q; this version of Dynaloom reads %q", *probe.Format, Format)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc struct {
		Design
		// Revision is written by the API on the way out; it is not part of the document.
		Revision json.RawMessage `json:"revision"`
	}
	if err := dec.Decode(&doc); err != nil {
		return Design{}, jsonError("", err, "design-json")
	}
	d := Normalize(doc.Design)
	if strings.TrimSpace(d.Name) == "" {
		d.Name = "Untitled design"
	}
	if err := Check(d); err != nil {
		return Design{}, err
	}
	return d, nil
}

// jsonError words an error of decoding JSON as a *ValidationError naming the member at fault:
// under path ("" for the top level, where "body" names the whole), of saying what the members
// belong to, for a member that is not one of them.
func jsonError(path string, err error, of string) error {
	under := func(name string) string {
		switch {
		case name == "":
			return orBody(path)
		case path == "":
			return name
		}
		return path + "/" + name
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var ve *ValidationError
	switch {
	case errors.As(err, &syn):
		return Invalid(orBody(path), "is not valid JSON (at byte %d): %v", syn.Offset, err)
	case errors.As(err, &typ):
		// ParseJSON decodes into a struct that embeds Design, so the path starts with "Design.".
		field := strings.ReplaceAll(strings.TrimPrefix(typ.Field, "Design."), ".", "/")
		return Invalid(under(field), "must be a JSON %s, not %s", jsonKind(typ.Type.Kind().String()), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return Invalid(under(name), "is not a member of %s", of)
	case errors.Is(err, io.EOF):
		return Invalid(orBody(path), "is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Invalid(orBody(path), "ends before its JSON value does")
	case errors.Is(err, errMoreJSON):
		return Invalid(orBody(path), "holds more than one JSON value")
	case errors.As(err, &ve):
		return ve
	}
	return Invalid(orBody(path), "%v", err)
}

// orBody names the member at path, or the whole body for the top level.
func orBody(path string) string {
	if path == "" {
		return "body"
	}
	return path
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "string"
	case "slice", "array":
		return "array"
	case "map", "struct", "ptr":
		return "object"
	case "bool":
		return "boolean"
	}
	return "number"
}

// MarshalJSON writes d as indented design-json. The output is deterministic.
func MarshalJSON(d Design) ([]byte, error) {
	return encode(d, "  ")
}

// MarshalCompactJSON writes d as design-json on one line, for storage: the same document as
// MarshalJSON without the indentation, which costs a third of the time on a large design.
func MarshalCompactJSON(d Design) ([]byte, error) {
	return encode(d, "")
}

func encode(d Design, indent string) ([]byte, error) {
	d = Normalize(d)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	// Latency SLOs such as "<10 ms" are common; \u003c10 ms would be valid but unreadable.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("encode design: %w", err)
	}
	return buf.Bytes(), nil
}

// Check refuses designs the document cannot represent: unknown enumeration values, attribute types
// that are not DynamoDB's, negative or non-finite numbers, over-long text. Design mistakes that
// DynamoDB or the method would flag are not refused here; they are findings.
func Check(d Design) error {
	if _, err := CleanName("name", d.Name); err != nil {
		return err
	}
	for _, f := range OverviewFields {
		if _, err := CleanText("overview/"+f.Key, f.Get(d.Overview)); err != nil {
			return err
		}
	}
	for i, e := range d.Entities {
		p := "entities/" + strconv.Itoa(i)
		if _, err := CleanName(p+"/name", e.Name); err != nil {
			return err
		}
		if err := checkAttributes(p, e.Attributes); err != nil {
			return err
		}
		if err := nonNegInt(p+"/count", e.Count); err != nil {
			return err
		}
		if err := checkScale(p, e); err != nil {
			return err
		}
		for _, g := range e.AcceptedGaps {
			if g != GapNoWrite && g != GapNoRead {
				return Invalid(p+"/accepted_gaps", "holds %q; use %q or %q", g, GapNoWrite, GapNoRead)
			}
		}
	}
	for i, r := range d.Relationships {
		p := "relationships/" + strconv.Itoa(i)
		if err := OneOf(p+"/kind", r.Kind, "", OneToOne, OneToMany, ManyToMany); err != nil {
			return err
		}
		if err := nonNegFloat(p+"/avg_count", r.Avg); err != nil {
			return err
		}
		if err := nonNegInt(p+"/max_count", r.Max); err != nil {
			return err
		}
		if err := checkCountUnit(r.AvgUnit); err != nil {
			return Invalid(p+"/avg_unit", "%s", err)
		}
		if err := checkCountUnit(r.MaxUnit); err != nil {
			return Invalid(p+"/max_unit", "%s", err)
		}
	}
	for i, s := range d.Prose.Sections {
		if s.Document != "" && s.Document != RequirementDocument {
			return Invalid("prose/sections/"+strconv.Itoa(i)+"/document", "is %q; use %q for a section of the requirement document, or leave it out for one of the data model", s.Document, RequirementDocument)
		}
	}
	for i, pt := range d.Patterns {
		if err := checkPattern("access_patterns/"+strconv.Itoa(i), pt); err != nil {
			return err
		}
	}
	for i, a := range d.Aggregates {
		p := "aggregates/" + strconv.Itoa(i)
		if err := OneOf(p+"/decision", a.Decision, "", SingleItem, ItemCollection, SeparateTables); err != nil {
			return err
		}
		if err := firstNonNil([]error{
			percent(p+"/correlation_pct", a.CorrelationPct),
			percent(p+"/only_a_pct", a.OnlyAPct),
			percent(p+"/only_b_pct", a.OnlyBPct),
			percent(p+"/both_pct", a.BothPct),
			nonNegFloat(p+"/combined_kb", a.CombinedKB),
		}); err != nil {
			return err
		}
	}
	for i, c := range d.Consolidations {
		p := "consolidations/" + strconv.Itoa(i)
		if err := OneOf(p+"/decision", c.Decision, "", Consolidate, Separate); err != nil {
			return err
		}
		if err := percent(p+"/overlap_pct", c.OverlapPct); err != nil {
			return err
		}
	}
	for i, t := range d.Tables {
		if err := checkTable("tables/"+strconv.Itoa(i), t); err != nil {
			return err
		}
	}
	if err := checkDiagrams(d.Diagrams); err != nil {
		return err
	}
	return firstNonNil([]error{
		checkCapacity(d.Capacity),
		checkIDs("relationships", d.Relationships, func(r *Relationship) string { return r.ID }),
		checkIDs("access_patterns", d.Patterns, func(p *Pattern) string { return p.ID }),
		checkIDs("aggregates", d.Aggregates, func(a *AggregateAnalysis) string { return a.ID }),
		checkIDs("consolidations", d.Consolidations, func(c *ConsolidationReview) string { return c.ID }),
	})
}

// MaxIDLen bounds a row id. Ids appear in paths ("access_patterns/ap4"), so they are limited to
// letters, digits, "-" and "_".
const MaxIDLen = 64

func checkIDs[T any](list string, rows []T, idOf func(*T) string) error {
	seen := make(map[string]int, len(rows))
	for i := range rows {
		id, field := idOf(&rows[i]), list+"/"+strconv.Itoa(i)+"/id"
		if !validID(id) {
			return Invalid(field, "is %q; an id is 1 to %d letters, digits, \"-\" or \"_\"", id, MaxIDLen)
		}
		if j, dup := seen[id]; dup {
			return Invalid(field, "is %q, which %s/%d already uses; ids must be unique", id, list, j)
		}
		seen[id] = i
	}
	return nil
}

func validID(id string) bool {
	if id == "" || len(id) > MaxIDLen {
		return false
	}
	for _, r := range id {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func checkPattern(p string, pt Pattern) error {
	if pt.Number < 0 {
		return Invalid(p+"/number", "must be a positive whole number")
	}
	checks := []error{
		OneOf(p+"/type", pt.Type, "", Read, Write),
		OneOf(p+"/status", pt.Status, StatusSolved, StatusOpen, StatusOutside, StatusAtRisk),
		OneOf(p+"/consistency", pt.Consistency, "", Strong, Eventual),
		nonNegFloat(p+"/peak_rps", pt.PeakRPS),
		nonNegFloat(p+"/avg_rps", pt.AvgRPS),
		percentUpTo(p+"/conditional_failure_pct", pt.ConditionalFailurePct, MaxFailurePct),
	}
	for i, op := range pt.Mapping.Operations {
		at := fmt.Sprintf("%s/mapping/operations/%d/", p, i)
		checks = append(checks, OneOf(at+"op", op.Op, Operations...), CheckAction(at+"action", op))
	}
	return firstNonNil(checks)
}

// CheckAction refuses an action the operation cannot take: BatchWriteItem puts or deletes,
// TransactWriteItems also updates or checks a condition, and other operations take none.
func CheckAction(field string, op Operation) error {
	if op.Action == "" {
		return nil
	}
	allowed := OperationActions(op.Op)
	if len(allowed) == 0 {
		return Invalid(field, "is %q, but a %s takes no action; only BatchWriteItem and TransactWriteItems rows do, so leave it empty", op.Action, op.Op)
	}
	if !slices.Contains(allowed, op.Action) {
		return Invalid(field, "is %q; a %s row takes %s, or nothing to put the item when the row gives attributes and delete it when it gives none", op.Action, op.Op, strings.Join(allowed, ", "))
	}
	return nil
}

func checkTable(p string, t Table) error {
	checks := []error{
		OneOf(p+"/billing_mode", t.BillingMode, OnDemand, Provisioned),
		OneOf(p+"/table_class", t.TableClass, "", StandardClass, StandardIAClass),
		checkType(p+"/partition_key/type", t.PartitionKey.Type),
		checkAttributes(p, t.Attributes),
		nonNegInt(p+"/read_capacity_units", t.ReadUnits),
		nonNegInt(p+"/write_capacity_units", t.WriteUnits),
	}
	if t.SortKey != nil {
		checks = append(checks, checkType(p+"/sort_key/type", t.SortKey.Type))
	}
	for _, group := range []struct {
		kind string
		ixs  []Index
	}{{"gsis", t.GSIs}, {"lsis", t.LSIs}} {
		for i, ix := range group.ixs {
			ip := fmt.Sprintf("%s/%s/%d", p, group.kind, i)
			checks = append(checks, OneOf(ip+"/projection/type", ix.Projection.Type, KeysOnly, Include, All))
			for j, k := range append(slices.Clone(ix.PartitionKey), ix.SortKey...) {
				checks = append(checks, checkType(fmt.Sprintf("%s/key/%d/type", ip, j), k.Type))
			}
		}
	}
	checks = append(checks, checkIDs(p+"/items", t.Items, func(it *SampleItem) string { return it.ID }))
	for i, it := range t.Items {
		for _, name := range it.Item.SortedNames() {
			if !it.Item[name].Type.Valid() {
				checks = append(checks, Invalid(fmt.Sprintf("%s/items/%d/%s", p, i, name), "has no DynamoDB type"))
			}
		}
	}
	return firstNonNil(checks)
}

func checkAttributes(p string, attrs []Attribute) error {
	for i, a := range attrs {
		ap := fmt.Sprintf("%s/attributes/%d", p, i)
		if _, err := CleanName(ap+"/name", a.Name); err != nil {
			return err
		}
		if err := checkType(ap+"/type", a.Type); err != nil {
			return err
		}
	}
	return nil
}

func checkType(field string, t Type) error {
	if !t.Valid() {
		return Invalid(field, "is %q; use one of S N B BOOL NULL M L SS NS BS", string(t))
	}
	return nil
}

func OneOf(field, v string, allowed ...string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	shown := slices.DeleteFunc(slices.Clone(allowed), func(s string) bool { return s == "" })
	return Invalid(field, "is %q; use one of %s", v, strings.Join(shown, ", "))
}

func nonNegFloat(field string, v *float64) error {
	if v != nil && !(*v >= 0 && *v <= MaxNumber) {
		return Invalid(field, "must be a number from 0 to %s", maxNumberText)
	}
	return nil
}

func nonNegInt(field string, v *int64) error {
	if v != nil && (*v < 0 || *v > MaxNumber) {
		return Invalid(field, "must be a whole number from 0 to %s", maxNumberText)
	}
	return nil
}

func percent(field string, v *float64) error {
	if v != nil && (math.IsNaN(*v) || *v < 0 || *v > 100) {
		return Invalid(field, "must be a percentage from 0 to 100")
	}
	return nil
}

func firstNonNil(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
