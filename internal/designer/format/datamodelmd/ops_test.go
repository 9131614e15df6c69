package datamodelmd

import (
	"testing"

	"dynaloom/internal/designer"
)

func TestImport_mappingFillsOperationsAndKeepsTheCell(t *testing.T) {
	t.Parallel()
	md := "# DynamoDB Data Model\n\n## Table Designs\n\n### Orders Table\n\n| order_id | status |\n|---|---|\n| O1 | OPEN |\n\n" +
		"- **Partition Key**: order_id - unique\n- **Sort Key**: None\n\n## Access Pattern Mapping\n\n" +
		"| Pattern | Description | Tables/Indexes | DynamoDB Operations | Implementation Notes |\n|---|---|---|---|---|\n" +
		"| 1 | Get an order | Orders | GetItem on Orders | by id |\n" +
		"| 2 | Orders by status | ByStatus | Query ByStatus: status = :s | newest first |\n"
	d, _, err := Import([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]designer.Operation{}
	for _, p := range d.Patterns {
		if len(p.Mapping.Operations) != 1 || p.Mapping.Source == "" {
			t.Fatalf("pattern %d: operations %+v, source %q", p.Number, p.Mapping.Operations, p.Mapping.Source)
		}
		got[p.Number] = p.Mapping.Operations[0]
	}
	if got[1].Op != "GetItem" || got[1].Table != "Orders" {
		t.Fatalf("pattern 1 read as %+v", got[1])
	}
	if got[2].Op != "Query" || got[2].KeyCondition != "status = :s" {
		t.Fatalf("pattern 2 read as %+v", got[2])
	}
}
