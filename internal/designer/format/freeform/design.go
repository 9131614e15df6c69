package freeform

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"dynaloom/internal/designer"
)

// design builds the design from what was read, noting each element with its line and what was
// taken because the document did not say it.
func (r *reader) design() designer.Design {
	d := designer.Design{Format: designer.Format, Name: "Imported design"}
	if r.title != "" {
		d.Name = designer.TruncateRunes(r.title, designer.MaxNameLen)
	}
	for i, td := range r.tables {
		d.Tables = append(d.Tables, r.buildTable(td, i))
	}
	names := newNames(d.Tables, r.tables)
	for _, e := range r.entities {
		d.Entities = append(d.Entities, designer.Entity{Name: e.name, Attributes: e.attrs})
		if len(e.untyped) > 0 {
			r.note(e.line, "entity %s: %s state no type and were read as S (string)", e.name, strings.Join(e.untyped, ", "))
		}
	}
	for i, p := range r.patterns {
		pt := designer.Pattern{ID: "ap" + strconv.Itoa(i+1), Number: i + 1, Description: p.description, Status: designer.StatusOpen}
		op, ok, said := operation(p, d.Tables, names)
		pt.Mapping.Source = p.how
		pt.Mapping.Notes = strings.Join(p.notes, "\n")
		if ok {
			pt.Mapping.Operations = append([]designer.Operation{op}, moreOperations(p, op)...)
			pt.Type = designer.Read
			for _, o := range pt.Mapping.Operations {
				if designer.IsWriteOp(o.Op) {
					pt.Type = designer.Write
				}
			}
			where := op.Table
			if op.Index != "" {
				where += " index " + op.Index
			}
			msg := fmt.Sprintf("access pattern %d %q: %s on %s", pt.Number, pt.Description, op.Op, where)
			for _, o := range pt.Mapping.Operations[1:] {
				msg += ", then " + o.Op + " on " + o.Table
			}
			if op.KeyCondition != "" {
				msg += " where " + op.KeyCondition
			}
			if said != "" {
				msg += " (" + said + ")"
			}
			r.note(p.line, "%s", msg)
		} else {
			if pt.Mapping.Notes == "" {
				pt.Mapping.Notes = p.how
			}
			if byTTL().MatchString(p.description + " " + p.how) {
				// Expired items are deleted by DynamoDB itself: no request of the application
				// serves the pattern, which is what "served outside" says.
				pt.Status = designer.StatusOutside
				pt.Mapping.Notes = strings.TrimSpace("Served by the table's TTL: DynamoDB deletes expired items itself, with no request. " + pt.Mapping.Notes)
				r.note(p.line, "access pattern %d %q: served by TTL, so marked as served outside the application's requests; its text was kept in the mapping notes", pt.Number, pt.Description)
			} else {
				r.note(p.line, "access pattern %d %q: no operation is stated; its text was kept in the mapping notes", pt.Number, pt.Description)
			}
		}
		d.Patterns = append(d.Patterns, pt)
	}
	d.Prose.Sections = r.prose
	if len(r.prose) > 0 {
		r.note(0, "the document's text was also kept as prose under its %d headings", len(r.prose))
	}
	return d
}

