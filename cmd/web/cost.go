package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
)

// cost prints the capacity, monthly cost and hot partitions of one design: 0 once printed, 2 when
// the input cannot be read. A key over its partition's limits is a finding of validate (CAP001),
// not a failure of cost, which reports figures.
func cost(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dynaloom cost", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	fs.Usage = func() { fmt.Fprintln(stderr, "Usage: dynaloom cost [--format text|json] FILE...") }
	if err := fs.Parse(args); err != nil {
		return flagStatus(err)
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "dynaloom cost: --format %q: use text or json\n", *format)
		return 2
	}
	d, err := readDesign(fs.Args(), stderr)
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom cost:", err)
		return 2
	}
	doc := capacity.NewDocument(d, capacity.Compute(d, nil))
	if *format == "json" {
		out, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			fmt.Fprintln(stderr, "dynaloom cost:", err)
			return 2
		}
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	writeCost(stdout, strings.Join(fs.Args(), " + "), doc)
	return 0
}

// writeCost prints the report as tables a person reads down: the access patterns, their index
// writes, the tables and indexes with their monthly cost, and the hottest value of each partition
// key.
func writeCost(w io.Writer, what string, doc capacity.Document) {
	tot := doc.Total
	fmt.Fprintf(w, "%s: %s RCU/s and %s WCU/s at peak; %s a month on demand, %s provisioned, %s with each table in its cheaper mode\n",
		what, capacity.Figure(tot.Peak.RCU), capacity.Figure(tot.Peak.WCU), dollars(tot.OnDemand.Total), dollars(tot.Provisioned.Total), dollars(tot.Cheapest))
	pr := doc.Prices
	fmt.Fprintf(w, "prices (%s): %s %s, %s %s, %s %s, %s %s, %s %s; target utilisation %s%% (%s), hot-key skew %s (%s), hot-key model %s (%s)\n\n",
		pr.Region, priceText(pr.ReadRequest), pr.ReadRequest.Unit, priceText(pr.WriteRequest), pr.WriteRequest.Unit,
		priceText(pr.ReadUnitHour), pr.ReadUnitHour.Unit, priceText(pr.WriteUnitHour), pr.WriteUnitHour.Unit,
		priceText(pr.Storage), pr.Storage.Unit, capacity.Figure(doc.Settings.TargetUtilization), doc.Settings.TargetUtilizationFrom,
		capacity.Figure(doc.Settings.HotKeySkew), doc.Settings.HotKeySkewFrom, hotModelText(doc.Settings), doc.Settings.HotKeyModelFrom)
	if pr.Note != "" {
		fmt.Fprintf(w, "note: %s\n\n", pr.Note)
	}

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "pattern\tpeak RPS\tavg RPS\tRCU/s peak\tWCU/s peak\toperations\t")
	for _, p := range doc.Patterns {
		var ops []string
		for _, o := range p.Operations {
			target := o.Table
			if o.Index != "" {
				target += "." + o.Index
			}
			units := capacity.Figure(o.ReadUnits) + " RRU"
			if o.WriteUnits > 0 || o.ReadUnits == 0 {
				units = capacity.Figure(o.WriteUnits) + " WRU"
			}
			if o.FailedWriteUnits > 0 {
				units += " + " + capacity.Figure(o.FailedWriteUnits) + " for failed conditions"
			}
			items := capacity.Figure(o.ItemsRead) + " items"
			if o.ItemsRead == 1 {
				items = "1 item"
			}
			ops = append(ops, fmt.Sprintf("%s %s %s (%s, %s)", o.Op, target, units, items, o.SizeFrom))
		}
		fmt.Fprintf(tw, "#%d %s\t%s\t%s\t%s\t%s\t%s\t\n", p.Number, clip(p.Description, 40), capacity.Figure(p.PeakRPS),
			capacity.Figure(p.AvgRPS), capacity.Figure(p.Peak.RCU), capacity.Figure(p.Peak.WCU), strings.Join(ops, "; "))
	}
	tw.Flush()
	fmt.Fprintln(w)
	writeIndexWrites(w, doc)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "table or index\tRCU/s peak\tWCU/s peak\ton demand\tprovisioned\tcheaper\tstorage GB\t")
	for _, r := range doc.Resources {
		name := r.Table
		if r.Index != "" {
			name = "  " + strings.ToUpper(r.Kind) + " " + r.Index
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", name, capacity.Figure(r.Peak.RCU), capacity.Figure(r.Peak.WCU),
			dollars(r.OnDemand.Total), dollars(r.Provisioned.Total), r.Cheaper, capacity.Figure(r.Storage.GB))
	}
	fmt.Fprintf(tw, "total\t%s\t%s\t%s\t%s\t\t%s\t\n", capacity.Figure(tot.Peak.RCU), capacity.Figure(tot.Peak.WCU),
		dollars(tot.OnDemand.Total), dollars(tot.Provisioned.Total), capacity.Figure(tot.Storage.GB))
	tw.Flush()
	fmt.Fprintln(w)
	writeChoices(w, doc)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "partition key\tdistinct values\tRCU/s hottest\tWCU/s hottest\tof a partition\tstatus\t")
	for _, k := range doc.PartitionKeys {
		name := k.Table + " " + k.Attribute
		if k.Index != "" {
			name = k.Table + "." + k.Index + " " + k.Attribute
		}
		values := "not known"
		if k.Cardinality.Known {
			values = capacity.Figure(k.Cardinality.Values)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s%%\t%s\t\n", name, values, capacity.Figure(k.RCU), capacity.Figure(k.WCU),
			capacity.Figure(100*k.Share), k.Status)
	}
	tw.Flush()
}

