package designer

import (
	"errors"
	"strings"
	"testing"
)

// fieldsDesign has one row of every kind a field table sets, and what their fields refer to.
func fieldsDesign(tb testing.TB) Design {
	tb.Helper()
	return Normalize(Design{
		Name:          "Fields",
		Entities:      []Entity{{Name: "User"}, {Name: "Order"}, {Name: "Invoice"}},
		Relationships: []Relationship{{ID: "r1", From: "User", To: "Order", Kind: OneToMany}},
		Patterns: []Pattern{
			{ID: "ap1", Number: 1, Description: "Orders of a user", Type: Read, Mapping: Mapping{Operations: []Operation{
				{Op: "TransactWriteItems", Table: "Orders"},
			}}},
			{ID: "ap2", Number: 2, Description: "One order", Type: Read},
		},
		Aggregates:     []AggregateAnalysis{{ID: "ag1", EntityA: "User", EntityB: "Order"}},
		Consolidations: []ConsolidationReview{{ID: "cr1", Parent: "User", Child: "Order"}},
		Tables: []Table{{
			Name:         "Orders",
			PartitionKey: KeyAttribute{Name: "pk", Type: S},
			SortKey:      &KeyAttribute{Name: "sk", Type: S},
			Attributes:   []Attribute{{Name: "pk", Type: S}, {Name: "sk", Type: S}, {Name: "status", Type: S}},
			EntityTypes:  []EntityType{{Entity: "Order", PKTemplate: "USER#{user_id}"}},
			GSIs: []Index{{Name: "ByStatus", PartitionKey: []KeyAttribute{{Name: "status", Type: S}},
				Projection: Projection{Type: All}}},
		}},
	})
}

// checkFields checks a row kind's field table through the change that sets it: every field has a
// key, a label and a heading of its own, a sample value set by the change reads back unchanged from Get, and
// the change refuses a key no field has, naming it.
func checkFields[R any](t *testing.T, fields []Field[R], samples map[string]string, change func(key, value string) Change, row func(Design) R) {
	t.Helper()
	keys, labels, headings := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range fields {
		if f.Key == "" || f.Label == "" || f.Get == nil || f.set == nil {
			t.Errorf("field %q (label %q) is missing its key, label, Get or set", f.Key, f.Label)
		}
		if keys[f.Key] || labels[f.Label] || headings[f.Heading()] {
			t.Errorf("field %q (label %q, heading %q) repeats a key, a label or a heading", f.Key, f.Label, f.Heading())
		}
		keys[f.Key], labels[f.Label], headings[f.Heading()] = true, true, true
		sample, ok := samples[f.Key]
		if !ok {
			t.Errorf("field %q has no sample value in this test", f.Key)
			continue
		}
		after, err := change(f.Key, sample).Apply(fieldsDesign(t))
		if err != nil {
			t.Errorf("setting %s to %q: %v", f.Key, sample, err)
			continue
		}
		if got := f.Get(row(after)); got != sample {
			t.Errorf("%s set to %q reads %q", f.Key, sample, got)
		}
	}
	for key := range samples {
		if !keys[key] {
			t.Errorf("sample for %q, which is no field", key)
		}
	}
	_, err := change("colour", "red").Apply(fieldsDesign(t))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "field" || !strings.Contains(ve.Message, `"colour"`) {
		t.Errorf("an unknown field gives %v, want a refusal of field naming \"colour\"", err)
	}
}

