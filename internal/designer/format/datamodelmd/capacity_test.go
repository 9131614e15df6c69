package datamodelmd

import (
	"bytes"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/designer/designertest"
)

// A key's line in the seeds' own form, with the figures a reader checks by hand: 120 RPS over
// 40,000 customers is 0.003 RPS per partition.
func TestHotLine_inTheSeedsForm(t *testing.T) {
	for _, c := range []struct {
		name string
		k    capacity.KeyLoad
		want string
	}{
		{"spread", capacity.KeyLoad{Table: "Orders", Attribute: "customer_id", Skew: 2, RCU: 0.012,
			Cardinality: capacity.Cardinality{Values: 40000, Known: true, Source: "40,000 customers (entity count)"},
			Shares:      []capacity.KeyShare{{Pattern: "ap1", PeakRPS: 100, Units: 100}, {Pattern: "ap1", Position: 1, PeakRPS: 100}, {Pattern: "ap2", PeakRPS: 20}}},
			"- **Orders** (customer_id): 120 RPS across 40,000 customers (entity count) = 0.003 RPS per partition; hottest value 0.012 RCU/s + 0 WCU/s at skew 2, 0.0004% of one partition's 3,000 RCU / 1,000 WCU ✅"},
		{"over", capacity.KeyLoad{Table: "Orders", Index: "ByStatus", Attribute: "status", Skew: 2, RCU: 4000,
			Cardinality: capacity.Cardinality{Values: 4, Known: true, Source: "4 distinct values of status in the sample items"},
			Shares:      []capacity.KeyShare{{Pattern: "ap3", PeakRPS: 2000, Values: 4, Units: 8000, OnHottest: 4000}}},
			"- **ByStatus** (status): 2,000 RPS across 4 distinct values of status in the sample items = 500 RPS per partition; hottest value 4,000 RCU/s + 0 WCU/s at skew 2, 133.33% of one partition's 3,000 RCU / 1,000 WCU ❌"},
		// Under zipf s = 1 the hottest of 4 statuses takes 12/25 of 3,000 WCU/s, 1,440: 2 shards of 720 fit.
		{"over under zipf, sharded", capacity.KeyLoad{Table: "Orders", Index: "ByStatus", Attribute: "status", Skew: 2, WCU: 1440,
			Model:       capacity.HotModel{Name: designer.HotKeyZipf, S: 1},
			Cardinality: capacity.Cardinality{Values: 4, Known: true, Source: "4 distinct values of status in the sample items"},
			Shares:      []capacity.KeyShare{{Pattern: "ap5", Write: true, PeakRPS: 3000, Values: 4, Units: 3000, OnHottest: 1440}}},
			"- **ByStatus** (status): 3,000 RPS across 4 distinct values of status in the sample items = 750 RPS per partition; hottest value 0 RCU/s + 1,440 WCU/s under zipf s = 1, 144% of one partition's 3,000 RCU / 1,000 WCU; write-shard into 2 shards ({status}#{shard}, shard = hash(item id) % 2), $0.00 a month more on reads ❌"},
		{"not counted", capacity.KeyLoad{Table: "Events", Attribute: "channel", Skew: 2,
			Cardinality: capacity.Cardinality{Source: "not known: nothing says how many values channel takes"},
			Shares:      []capacity.KeyShare{{Pattern: "ap4", PeakRPS: 5}}},
			"- **Events** (channel): 5 RPS across values not counted (not known: nothing says how many values channel takes); the load on its hottest value is not known until its values are counted"},
		{"idle", capacity.KeyLoad{Table: "Audit", Attribute: "id", Cardinality: capacity.Cardinality{Source: "x"}},
			"- **Audit** (id): no pattern reads or writes it ✅"},
	} {
		if got := hotLine(c.k, capacity.DefaultPrices); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, c.want)
		}
	}
}