// dollars writes a monthly cost to the cent, or to a hundredth of a cent below a cent.
func dollars(v float64) string {
	if v != 0 && v < 0.01 {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

func priceText(p capacity.PriceDoc) string { return "$" + fmt.Sprint(p.Dollars) }

// clip shortens text to n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// writeIndexWrites prints, when some write writes an index, each index write of one request with
// where its figure came from and why.
func writeIndexWrites(w io.Writer, doc capacity.Document) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	listed := false
	for _, p := range doc.Patterns {
		for _, o := range p.Operations {
			for _, iw := range o.IndexWrites {
				if !listed {
					fmt.Fprintln(tw, "index write\tof\twrites\tWRU\tfrom\twhy\t")
					listed = true
				}
				fmt.Fprintf(tw, "#%d %s\t%s %s\t%s\t%s\t%s\t%s\t\n", p.Number, iw.Index, o.Op, o.Table, capacity.Figure(iw.Writes),
					capacity.Figure(iw.Units), iw.WritesFrom, iw.Reason)
			}
		}
	}
	if listed {
		tw.Flush()
		fmt.Fprintln(w)
	}
}

// hotModelText names the hot-key model with its parameter: "zipf s = 1.2", "top_key_share 5%".
func hotModelText(s capacity.SettingsDoc) string {
	switch s.HotKeyModel {
	case designer.HotKeyTopShare:
		return s.HotKeyModel + " " + capacity.Figure(s.HotKeyShare) + "%"
	case designer.HotKeyZipf:
		return s.HotKeyModel + " s = " + capacity.Figure(s.HotKeyZipfS)
	}
	return s.HotKeyModel
}

// writeChoices prints what the team may choose beyond the capacity mode: each table's month in
// either table class, what the Global Table's replicas add, and the reserved-capacity month.
func writeChoices(w io.Writer, doc capacity.Document) {
	tot := doc.Total
	if len(doc.TableClasses) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "table class\tnow\tStandard\tStandard-IA\tIA cheaper above\tstored\t")
		for _, c := range doc.TableClasses {
			above := "-"
			if c.BreakEvenGB > 0 {
				above = capacity.Figure(c.BreakEvenGB) + " GB"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s GB\t\n", c.Table, designer.TableClassName(c.Class), dollars(c.Standard), dollars(c.StandardIA),
				above, capacity.Figure(c.StoredGB))
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	if rs := doc.Settings.ReplicaRegions; len(rs) > 0 {
		fmt.Fprintf(w, "replicas in %s: %s a month on demand (every write again, as replicated writes, and the storage again), %s provisioned\n",
			strings.Join(rs, ", "), dollars(tot.OnDemand.Replication), dollars(tot.Provisioned.Replication))
	}
	if r := tot.Reserved; r != nil {
		fmt.Fprintf(w, "reserved capacity (%s): %d × 100 RCU and %d × 100 WCU, %s upfront; provisioned %s a month instead of %s (saves %s)\n",
			designer.ReservedTermName(r.Term), r.RCUBlocks, r.WCUBlocks, dollars(r.Upfront), dollars(r.Total), dollars(tot.Provisioned.Total), dollars(r.Saving))
	}
	if len(doc.Settings.ReplicaRegions) > 0 || tot.Reserved != nil {
		fmt.Fprintln(w)
	}
}