func TestFieldTables(t *testing.T) {
	t.Parallel()
	t.Run("overview", func(t *testing.T) {
		checkFields(t, OverviewFields, map[string]string{
			"domain": "Shop", "key_entities": "User (1:M) Order", "business_context": "EU only", "scale": "10k users", "notes": "none yet",
		}, func(k, v string) Change { return SetOverviewField{Field: k, Value: v} },
			func(d Design) Overview { return d.Overview })
	})
	t.Run("relationships", func(t *testing.T) {
		checkFields(t, RelationshipFields, map[string]string{
			"from": "Invoice", "to": "Invoice", "kind": ManyToMany, "avg_count": "12", "max_count": "3000", "notes": "grows",
		}, func(k, v string) Change { return SetRelationshipField{ID: "r1", Field: k, Value: v} },
			func(d Design) Relationship { return d.Relationships[0] })
	})
	t.Run("patterns", func(t *testing.T) {
		checkFields(t, PatternFields, map[string]string{
			"number": "7", "description": "Orders by date", "type": Write, "peak_rps": "1500.5", "avg_rps": "20", "conditional_failure_pct": "2.5",
			"attributes": "status, total", "latency_slo": "<20 ms p99", "consistency": Strong, "result_bound": "50",
			"item_size_band": "1-4 KB", "key_notes": "by date", "considerations": "hot at noon", "status": StatusAtRisk,
			"entities": "Order, User",
		}, func(k, v string) Change { return SetPatternField{ID: "ap1", Field: k, Value: v} },
			func(d Design) Pattern { p, _, _ := d.PatternByID("ap1"); return p })
	})
	t.Run("operations", func(t *testing.T) {
		checkFields(t, OperationFields, map[string]string{
			"op": "BatchWriteItem", "table": "Orders", "index": "ByStatus", "key_condition": "pk = :p", "filter": "#s = :s",
			"projection": "pk, sk", "condition": "attribute_exists(pk)", "update": "SET #s = :s", "limit": "5", "direction": "desc", "consistent": "yes", "names": "#s=status",
			"values": ":p=USER#1, :s=open", "action": ActionConditionCheck, "notes": "one round trip",
		}, func(k, v string) Change { return SetOperationField{Pattern: "ap1", Index: 0, Field: k, Value: v} },
			func(d Design) Operation { p, _, _ := d.PatternByID("ap1"); return p.Mapping.Operations[0] })
	})
	t.Run("aggregates", func(t *testing.T) {
		checkFields(t, AggregateFields, map[string]string{
			"entity_a": "Invoice", "entity_b": "Invoice", "correlation_pct": "85", "only_a_pct": "10", "only_b_pct": "5",
			"both_pct": "85", "size_constraints": "under 400 KB", "combined_kb": "12.5", "bounded": "yes",
			"update_patterns": "rarely", "child_independent": "no", "parent_id_known": "yes", "separate_table_planned": "no",
			"decision": ItemCollection, "justification": "read together",
		}, func(k, v string) Change { return SetAggregateField{ID: "ag1", Field: k, Value: v} },
			func(d Design) AggregateAnalysis { return d.Aggregates[0] })
	})
	t.Run("consolidations", func(t *testing.T) {
		checkFields(t, ConsolidationFields, map[string]string{
			"parent": "Invoice", "child": "Invoice", "relationship": "1:M", "overlap_pct": "60", "bounded": "no",
			"identifying": "yes", "decision": Consolidate, "justification": "same reads",
		}, func(k, v string) Change { return SetConsolidationField{ID: "cr1", Field: k, Value: v} },
			func(d Design) ConsolidationReview { return d.Consolidations[0] })
	})
	t.Run("considerations", func(t *testing.T) {
		checkFields(t, ConsiderationFields, map[string]string{
			"hot_partitions": "status=open", "gsi_projections": "keys only", "sparse_gsis": "flagged", "item_collections": "orders",
			"multi_entity_queries": "user + orders", "denormalization": "user name",
		}, func(k, v string) Change { return SetConsideration{Field: k, Value: v} },
			func(d Design) Considerations { return d.Considerations })
	})
	t.Run("prose", func(t *testing.T) {
		checkFields(t, ProseFields, map[string]string{
			"design_philosophy": "aggregates first", "aggregate_decisions": "orders with items", "hot_partition_analysis": "spread by user",
			"trade_offs": "storage for reads",
		}, func(k, v string) Change { return SetProse{Field: k, Value: v} },
			func(d Design) Prose { return d.Prose })
	})
	t.Run("tables", func(t *testing.T) {
		checkFields(t, TableFields, map[string]string{
			"purpose": "orders", "aggregate_boundary": "a user", "partition_key_justification": "spreads",
			"sort_key_justification": "by date", "bounded_read_strategy": "limit 50", "capacity_notes": "small",
			"ttl_attribute": "expires_at", "billing_mode": Provisioned, "table_class": StandardIAClass, "read_capacity_units": "5", "write_capacity_units": "10",
		}, func(k, v string) Change { return SetTableField{Table: "Orders", Field: k, Value: v} },
			func(d Design) Table { return d.Tables[0] })
	})
	t.Run("entity types", func(t *testing.T) {
		checkFields(t, EntityTypeFields, map[string]string{
			"entity": "Invoice", "pk_template": "INV#{id}", "sk_template": "#META", "description": "the invoice",
		}, func(k, v string) Change { return SetEntityTypeField{Table: "Orders", Index: 0, Field: k, Value: v} },
			func(d Design) EntityType { return d.Tables[0].EntityTypes[0] })
	})
	t.Run("indexes", func(t *testing.T) {
		checkFields(t, IndexFields, map[string]string{
			"purpose": "by status", "partition_key_justification": "few values", "sort_key_justification": "none",
			"projection_justification": "all", "sparse": "yes", "sparse_note": "open orders only", "capacity_notes": "hot",
		}, func(k, v string) Change { return SetIndexField{Table: "Orders", Index: "ByStatus", Field: k, Value: v} },
			func(d Design) Index { ix, _, _, _ := d.Tables[0].IndexByName("ByStatus"); return ix })
	})
}

func TestField_headingIsTheTitleElseTheLabelWithACapital(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		f    Field[Table]
		want string
	}{
		{TableField.Purpose, "Purpose"},
		{TableField.TTLAttribute, "TTL attribute"},
		{TableField.CapacityNotes, "Capacity planning"},
	} {
		if got := tt.f.Heading(); got != tt.want {
			t.Errorf("%s heads %q, want %q", tt.f.Key, got, tt.want)
		}
	}
}

func TestOverviewFields_allAddressable(t *testing.T) {
	t.Parallel()
	var o Overview
	for _, f := range OverviewFields {
		if err := f.set(&Design{}, &o, f.Key, f.Key); err != nil {
			t.Fatalf("OverviewFields cannot set %q: %v", f.Key, err)
		}
	}
	if o.Domain != "domain" || o.KeyEntities != "key_entities" || o.BusinessContext != "business_context" ||
		o.Scale != "scale" || o.Notes != "notes" {
		t.Errorf("OverviewFields point at the wrong members: %+v", o)
	}
}