// The Cost Report is in the MCP calculator's current layout (as compute_performances_and_costs
// writes it into dynamodb_data_model.md): a bold total, a "**Monthly Cost:**" line per part and per
// resource, one "RRU / WRU" column, index writes marked ¹ with the footnote. Its detail rows give
// the calculator's own formula (units × RPS × 2,635,200 s × price) to the cent: a GetItem of 0.5
// RRU at 100 RPS is $16.47 a month, a PutItem of 1 WRU at 12.5 RPS $20.59, and an update's write
// to a GSI, 1 WRU at 3 RPS, $4.94.
func TestCostReport_inTheCalculatorsLayout(t *testing.T) {
	sk := designer.KeyAttribute{Name: "sk", Type: designer.S}
	d := designer.Design{Tables: []designer.Table{{Name: "Employee", PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S}, SortKey: &sk,
		GSIs: []designer.Index{{Name: "ByDept", PartitionKey: []designer.KeyAttribute{{Name: "dept", Type: designer.S}}, Projection: designer.Projection{Type: designer.All}}}}}}
	table := capacity.Cost{Reads: 16.4700, Writes: 20.5875, Storage: 0.0210}
	gsi := capacity.Cost{IndexWrites: 4.9410, Storage: 0.0070}
	r := capacity.Report{Prices: capacity.DefaultPrices,
		Patterns: []capacity.PatternLoad{
			{ID: "ap1", Number: 1, Description: "Get an employee", AvgRPS: 100, Operations: []capacity.OperationLoad{{Op: "GetItem", Table: "Employee", ReadUnits: 0.5}}},
			{ID: "ap2", Number: 13, Description: "Hire", AvgRPS: 12.5, Operations: []capacity.OperationLoad{{Op: "PutItem", Table: "Employee", WriteUnits: 1}}},
			{ID: "ap3", Number: 14, Description: "Move", AvgRPS: 3, Operations: []capacity.OperationLoad{{Op: "UpdateItem", Table: "Employee",
				IndexWrites: []capacity.IndexWriteLoad{{Index: "ByDept", Writes: 1, Units: 1}}}}},
		},
		Resources: []capacity.Resource{
			{Table: "Employee", Kind: capacity.KindTable, Prices: capacity.DefaultPrices, OnDemand: table, Storage: capacity.Storage{GB: 0.084}},
			{Table: "Employee", Index: "ByDept", Kind: capacity.KindGSI, Prices: capacity.DefaultPrices, OnDemand: gsi, Storage: capacity.Storage{GB: 0.0028}},
		},
		Total: capacity.Total{OnDemand: capacity.Cost{Reads: table.Reads, Writes: table.Writes, IndexWrites: gsi.IndexWrites, Storage: table.Storage + gsi.Storage}},
	}
	w := writer{d: d}
	w.costReportOf(r)
	out := w.buf.String()
	_, body, _ := strings.Cut(out, "\n**Total Monthly Cost:")
	want := ` $42.03**

| Source | Monthly Cost |
|---|---|
| Storage | $0.03 |
| Read and write requests | $42.00 |

### Storage Costs

**Monthly Cost:** $0.03

| Resource | Type | Storage (GB) | Monthly Cost |
|---|---|---|---|
| Employee | Table | 0.08 | $0.02 |
| ByDept | GSI | 0.0028 | $0.01 |

### Read and Write Request Costs

**Monthly Cost:** $42.00

| Resource | Type | Monthly Cost |
|---|---|---|
| Employee | Table | $37.06 |
| ByDept | GSI | $4.94 |

#### Employee Table

**Monthly Cost:** $37.06

| Pattern | Operation | RPS | RRU / WRU | Monthly Cost |
|---|---|---|---|---|
| 1 | GetItem | 100.0 | 0.50 | $16.47 |
| 13 | PutItem | 12.5 | 1.00 | $20.59 |

#### Employee Table / ByDept GSI

**Monthly Cost:** $4.94

| Pattern | Operation | RPS | RRU / WRU | Monthly Cost |
|---|---|---|---|---|
| 14¹ | UpdateItem | 3.0 | 1.00 | $4.94 |

¹ **GSI additional writes** - `
	if !strings.HasPrefix(body, want) {
		t.Errorf("the report after its disclaimer:\n%s\nwant it to begin\n%s", body, want)
	}
	if !strings.HasPrefix(out, "\n## Cost Report\n\n"+costComputedMark+"\n> **Disclaimer:** ") || !strings.HasSuffix(out, "\n"+costReportEnd+"\n") {
		t.Errorf("the block is not opened by its heading, mark and disclaimer and closed by the end marker:\n%s", out)
	}
	if !strings.Contains(out, "a delete and a put: DynamoDB bills 2 writes") {
		t.Errorf("the footnote does not say how a key change is counted:\n%s", out)
	}
}

