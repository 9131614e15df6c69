package datamodelmd

import (
	"fmt"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/designer/format/markdown"
)

// The export states what the capacity report computes (docs/markdown.md "Computed figures"):
// under "Hot Partition Analysis" one line per table's and GSI's partition key in the seeds' own
// form ("- **Orders**: 120 RPS across 40,000 customers = 0.003 RPS per partition ✅"), above the
// team's prose; and at the end a "## Cost Report" block in the layout of the AWS DynamoDB MCP
// server's cost calculator, so that a file from either tool compares. Both are derived: each is
// opened by a comment naming it as Dynaloom's, and the import leaves it out (cutComputed,
// cutCostReport), so that importing an export never duplicates it. A Cost Report written by
// another tool is kept as written (prose.cost_report) and exported in place of Dynaloom's, so that
// the document never holds two and nothing the team brought is lost.

const (
	// hotComputedStart and computedEnd enclose the computed hot-partition lines.
	hotComputedStart = "<!-- computed by Dynaloom: hot partitions, worked out again on import -->"
	computedEnd      = "<!-- end computed -->"
	// costComputedMark is the first line of Dynaloom's own Cost Report block under its heading.
	costComputedMark = "<!-- computed by Dynaloom: cost report, worked out again on import -->"
)

// statusMark is the seeds' mark for a key's status.
var statusMark = map[string]string{capacity.StatusOK: "✅", capacity.StatusWarn: "⚠️", capacity.StatusOver: "❌"}

// hotPartitions writes the computed line of every table's and GSI's partition key, between the
// computed markers; nothing when the design has no table.
func (w *writer) hotPartitions(r capacity.Report) {
	keys := capacity.KeysOf(w.d, r)
	if len(keys) == 0 {
		return
	}
	w.line("")
	w.line(hotComputedStart)
	for _, k := range keys {
		w.line(hotLine(k, r.Prices))
	}
	w.line(computedEnd)
}

// hotLine is one key's line: the patterns' peak RPS on it, the values it spreads over and where
// that figure came from, the RPS per value, the units on the hottest value under the hot-key model,
// the write-sharding suggestion of a key over a partition (priced at p) and the mark.
func hotLine(k capacity.KeyLoad, p capacity.Prices) string {
	name := k.Table
	if k.Index != "" {
		name = k.Index
	}
	var b strings.Builder
	b.WriteString("- **" + markdown.EscapeLabel(name) + "** (" + markdown.EscapeLabel(k.Attribute) + "): ")
	rps := 0.0
	seen := map[string]bool{}
	for _, s := range k.Shares {
		if !seen[s.Pattern] {
			seen[s.Pattern] = true
			rps += s.PeakRPS
		}
	}
	c := k.Cardinality
	source := markdown.EscapeLabel(c.Source)
	switch {
	case rps == 0:
		b.WriteString("no pattern reads or writes it")
	case c.Known && c.Values > 0:
		fmt.Fprintf(&b, "%s RPS across %s = %s RPS per partition", capacity.Figure(rps), source, capacity.Figure(rps/c.Values))
	default:
		fmt.Fprintf(&b, "%s RPS across values not counted (%s)", capacity.Figure(rps), source)
	}
	switch {
	case capacity.KeyStatus(k) == capacity.StatusUnknown:
		// Without a count of its values the load on one value cannot be told, and no mark is earned.
		b.WriteString("; the load on its hottest value is not known until its values are counted")
		return b.String()
	case rps > 0:
		fmt.Fprintf(&b, "; hottest value %s RCU/s + %s WCU/s %s, %s%% of one partition's 3,000 RCU / 1,000 WCU",
			capacity.Figure(k.RCU), capacity.Figure(k.WCU), modelWords(k), capacity.Figure(100*k.Share()))
		if sh := k.Sharding(p); sh != nil && sh.Fits {
			fmt.Fprintf(&b, "; write-shard into %d shards (%s, shard = hash(item id) %% %d), %s a month more on reads",
				sh.Shards, markdown.EscapeLabel(sh.Key), sh.Shards, fmt.Sprintf("$%.2f", sh.ExtraPerMonth))
		}
	}
	b.WriteString(" " + statusMark[capacity.KeyStatus(k)])
	return b.String()
}

// modelWords say the hot-key model the hottest value's figures come from: "at skew 2", "under
// zipf s = 1.2".
func modelWords(k capacity.KeyLoad) string {
	switch k.Model.Name {
	case designer.HotKeyUniform:
		return "under a uniform spread"
	case designer.HotKeyTopShare:
		return "under a top-key share of " + capacity.Figure(k.Model.Share) + "%"
	case designer.HotKeyZipf:
		return "under zipf s = " + capacity.Figure(k.Model.S)
	}
	return "at skew " + capacity.Figure(k.Skew)
}