// byTTL finds a pattern served by the table's time to live.
var byTTL = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bTTL\b|\btime[ -]to[ -]live\b`) })

func (r *reader) buildTable(td *tableDraft, i int) designer.Table {
	name := td.name
	if name == "" {
		name = "Table"
		if r.title != "" {
			name = designer.TruncateRunes(strings.Join(strings.Fields(strings.NewReplacer(",", " ", "(", " ", ")", " ").Replace(r.title)), "-"), designer.MaxNameLen)
		}
		if i > 0 {
			name += "-" + strconv.Itoa(i+1)
		}
		r.note(td.line, "no table name is stated; the table is called %s after the document's title", name)
	}
	t := designer.Table{Name: name, BillingMode: td.billing, TTLAttribute: td.ttl}
	if td.billing == "" {
		t.BillingMode = designer.OnDemand
		r.note(td.line, "table %s: no billing mode is stated; on-demand was taken", name)
	}
	pk := td.pk
	if pk.name == "" {
		pk.name = "PK"
		r.note(td.line, "table %s: no partition key is stated; it is called PK", name)
	}
	t.PartitionKey = designer.KeyAttribute{Name: pk.name, Type: orS(pk.typ)}
	if td.sk.name != "" {
		t.SortKey = &designer.KeyAttribute{Name: td.sk.name, Type: orS(td.sk.typ)}
	}
	keyType := func(attr string) designer.Type {
		switch attr {
		case t.PartitionKey.Name:
			return t.PartitionKey.Type
		case td.sk.name:
			return t.SortKey.Type
		}
		return designer.S
	}
	for _, et := range td.types {
		t.EntityTypes = append(t.EntityTypes, designer.EntityType{Entity: et.entity, PKTemplate: et.pk, SKTemplate: et.sk, Description: indexTemplates(et.index)})
	}
	declared := map[string]bool{}
	declare := func(name string, typ designer.Type, desc string) {
		if !declared[name] {
			declared[name] = true
			t.Attributes = append(t.Attributes, designer.Attribute{Name: name, Type: typ, Description: desc})
		}
	}
	declare(t.PartitionKey.Name, t.PartitionKey.Type, "partition key")
	if t.SortKey != nil {
		declare(t.SortKey.Name, t.SortKey.Type, "sort key")
	}
	for _, ix := range td.indexes {
		x := designer.Index{Name: ix.name, Projection: designer.Projection{Type: ix.projection, Attributes: ix.include}, Purpose: ix.purpose}
		if ix.alias != "" {
			x.Purpose = strings.TrimSpace("Also called " + ix.alias + ". " + ix.purpose)
		}
		var whys [2][]string
		for _, k := range ix.pk {
			x.PartitionKey = append(x.PartitionKey, designer.KeyAttribute{Name: k.attr, Type: keyType(k.attr)})
			whys[0] = appendWhy(whys[0], k)
		}
		for _, k := range ix.sk {
			x.SortKey = append(x.SortKey, designer.KeyAttribute{Name: k.attr, Type: keyType(k.attr)})
			whys[1] = appendWhy(whys[1], k)
		}
		x.PartitionKeyWhy, x.SortKeyWhy = strings.Join(whys[0], "\n"), strings.Join(whys[1], "\n")
		for _, k := range append(slices.Clone(x.PartitionKey), x.SortKey...) {
			declare(k.Name, k.Type, "key of "+ix.name)
		}
		kind := "GSI"
		if ix.local {
			kind = "LSI"
			x.PartitionKey = nil
		}
		keys := describeKeys(x)
		if x.Projection.Type == "" {
			x.Projection.Type = designer.All
			keys += "; no projection is stated, ALL was taken"
		} else {
			keys += "; projection " + x.Projection.Type
		}
		also := ""
		if ix.alias != "" {
			also = " (also called " + ix.alias + ")"
		}
		r.note(ix.line, "%s %s%s of %s: %s", kind, ix.name, also, name, keys)
		if ix.local {
			t.LSIs = append(t.LSIs, x)
		} else {
			t.GSIs = append(t.GSIs, x)
		}
	}
	for j, it := range td.items {
		t.Items = append(t.Items, designer.SampleItem{ID: "i" + strconv.Itoa(j+1), Item: it})
	}
	return t
}

func appendWhy(whys []string, k keyPart) []string {
	if k.why == "" {
		return whys
	}
	return append(whys, "`"+k.attr+"` = "+k.why)
}

func describeKeys(x designer.Index) string {
	names := func(ks []designer.KeyAttribute) string {
		var out []string
		for _, k := range ks {
			out = append(out, k.Name)
		}
		return strings.Join(out, " + ")
	}
	s := "partition key " + names(x.PartitionKey)
	if len(x.PartitionKey) == 0 {
		s = "no partition key stated"
	}
	if len(x.SortKey) > 0 {
		s += ", sort key " + names(x.SortKey)
	}
	return s
}

func orS(t designer.Type) designer.Type {
	if t == "" {
		return designer.S
	}
	return t
}

// indexTemplates joins an entity type's index key templates by index: "GSI1: GSI1PK = A,
// GSI1SK = B; GSI2: …".
func indexTemplates(entries []indexTemplate) string {
	var out []string
	var last *indexDraft
	for _, e := range entries {
		key := e.attr + " = " + e.template
		if e.ix == last && len(out) > 0 {
			out[len(out)-1] += ", " + key
			continue
		}
		out, last = append(out, e.ix.name+": "+key), e.ix
	}
	return strings.Join(out, "; ")
}