// Two tables with an index of the same name: the summary tables name each index with its table.
func TestCostReport_sameIndexNameOnTwoTables(t *testing.T) {
	labels := resourceLabels([]capacity.Resource{{Table: "A"}, {Table: "A", Index: "ByDate"}, {Table: "B"}, {Table: "B", Index: "ByDate"}, {Table: "B", Index: "ByOwner"}})
	if got := strings.Join(labels, ", "); got != "A, A / ByDate, B, B / ByDate, ByOwner" {
		t.Errorf("labels = %s", got)
	}
}

// The export states the computed figures — a line per table's and GSI's partition key above the
// team's prose, and a Cost Report in the calculator's layout at the end — and importing the export
// leaves both out, so that exports from then on are the same bytes and never hold them twice.
func TestExport_computedFiguresAreNotReadBack(t *testing.T) {
	d := designertest.HRDesign(t)
	out := Export(d)
	_, hot, _ := strings.Cut(string(out), "## Hot Partition Analysis\n")
	hot, _, _ = strings.Cut(hot, "\n## ")
	keys := 0
	for _, tb := range d.Tables {
		keys += 1 + len(tb.GSIs)
		for _, name := range append([]string{tb.Name}, indexNames(tb.GSIs)...) {
			if !strings.Contains(hot, "\n- **"+name+"** (") {
				t.Errorf("no computed line for %s:\n%s", name, hot)
			}
		}
	}
	block, prose, ok := strings.Cut(hot, computedEnd+"\n")
	if !ok || strings.Count(block, "\n- **") != keys || !strings.Contains(prose, strings.TrimSpace(d.Prose.HotPartitions)[:40]) {
		t.Errorf("want %d computed lines, then the team's prose:\n%s", keys, hot)
	}
	_, report, _ := strings.Cut(string(out), "\n## Cost Report\n")
	var heads []string
	for l := range strings.SplitSeq(report, "\n") {
		if strings.HasPrefix(l, "### ") || strings.HasPrefix(l, "**Total Monthly Cost: $") {
			heads = append(heads, strings.TrimRight(l, "0123456789.*"))
		}
	}
	if strings.Join(heads, "|") != "**Total Monthly Cost: $|### Storage Costs|### Read and Write Request Costs" {
		t.Errorf("Cost Report sections %v, want the calculator's", heads)
	}

	got, notes, err := Import(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Prose.CostReport != "" || got.Prose.HotPartitions != d.Prose.HotPartitions {
		t.Errorf("read back: cost report %q, hot partitions %q", got.Prose.CostReport, got.Prose.HotPartitions)
	}
	if !designertest.HasNote(notes, "Dynaloom's own Cost Report") || !designertest.HasNote(notes, "computed hot-partition figures") {
		t.Errorf("no note says the computed parts were left out: %v", notes)
	}
	// The data model alone does not hold all the requirement does (the checklist's last line), so
	// the fixed point is from the first import on.
	again := Export(got)
	back, _, err := Import(again)
	if err != nil {
		t.Fatal(err)
	}
	if third := Export(back); !bytes.Equal(third, again) {
		t.Errorf("export → import → export changed:\n%s", designertest.FirstDifference(again, third))
	}
	if bytes.Count(again, []byte("## Cost Report")) != 1 || bytes.Count(again, []byte(hotComputedStart)) != 1 {
		t.Error("a computed part is written twice")
	}
}

func indexNames(ixs []designer.Index) []string {
	var out []string
	for _, ix := range ixs {
		out = append(out, ix.Name)
	}
	return out
}