// costRow is one line of a resource's detail table.
type costRow struct {
	pattern   int // the pattern's number
	op        string
	rps       float64
	rru, wru  float64
	amplified bool // a write to the table that writes this index's entries too (¹)
}

// costReportOf writes Dynaloom's Cost Report block in the MCP calculator's layout (as its
// compute_performances_and_costs writes it into dynamodb_data_model.md): a disclaimer, the bold
// total split into storage and requests, the storage of each table and index, then the requests:
// a summary per resource and, per resource, its "**Monthly Cost:**" and the patterns that cost it
// (one "RRU / WRU" column, index writes marked ¹), every figure at the patterns' average RPS.
func (w *writer) costReportOf(r capacity.Report) {
	if len(r.Resources) == 0 {
		return
	}
	d := w.d
	label := resourceLabels(r.Resources)
	kind := map[string]string{capacity.KindTable: "Table", capacity.KindGSI: "GSI", capacity.KindLSI: "LSI"}
	p := r.Prices
	w.heading("Cost Report")
	w.line("")
	w.line(costComputedMark)
	region := markdown.EscapeLabel(p.Region)
	if !p.Known {
		region = capacity.DefaultPrices.Region + " (Dynaloom's price table has none for " + region + ")"
	}
	w.line(fmt.Sprintf("> **Disclaimer:** Computed by Dynaloom from the access patterns at their average RPS, the evaluated "+
		"operations and the entity counts: on-demand read/write requests and storage only, %s, %s prices of %s "+
		"($%s per million RRU, $%s per million WRU, $%s per GB-month), %s seconds a month. An index write that changes the "+
		"index key counts as a delete and a put, 2 writes.%s",
		classWords(r), region, asOf(p), fmt.Sprint(p.ReadRequest.Dollars), fmt.Sprint(p.WriteRequest.Dollars),
		fmt.Sprint(p.Storage.Dollars), capacity.Figure(capacity.SecondsPerMonth), extraWords(r)))

	requests := r.Total.OnDemand.Reads + r.Total.OnDemand.Writes + r.Total.OnDemand.IndexWrites
	w.line("")
	w.line("**Total Monthly Cost: " + money(r.Total.OnDemand.Storage+requests+r.Total.OnDemand.Replication) + "**")
	w.line("")
	w.line("| Source | Monthly Cost |")
	w.line("|---|---|")
	w.line("| Storage | " + money(r.Total.OnDemand.Storage) + " |")
	w.line("| Read and write requests | " + money(requests) + " |")
	if rep := r.Total.OnDemand.Replication; rep > 0 {
		w.line("| Global Tables replicas (" + markdown.EscapeLabel(strings.Join(r.Settings.Replicas, ", ")) + ") | " + money(rep) + " |")
	}

	w.subheading("Storage Costs")
	w.line("")
	w.line("**Monthly Cost:** " + money(r.Total.OnDemand.Storage))
	w.line("")
	w.line("| Resource | Type | Storage (GB) | Monthly Cost |")
	w.line("|---|---|---|---|")
	for i, res := range r.Resources {
		w.line(fmt.Sprintf("| %s | %s | %s | %s |", label[i], kind[res.Kind], gigabytes(res.Storage.GB), money(res.OnDemand.Storage)))
	}

	requestCost := func(res capacity.Resource) float64 {
		return res.OnDemand.Reads + res.OnDemand.Writes + res.OnDemand.IndexWrites
	}
	w.subheading("Read and Write Request Costs")
	w.line("")
	w.line("**Monthly Cost:** " + money(requests))
	w.line("")
	w.line("| Resource | Type | Monthly Cost |")
	w.line("|---|---|---|")
	for i, res := range r.Resources {
		if res.Kind == capacity.KindLSI {
			continue // billed to its table
		}
		w.line(fmt.Sprintf("| %s | %s | %s |", label[i], kind[res.Kind], money(requestCost(res))))
	}
	rows := costRows(d, r)
	footnote := false
	perMonth := func(units float64, price capacity.Price) float64 {
		return units * capacity.SecondsPerMonth * price.Dollars / 1e6
	}
	for _, res := range r.Resources {
		if res.Kind == capacity.KindLSI || len(rows[[2]string{res.Table, res.Index}]) == 0 {
			continue
		}
		title := markdown.OneLine(res.Table) + " Table"
		if res.Index != "" {
			title += " / " + markdown.OneLine(res.Index) + " GSI"
		}
		w.line("")
		w.line("#### " + escapeTitle(title))
		w.line("")
		w.line("**Monthly Cost:** " + money(requestCost(res)))
		w.line("")
		w.line("| Pattern | Operation | RPS | RRU / WRU | Monthly Cost |")
		w.line("|---|---|---|---|---|")
		for _, row := range rows[[2]string{res.Table, res.Index}] {
			mark := ""
			if row.amplified {
				mark, footnote = "¹", true
			}
			cost := perMonth(row.rps*row.rru, res.Prices.ReadRequest) + perMonth(row.rps*row.wru, res.Prices.WriteRequest)
			w.line(fmt.Sprintf("| %d%s | %s | %s | %s | %s |", row.pattern, mark, markdown.EscapeLabel(row.op), rate(row.rps),
				requestUnits(row.rru, row.wru), money(cost)))
		}
	}
	if footnote {
		w.line("")
		w.line("¹ **GSI additional writes** - A write to the table that puts, changes or deletes an entry of this index " +
			"writes the index too, at 1 WRU per KB of the entry. A change of the index key is a delete and a put: " +
			"DynamoDB bills 2 writes, and so does this report.")
	}
	w.line("")
	w.line(costReportEnd)
}

