// What several pages draw alike: the tables step's field and option lists, the paste box,
// comment badges and element ids.

package server

import (
	"crypto/sha256"
	"dynaloom/internal/designer"
	"dynaloom/web/templates"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

var (
	triOptions      = []templates.Option{{Value: "", Label: "—"}, {Value: "yes", Label: "Yes"}, {Value: "no", Label: "No"}}
	decisionOptions = []templates.Option{
		{Value: "", Label: "—"},
		{Value: designer.SingleItem, Label: "Single item aggregate"},
		{Value: designer.ItemCollection, Label: "Item collection"},
		{Value: designer.SeparateTables, Label: "Separate tables"},
	}
	consolidationOptions = []templates.Option{{Value: "", Label: "—"}, {Value: designer.Consolidate, Label: "✅ Consolidate"}, {Value: designer.Separate, Label: "❌ Separate"}}
)

// tableField is one field of a table's header, key schema or notes, each shown as one cell.
type tableField struct {
	field, label, kind string
	options            []templates.Option
	value              func(designer.Table) string
}

var (
	tableHeaderFields = []tableField{
		{"name", "Table name", "text", nil, func(t designer.Table) string { return t.Name }},
		shownTableField(designer.TableField.BillingMode, "select", billingOptions),
		tableClassField(),
		shownTableField(designer.TableField.TTLAttribute, "text", nil),
	}
	tableSchemaFields = []tableField{
		{"pk_name", "Partition key", "text", nil, func(t designer.Table) string { return t.PartitionKey.Name }},
		{"pk_type", "Partition key type", "select", keyTypeOptions, func(t designer.Table) string { return string(t.PartitionKey.Type) }},
		{"sk_name", "Sort key", "text", nil, func(t designer.Table) string { return sortKeyPart(t, false) }},
		{"sk_type", "Sort key type", "select", sortKeyTypeOptions, func(t designer.Table) string { return sortKeyPart(t, true) }},
	}
)

// tableNotes are the free-text fields of a table.
func tableNotes() []tableField {
	out := make([]tableField, len(tableNoteFields))
	for i, f := range tableNoteFields {
		out[i] = shownTableField(f, "textarea", nil)
	}
	return out
}

func bulkBox(d *designContext, step string) templates.BulkPaste {
	base := "/d/" + d.Token + "/bulk"
	return templates.BulkPaste{Preview: base + "/preview", Add: base + "/add", Step: step, Hints: designer.BulkHints}
}

// entityAttributeOptions are the attributes of the design's entities that t does not declare or
// key on, each name once (the first entity to have it gives its type).
func entityAttributeOptions(design designer.Design, t designer.Table) []templates.EntityAttributeOption {
	var out []templates.EntityAttributeOption
	for _, e := range design.Entities {
		for _, a := range e.Attributes {
			if _, _, declared := t.AttributeByName(a.Name); declared || isTableKey(t, a.Name) {
				continue
			}
			if slices.ContainsFunc(out, func(o templates.EntityAttributeOption) bool { return o.Name == a.Name }) {
				continue
			}
			out = append(out, templates.EntityAttributeOption{Entity: e.Name, Name: a.Name, Type: string(a.Type)})
		}
	}
	return out
}

// entityTypeNames are the design's entities t's SK taxonomy does not list yet.
func entityTypeNames(design designer.Design, t designer.Table) []string {
	var out []string
	for _, e := range design.Entities {
		if !slices.ContainsFunc(t.EntityTypes, func(et designer.EntityType) bool { return et.Entity == e.Name }) {
			out = append(out, e.Name)
		}
	}
	return out
}

// declareEntityAttributes offers the entities with attributes t lacks, those its SK taxonomy lists
// first, each labelled with what it adds.
func declareEntityAttributes(d *designContext, t designer.Table) templates.DeclareEntityAttributes {
	f := templates.DeclareEntityAttributes{Action: "/d/" + d.Token + "/tables/attributes/from-entity", Table: t.Name}
	var listed, others []templates.Option
	for _, e := range d.Record.Design.Entities {
		attrs := undeclaredAttributes(t, e)
		if len(attrs) == 0 {
			continue
		}
		names := make([]string, len(attrs))
		for i, a := range attrs {
			names[i] = a.Name + " (" + string(a.Type) + ")"
		}
		label := e.Name + " — " + strings.Join(names, ", ")
		if r := []rune(label); len(r) > 72 {
			label = string(r[:71]) + "…"
		}
		o := templates.Option{Value: e.Name, Label: label}
		if slices.ContainsFunc(t.EntityTypes, func(et designer.EntityType) bool { return et.Entity == e.Name }) {
			listed = append(listed, o)
		} else {
			others = append(others, o)
		}
	}
	f.Options = append(listed, others...)
	return f
}

// commentBadge is the comment button of the element at target, with its count of open comments.
func commentBadge(d *designContext, target string) templates.CommentBadge {
	design := d.Record.Design
	open := designer.OpenCommentCount(design, target)
	label := "Comments on " + designer.CommentTargetLabel(design, target)
	if open > 0 {
		label += ", " + strconv.Itoa(open) + " open"
	}
	return templates.CommentBadge{
		ID:     elemID("comments", target),
		Target: target,
		Href:   commentsHref(d, target),
		Open:   open,
		Label:  label,
	}
}

var (
	attributeTypeOptions = func() []templates.Option {
		opts := make([]templates.Option, 0, len(designer.Types))
		for _, t := range designer.Types {
			opts = append(opts, templates.Option{Value: string(t), Label: string(t)})
		}
		return opts
	}()
	kindOptions = []templates.Option{
		{Value: designer.OneToOne, Label: "1:1"}, {Value: designer.OneToMany, Label: "1:M"}, {Value: designer.ManyToMany, Label: "M:M"},
	}
)

var (
	keyTypeOptions     = []templates.Option{{Value: "S", Label: "S"}, {Value: "N", Label: "N"}, {Value: "B", Label: "B"}}
	sortKeyTypeOptions = []templates.Option{{Value: "", Label: "—"}, {Value: "S", Label: "S"}, {Value: "N", Label: "N"}, {Value: "B", Label: "B"}}
	billingOptions     = []templates.Option{{Value: designer.OnDemand, Label: "On-demand"}, {Value: designer.Provisioned, Label: "Provisioned"}}
	// tableClassOptions: "" is Standard, the default, so choosing it keeps the table at the default.
	tableClassOptions = []templates.Option{{Value: "", Label: designer.TableClassName("")},
		{Value: designer.StandardIAClass, Label: designer.TableClassName(designer.StandardIAClass)}}
	projectionOptions = []templates.Option{{Value: designer.KeysOnly, Label: "KEYS_ONLY"}, {Value: designer.Include, Label: "INCLUDE"}, {Value: designer.All, Label: "ALL"}}
	yesNoOptions      = []templates.Option{{Value: "no", Label: "No"}, {Value: "yes", Label: "Yes"}}
	// tableNoteFields are the free-text fields of a table, in the order its notes show them.
	tableNoteFields = []designer.Field[designer.Table]{
		designer.TableField.Purpose,
		designer.TableField.AggregateBoundary,
		designer.TableField.PartitionKeyJustification,
		designer.TableField.SortKeyJustification,
		designer.TableField.BoundedReadStrategy,
		designer.TableField.CapacityNotes,
	}
)

func sortKeyPart(t designer.Table, typ bool) string {
	switch {
	case t.SortKey == nil:
		return ""
	case typ:
		return string(t.SortKey.Type)
	}
	return t.SortKey.Name
}

// shownTableField is a field of designer.TableFields as a table's form shows it.
func shownTableField(f designer.Field[designer.Table], kind string, options []templates.Option) tableField {
	return tableField{f.Key, f.Heading(), kind, options, f.Get}
}

// tableClassField is the table's class, Standard shown for both the default and STANDARD spelt out.
func tableClassField() tableField {
	f := shownTableField(designer.TableField.TableClass, "select", tableClassOptions)
	f.value = func(t designer.Table) string {
		if t.TableClass == designer.StandardClass {
			return ""
		}
		return t.TableClass
	}
	return f
}

func isTableKey(t designer.Table, name string) bool {
	return t.PartitionKey.Name == name || t.SortKey != nil && t.SortKey.Name == name
}

// undeclaredAttributes are the attributes of entity e that table t neither declares nor keys on.
func undeclaredAttributes(t designer.Table, e designer.Entity) []designer.BulkAttribute {
	var out []designer.BulkAttribute
	for _, a := range e.Attributes {
		if _, _, declared := t.AttributeByName(a.Name); !declared && !isTableKey(t, a.Name) {
			out = append(out, designer.BulkAttribute{Name: a.Name, Type: a.Type})
		}
	}
	return out
}

func commentsHref(d *designContext, target string) string {
	return "/d/" + d.Token + "/comments?target=" + url.QueryEscape(target)
}

// elemID builds an HTML id from parts. Parts that are not plain ASCII words are hashed, so user
// text never ends up in an id or a CSS selector.
func elemID(prefix string, parts ...string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, p := range parts {
		b.WriteByte('-')
		if plainWord(p) {
			b.WriteString(p)
		} else {
			sum := sha256.Sum256([]byte(p))
			b.WriteString("h" + hex.EncodeToString(sum[:5]))
		}
	}
	return b.String()
}

func plainWord(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// vals encodes extra form values for a cell's hx-vals.
func vals(kv ...string) string {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}
