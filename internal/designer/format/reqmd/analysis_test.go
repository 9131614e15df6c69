package reqmd

import (
	"testing"
)

// The prose forms of the seed: a plural aggregate heading, a size and identifying answers in
// words, the Identifying Relationship Check's statement about a child, and a count written with
// its unit among the team's words.
func TestImport_proseFormsOfTheAnalysis(t *testing.T) {
	t.Parallel()
	doc := `# DynamoDB Modeling Session

## Entity Relationships Deep Dive
- **User → Order**: 1:Many (busy shops, avg 4 per year, up to 20 a year)
- **User → Review**: 1:Many (about 3 reviews per user)

## Enhanced Aggregate Analysis

### User + Orders Item Collection Analysis
- **Size Constraints**: User 2KB + 5 recent orders 15KB = 17KB total, bounded growth
- **Identifying Relationship**: Orders cannot exist without Users, always have user_id when querying orders
- **Decision**: Item Collection

### Identifying Relationship Check
- **Reviews**: identified by their user, so the user is the partition key of Reviews

## Table Consolidation Analysis

### Consolidation Candidates Review
| Parent | Child | Relationship | Access Overlap | Consolidation Decision | Justification |
|--------|-------|--------------|----------------|------------------------|---------------|
| User | Review | 1:Many | 20% | ❌ Separate | read alone |
`
	d, _, err := Import([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r := d.Relationships
	if got := r[0].Counts(); got != "avg 4 per year, max 20 a year" {
		t.Errorf("User → Order counts %q, want the units kept", got)
	}
	if got := r[1].Counts(); got != "avg 3 reviews per user" {
		t.Errorf("User → Review counts %q, want the unit kept", got)
	}
	a := d.Aggregates[0]
	if a.EntityA != "User" || a.EntityB != "Order" {
		t.Errorf("aggregate %s + %s, want User + Order as the relationships read Orders", a.EntityA, a.EntityB)
	}
	if a.CombinedKB == nil || *a.CombinedKB != 17 || a.Bounded == nil || !*a.Bounded {
		t.Errorf("size %v KB, bounded %v; want 17 KB, bounded", a.CombinedKB, a.Bounded)
	}
	if id := a.Identifying; id.ChildIndependent == nil || *id.ChildIndependent || id.ParentIDKnown == nil || !*id.ParentIDKnown || id.SeparateTablePlanned != nil {
		t.Errorf("identifying = %s", identifyingText(id))
	}
	if c := d.Consolidations[0]; c.Identifying == nil || !*c.Identifying {
		t.Errorf("User → Review identifying %v, want the check's statement read", c.Identifying)
	}
	if _, _, ok := d.EntityByName("Reviews"); ok {
		t.Error("Reviews became an entity of its own")
	}
}