// classWords say the table classes the report prices: "Standard table class", or which tables
// are Standard-IA and what that class charges.
func classWords(r capacity.Report) string {
	var ia []string
	for _, c := range r.Classes {
		if c.Class == designer.StandardIAClass {
			ia = append(ia, markdown.EscapeLabel(c.Table))
		}
	}
	if len(ia) == 0 {
		return "Standard table class"
	}
	return fmt.Sprintf("Standard-IA table class for %s (%s× the request prices, %s× the storage price), Standard for the rest",
		strings.Join(ia, ", "), capacity.Figure(capacity.StandardIARequestFactor), capacity.Figure(capacity.StandardIAStorageFactor))
}

// extraWords say what else the month counts: the Global Table's replicas and the failed
// conditions of write patterns; "" for neither.
func extraWords(r capacity.Report) string {
	var b strings.Builder
	if rs := r.Settings.Replicas; len(rs) > 0 {
		fmt.Fprintf(&b, " Global Tables replicas in %s write every write again (replicated writes at the write price) and store "+
			"everything again, each item %d B larger.", markdown.EscapeLabel(strings.Join(rs, ", ")), capacity.GlobalTablesOverheadBytes)
	}
	for _, pl := range r.Patterns {
		if pl.FailurePct > 0 {
			b.WriteString(" Writes whose condition fails are billed on their table as the write is, at each pattern's stated rate of failures.")
			break
		}
	}
	return b.String()
}

// resourceLabels names each resource in the report's summary tables as the calculator does: a
// table by its name, an index by its own, or by "Table / Index" when another resource has that name.
func resourceLabels(rs []capacity.Resource) []string {
	seen := map[string]int{}
	for _, res := range rs {
		name := res.Table
		if res.Index != "" {
			name = res.Index
		}
		seen[name]++
	}
	out := make([]string, len(rs))
	for i, res := range rs {
		switch {
		case res.Index == "":
			out[i] = markdown.EscapeLabel(res.Table)
		case seen[res.Index] > 1:
			out[i] = markdown.EscapeLabel(res.Table + " / " + res.Index)
		default:
			out[i] = markdown.EscapeLabel(res.Index)
		}
	}
	return out
}

// money is dollars to the cent.
func money(v float64) string { return fmt.Sprintf("$%.2f", v) }

// rate is an RPS with at least one decimal, as the calculator writes it ("20.0").
func rate(v float64) string {
	s := capacity.Figure(v)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// requestUnits is the "RRU / WRU" cell: the read or the write units one request takes, to two
// decimals, or both as "read / write" for an operation that takes both.
func requestUnits(rru, wru float64) string {
	switch {
	case rru != 0 && wru != 0:
		return fmt.Sprintf("%.2f / %.2f", rru, wru)
	case rru != 0:
		return fmt.Sprintf("%.2f", rru)
	}
	return fmt.Sprintf("%.2f", wru)
}

// gigabytes is a storage figure to two decimals as the calculator writes it, or to three
// significant digits when it is smaller than 0.01 GB, which two decimals would show as nothing.
func gigabytes(v float64) string {
	if v != 0 && v < 0.005 {
		return capacity.Figure(v)
	}
	return fmt.Sprintf("%.2f", v)
}

// asOf is the date of the default prices, or "the design's" when the team set any.
func asOf(p capacity.Prices) string {
	for _, pr := range []capacity.Price{p.ReadRequest, p.WriteRequest, p.Storage} {
		if pr.Source == capacity.DesignSource {
			return "the design's own"
		}
	}
	return p.ReadRequest.AsOf
}

// costRows are the detail rows of each resource (by table and GSI name; "" for the table): a read
// where it is charged (a GSI's on the GSI, an LSI's on its table), a write on its table, and each
// index write on the GSI it writes or, for an LSI, on the table, marked as amplification.
func costRows(d designer.Design, r capacity.Report) map[[2]string][]costRow {
	out := map[[2]string][]costRow{}
	for _, pl := range r.Patterns {
		for _, o := range pl.Operations {
			isGSI := func(ix string) bool {
				t, _, ok := d.TableByName(o.Table)
				if !ok {
					return false
				}
				_, local, _, found := t.IndexByName(ix)
				return found && !local
			}
			where := [2]string{o.Table, ""}
			if o.Index != "" && isGSI(o.Index) {
				where[1] = o.Index
			}
			if o.ReadUnits > 0 || o.WriteUnits > 0 {
				out[where] = append(out[where], costRow{pattern: pl.Number, op: o.Op, rps: pl.AvgRPS, rru: o.ReadUnits, wru: o.WriteUnits + o.FailedWriteUnits})
			}
			for _, iw := range o.IndexWrites {
				at := [2]string{o.Table, ""}
				if isGSI(iw.Index) {
					at[1] = iw.Index
				}
				out[at] = append(out[at], costRow{pattern: pl.Number, op: o.Op, rps: pl.AvgRPS, wru: iw.Units, amplified: true})
			}
		}
	}
	return out
}

// cutCostReports cuts every Cost Report block out of text (cutCostReport): Dynaloom's own are left
// out, being derived; those of another tool are kept as written, joined by a blank line when
// there are several.
func cutCostReports(text string) (string, string, []designer.ImportNote) {
	var kept []string
	var notes []designer.ImportNote
	for {
		report, rest, found := cutCostReport(text)
		if report == "" {
			return strings.Join(kept, "\n\n"), text, notes
		}
		text = rest
		if ownCostReport(report) {
			for i := range found {
				found[i].Message = "Dynaloom's own Cost Report (line " + strconv.Itoa(found[i].Line) +
					" on) is left out: Dynaloom works it out again from the design"
			}
		} else {
			kept = append(kept, report)
		}
		notes = append(notes, found...)
	}
}

// ownCostReport reports whether a Cost Report block is Dynaloom's own: the first line under its
// heading is costComputedMark. The MCP calculator replaces everything under the heading, the mark
// with it, so a block it rewrote is its own.
func ownCostReport(block string) bool {
	lines := strings.Split(block, "\n")
	for i, l := range lines[min(1, len(lines)):] {
		if i == 0 && setextLevel2(l) {
			continue
		}
		if strings.TrimSpace(l) != "" {
			return strings.TrimSpace(l) == costComputedMark
		}
	}
	return false
}

// cutComputed returns text with the computed hot-partition lines (from hotComputedStart to
// computedEnd) left empty, so that the lines that follow keep their numbers, and a note saying
// where they were. Inside fenced code nothing is cut.
func cutComputed(text string) (string, []designer.ImportNote) {
	lines := strings.Split(text, "\n")
	var notes []designer.ImportNote
	var fence string
	start := -1
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		if start < 0 {
			if f := fenceOf(strings.TrimLeft(l, " ")); f != "" && len(l)-len(strings.TrimLeft(l, " ")) <= 3 {
				switch {
				case fence == "":
					fence = f
				case strings.HasPrefix(strings.TrimLeft(l, " "), fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(l, " "), fence[:1])) == "":
					fence = ""
				}
				continue
			}
			if fence == "" && trimmed == hotComputedStart {
				start = i
			}
			continue
		}
		if trimmed == computedEnd {
			for j := start; j <= i; j++ {
				lines[j] = ""
			}
			notes = append(notes, designer.ImportNote{Line: start + 1, Message: fmt.Sprintf(
				"the computed hot-partition figures (lines %d–%d) are left out: Dynaloom works them out again from the design", start+1, i+1)})
			start = -1
		}
	}
	return strings.Join(lines, "\n"), notes
}
