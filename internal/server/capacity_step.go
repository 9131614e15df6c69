package server

import (
	"dynaloom/internal/designer/capacity"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/a-h/templ"

	"dynaloom/internal/designer"
	"dynaloom/web/templates"
)

// The Capacity step shows the design's capacity.Report: per pattern, per table and index, the hot
// partition-key values, and charts of cost, hot keys and load. Every figure is derived (computed
// once per revision beside the findings), so any change may move every figure and a page of this
// step is always refreshed whole, which costs a render and no evaluation.

func (s *Server) capacityPage(c echo.Context) error {
	w, err := s.workspaceModel(c, "capacity")
	if err != nil {
		return err
	}
	d := designFrom(c)
	m := templates.Capacity{Workspace: w, Figures: capacityFigures(d, listSpotOf(c, "capacity")), Settings: capacitySettings(d)}
	return render(c, http.StatusOK, templates.CapacityView(m))
}

// capacityReport is the design's capacity, as worked out for its revision.
func capacityReport(d *designContext) capacity.Report {
	return d.derived().Capacity()
}

// sourceKeys turn the report's words for where a figure came from into the marks of the legend;
// a figure the design states gets no mark.
var sourceKeys = map[string]string{
	capacity.FromSamples:     "samples",
	capacity.FromRequirement: "requirement",
	capacity.FromDefault:     "default",
	capacity.FromClauses:     "clauses",
}

func markedFigure(text, from string) templates.Figure {
	return templates.Figure{Text: text, Source: sourceKeys[from]}
}

// resourceName names a table, or an index as its table's.
func resourceName(r capacity.Resource) string {
	if r.Index == "" {
		return r.Table
	}
	return r.Table + " › " + r.Index
}

func resourceLabel(r capacity.Resource) string {
	if r.Index == "" {
		return r.Table
	}
	return resourceName(r) + " (" + strings.ToUpper(r.Kind) + ")"
}

func resourcePath(r capacity.Resource) string {
	if r.Index == "" {
		return string(designer.TablePath(r.Table))
	}
	return string(designer.IndexPath(r.Table, r.Index, ""))
}

// capacityFigures are the step's figures, with the page of the per-pattern table spot asks for.
func capacityFigures(d *designContext, spot listSpot) templates.CapacityFigures {
	design := d.Record.Design
	if len(design.Tables) == 0 && len(design.Patterns) == 0 {
		return templates.CapacityFigures{Empty: "Nothing to count yet: add access patterns with their rates, tables, and map each pattern to its operations."}
	}
	r := capacityReport(d)
	f := templates.CapacityFigures{
		Totals:    capacityTotals(r),
		Prices:    capacityPrices(r.Prices),
		PriceNote: r.Prices.Note,
		Resources: resourceRows(d, r),
		CostChart: costChart(r),
		Classes:   classRows(r),
		IAFactors: quantity(capacity.StandardIARequestFactor) + "× Standard's prices for reads and writes and " +
			quantity(capacity.StandardIAStorageFactor) + "× its storage price",
		Options: capacityOptions(r),
	}
	for _, p := range r.Patterns {
		f.Patterns = append(f.Patterns, patternRows(d, p))
	}
	first, last, pager := spot.page(capacityPageParam, len(f.Patterns), "#capacity-patterns", "patterns")
	f.Patterns, f.PatternPager = f.Patterns[first:last], pager
	f.HasCost = r.Total.OnDemand.Total > 0
	f.HotChart, f.HotKeys = hotKeys(r)
	f.HotModel = r.Settings.Hot.Text()
	f.HasHot = len(f.HotChart.Rows) > 0
	f.LoadChart = loadChart(r)
	f.HasLoad = len(f.LoadChart.Rows) > 0
	for _, fd := range d.derived().Findings() {
		if strings.HasPrefix(fd.Code, "CAP") {
			f.Findings = append(f.Findings, findingView(d, fd))
		}
	}
	return f
}

func capacityTotals(r capacity.Report) []templates.CapacityTotal {
	t := r.Total
	return []templates.CapacityTotal{
		{Label: "A month, each table in its cheaper mode", Value: dollars(t.Cheapest)},
		{Label: "A month, all on demand", Value: dollars(t.OnDemand.Total)},
		{Label: "A month, all provisioned", Value: dollars(t.Provisioned.Total),
			Hint: "for the peak at " + quantity(r.Settings.TargetUtilization) + " % target utilisation"},
		{Label: "Reads at peak", Value: quantity(t.Peak.RCU) + " RCU/s", Hint: "average " + quantity(t.Average.RCU) + " RCU/s"},
		{Label: "Writes at peak", Value: quantity(t.Peak.WCU) + " WCU/s", Hint: "average " + quantity(t.Average.WCU) + " WCU/s"},
		{Label: "Storage", Value: gigabytes(t.Storage.GB), Hint: dollars(t.OnDemand.Storage) + " a month"},
	}
}

// classRows compare each table in both table classes.
func classRows(r capacity.Report) []templates.CapacityClassRow {
	var rows []templates.CapacityClassRow
	for _, c := range r.Classes {
		row := templates.CapacityClassRow{Table: c.Table, Class: designer.TableClassName(c.Class),
			Standard: dollars(c.Standard), StandardIA: dollars(c.StandardIA), Stored: gigabytes(c.StoredGB), BreakEven: "any size"}
		if c.BreakEvenGB > 0 {
			row.BreakEven = gigabytes(c.BreakEvenGB)
		}
		rows = append(rows, row)
	}
	return rows
}

// capacityOptions are the months of the Global Table's replicas and of the reservation, each with
// what it counts.
func capacityOptions(r capacity.Report) []templates.CapacityTotal {
	t := r.Total
	out := []templates.CapacityTotal{{Label: "Global Tables replicas", Value: "none",
		Hint: "set the replica regions above: each writes every write again and stores everything again"}}
	if rs := r.Settings.Replicas; len(rs) > 0 {
		out[0] = templates.CapacityTotal{Label: "Global Tables replicas (" + strings.Join(rs, ", ") + ")",
			Value: dollars(t.OnDemand.Replication) + " a month on demand",
			Hint: dollars(t.Provisioned.Replication) + " provisioned; replicated writes at the write price, each item " +
				itoa(capacity.GlobalTablesOverheadBytes) + " B larger in every region"}
	}
	rc := t.Reserved
	if rc == nil {
		return append(out, templates.CapacityTotal{Label: "Reserved capacity", Value: "none",
			Hint: "set a term above to price provisioned Standard tables with reserved capacity"})
	}
	return append(out, templates.CapacityTotal{Label: "Provisioned with " + designer.ReservedTermName(rc.Term) + " of reserved capacity",
		Value: dollars(rc.Total) + " a month",
		Hint: itoa(int(rc.RCUBlocks)) + " × 100 RCU and " + itoa(int(rc.WCUBlocks)) + " × 100 WCU, " + dollars(rc.Upfront) +
			" paid upfront and spread over the term's months here; saves " + dollars(rc.Saving) + " against " + dollars(t.Provisioned.Total)})
}

func capacityPrices(p capacity.Prices) []templates.CapacityPrice {
	region := p.Region
	if !p.Known {
		region = capacity.DefaultPrices.Region // the table's prices stand in for the region's
	}
	price := func(label string, pr capacity.Price) templates.CapacityPrice {
		source := pr.Source
		if source == capacity.DesignSource {
			source = "set for this design"
		} else if pr.AsOf != "" {
			source = region + ", " + pr.AsOf + ", " + strings.TrimPrefix(pr.Source, "https://")
		}
		return templates.CapacityPrice{Label: label, Value: "$" + strconv.FormatFloat(pr.Dollars, 'f', -1, 64) + " " + pr.Unit, Source: source}
	}
	return []templates.CapacityPrice{
		price("On-demand reads", p.ReadRequest),
		price("On-demand writes", p.WriteRequest),
		price("Provisioned reads", p.ReadUnitHour),
		price("Provisioned writes", p.WriteUnitHour),
		price("Storage", p.Storage),
	}
}

func patternRows(d *designContext, p capacity.PatternLoad) templates.CapacityPatternRows {
	rows := templates.CapacityPatternRows{
		ID: elemID("cap", p.ID), Number: itoa(p.Number), Description: p.Description,
		Href:    anchorFor(d, string(designer.PatternPath(itoa(p.Number), "mapping"))),
		PeakRPS: markedFigure(quantity(p.PeakRPS), p.PeakFrom), AvgRPS: markedFigure(quantity(p.AvgRPS), p.AvgFrom),
		Peak: throughput(p.Peak), Average: throughput(p.Average),
	}
	for _, op := range p.Operations {
		rows.Operations = append(rows.Operations, operationRow(op))
	}
	if len(rows.Operations) == 0 {
		rows.Operations = []templates.CapacityOperationRow{{Op: "—", Where: "not mapped yet", Units: "—"}}
	}
	return rows
}

func operationRow(op capacity.OperationLoad) templates.CapacityOperationRow {
	row := templates.CapacityOperationRow{Op: op.Op, Where: op.Table, Notes: op.Note}
	if op.Index != "" {
		row.Where = op.Table + " › " + op.Index
	}
	var units []string
	if op.ReadUnits > 0 || op.WriteUnits == 0 {
		units = append(units, quantity(op.ReadUnits)+" RRU")
	}
	if op.WriteUnits > 0 {
		units = append(units, quantity(op.WriteUnits)+" WRU")
	}
	if op.FailedWriteUnits > 0 {
		units = append(units, "+ "+quantity(op.FailedWriteUnits)+" WRU of failed conditions")
	}
	if op.Consistency != "" {
		units = append(units, op.Consistency)
	}
	row.Units = strings.Join(units, " · ")
	if op.WriteUnits > 0 && op.ReadUnits == 0 {
		row.Items = markedFigure(quantity(op.ItemsRead)+" written", op.ItemsFrom)
		row.Bytes = markedFigure(bytesText(op.ItemBytes)+" each", op.SizeFrom)
	} else {
		row.Items = markedFigure(quantity(op.ItemsRead)+" / "+quantity(op.ItemsReturned), op.ItemsFrom)
		row.Bytes = markedFigure(bytesText(op.BytesRead), op.SizeFrom)
	}
	for _, w := range op.IndexWrites {
		s := w.Index + ": " + quantity(w.Writes) + " = " + quantity(w.Units) + " WRU"
		if w.KeyChange {
			s += " (key change: delete + put)"
		}
		row.IndexWrites = append(row.IndexWrites, templates.CapacityIndexWrite{Figure: markedFigure(s, w.WritesFrom), Reason: w.Reason})
	}
	return row
}

func resourceRows(d *designContext, r capacity.Report) []templates.CapacityResourceRow {
	var rows []templates.CapacityResourceRow
	for _, res := range r.Resources {
		row := templates.CapacityResourceRow{
			ID: elemID("capres", res.Table, res.Index), Name: resourceName(res), Href: anchorFor(d, resourcePath(res)),
			Reads: quantity(res.Peak.RCU) + " RCU/s", Writes: quantity(res.Peak.WCU) + " WCU/s", AvgLoad: averageLoad(res.Average),
			OnDemand: dollars(res.OnDemand.Total), Provisioned: dollars(res.Provisioned.Total),
			ProvisionedUnits: strconv.FormatInt(res.Provisioned.RCU, 10) + " RCU · " + strconv.FormatInt(res.Provisioned.WCU, 10) + " WCU",
			Cheaper:          res.Cheaper, Storage: gigabytes(res.Storage.GB) + " · " + dollars(res.OnDemand.Storage),
			StorageSize: markedFigure(storageText(res.Storage), res.Storage.ItemsFrom),
			Total:       dollars(min(res.OnDemand.Total, res.Provisioned.Total)),
		}
		if res.Kind != capacity.KindTable {
			row.Kind = strings.ToUpper(res.Kind)
		} else if res.Class == designer.StandardIAClass {
			row.Kind = designer.TableClassName(res.Class)
		}
		if res.Kind == capacity.KindLSI {
			row.Reads, row.Writes, row.AvgLoad, row.ProvisionedUnits = "on its table", "", "", ""
		}
		if res.BreakEven > 0 {
			row.BreakEven = "break-even at " + quantity(res.BreakEven*100) + " % use"
		}
		rows = append(rows, row)
	}
	t := r.Total
	rows = append(rows, templates.CapacityResourceRow{
		Name: "Total", IsTotal: true,
		Reads: quantity(t.Peak.RCU) + " RCU/s", Writes: quantity(t.Peak.WCU) + " WCU/s", AvgLoad: averageLoad(t.Average),
		OnDemand: dollars(t.OnDemand.Total), Provisioned: dollars(t.Provisioned.Total),
		Cheaper: "each in its own", Storage: gigabytes(t.Storage.GB) + " · " + dollars(t.OnDemand.Storage),
		StorageSize: markedFigure(storageText(t.Storage), ""), Total: dollars(t.Cheapest),
	})
	return rows
}

func costChart(r capacity.Report) templates.StackedBars {
	c := templates.StackedBars{
		ID: "cost-chart", TestID: "cost-chart", Title: "Monthly cost on demand, by table and index",
		Desc: "For each table and index, its monthly on-demand cost split into reads, writes, index writes and storage. The same figures are in the table below the chart.",
		Series: []templates.ChartSeries{{Label: "Reads", Short: "reads"}, {Label: "Writes", Short: "writes"},
			{Label: "Index writes", Short: "index writes"}, {Label: "Storage", Short: "storage"}},
	}
	replicas := r.Total.OnDemand.Replication > 0
	if replicas {
		c.Series = append(c.Series, templates.ChartSeries{Label: "Replicas", Short: "replicas"})
	}
	for _, res := range r.Resources {
		o := res.OnDemand
		if res.Kind == capacity.KindLSI && o.Total == 0 {
			continue
		}
		values := []float64{o.Reads, o.Writes, o.IndexWrites, o.Storage}
		if replicas {
			values = append(values, o.Replication)
		}
		texts := make([]string, len(values))
		for i, v := range values {
			texts[i] = dollars(v)
		}
		c.Rows = append(c.Rows, templates.StackedBarsRow{Label: resourceLabel(res), Values: values, Texts: texts, Total: dollars(o.Total)})
	}
	return c
}

func hotKeys(r capacity.Report) (templates.LimitBars, []templates.CapacityHotKeyRow) {
	c := templates.LimitBars{
		ID: "hot-chart", TestID: "hot-chart", Title: "The busiest key value of each table and index, against one partition's limit",
		Desc: "For each table and index whose partition key's distinct values are known, the read and write units per second at peak on its busiest key value, " +
			"each as its share of one partition's limit of 3,000 RCU or 1,000 WCU a second, which reads and writes share. The same figures are in the table below the chart.",
		LimitLabel: "one partition's limit",
		Series:     []templates.ChartSeries{{Label: "Reads (of 3,000 RCU/s)", Short: "reads"}, {Label: "Writes (of 1,000 WCU/s)", Short: "writes"}},
	}
	var rows []templates.CapacityHotKeyRow
	keys := map[[2]string]capacity.KeyLoad{}
	for _, k := range r.Keys {
		keys[[2]string{k.Table, k.Index}] = k
	}
	for _, res := range r.Resources {
		h := res.HotKey
		if h == nil || res.Kind == capacity.KindLSI {
			continue // an LSI's entries live on its table's partitions: its load is the table's
		}
		readShare, writeShare := share(h.RCU, h.ReadLimit), share(h.WCU, h.WriteLimit)
		row := templates.CapacityHotKeyRow{
			Name: resourceName(res), Attribute: h.Attribute, Distinct: "not known", DistinctFrom: h.DistinctFrom,
			Model: modelShort(h.Model), RCU: "—", WCU: "—", Share: "—",
		}
		if k, ok := keys[[2]string{res.Table, res.Index}]; ok {
			if sh := k.Sharding(r.Prices); sh != nil {
				row.Sharding = shardingLines(sh)
			}
		}
		if h.Distinct > 0 || h.RCU > 0 || h.WCU > 0 {
			// A top-key share puts load on a key whose values are not counted.
			whole := readShare + writeShare
			if h.Distinct > 0 {
				row.Distinct = quantity(h.Distinct)
			}
			row.RCU, row.WCU = quantity(h.RCU)+" of "+quantity(h.ReadLimit), quantity(h.WCU)+" of "+quantity(h.WriteLimit)
			row.Share, row.Over = percent(whole), whole > 1
			text := percent(whole) + " of the limit"
			if row.Over {
				text = percent(whole) + ": over the limit"
			}
			c.Rows = append(c.Rows, templates.LimitRow{Label: resourceLabel(res), Text: text, Parts: []templates.LimitPart{
				{Share: readShare, Text: quantity(h.RCU) + " RCU/s (" + percent(readShare) + ")"},
				{Share: writeShare, Text: quantity(h.WCU) + " WCU/s (" + percent(writeShare) + ")"},
			}})
		}
		rows = append(rows, row)
	}
	return c, rows
}

// modelShort names a hot-key model in a few words: "skew 2×", "zipf s = 1.2".
func modelShort(m capacity.HotModel) string {
	switch m.Name {
	case designer.HotKeyUniform:
		return "uniform"
	case designer.HotKeyTopShare:
		return "top key " + quantity(m.Share) + " %"
	case designer.HotKeyZipf:
		return "zipf s = " + quantity(m.S)
	}
	return "skew " + quantity(m.Skew) + "×"
}

// shardingLines say a hot key's write-sharding suggestion: the shards and the key, the hottest
// shard's load, then what each Query of the key pays sharded.
func shardingLines(sh *capacity.Sharding) []string {
	if !sh.Fits {
		return []string{"No shard count fits: at " + quantity(float64(sh.Shards)) + " shards the hottest still takes " + quantity(sh.RCU) +
			" RCU/s, its reads by item and each Query's least units falling on every shard. Cache the hottest reads."}
	}
	n := itoa(sh.Shards)
	out := []string{"Write-shard into " + n + " shards: " + sh.Key + ", shard = hash(item id) % " + n + "; the hottest shard takes " +
		quantity(sh.RCU) + " RCU/s and " + quantity(sh.WCU) + " WCU/s (" + percent(sh.Share()) + " of the limit)."}
	for _, rd := range sh.Reads {
		line := "Pattern " + itoa(rd.Number) + "'s Query of the key becomes " + n + " Queries: " + quantity(rd.After) +
			" RRU a request instead of " + quantity(rd.Before)
		if rd.ExtraPerMonth > 0 {
			line += ", " + dollars(rd.ExtraPerMonth) + " a month more at " + quantity(rd.AvgRPS) + " RPS on average"
		}
		out = append(out, line+".")
	}
	return out
}

func share(v, limit float64) float64 {
	if limit <= 0 {
		return 0
	}
	return v / limit
}

// loadChart draws, for each table and index, what share of its reads and of its writes at peak
// each pattern makes; the legend lists the patterns that load anything.
func loadChart(r capacity.Report) templates.StackedBars {
	c := templates.StackedBars{
		ID: "load-chart", TestID: "load-chart", Shares: true, Title: "Which patterns make up each table's load at peak",
		Desc: "For each table and index, its read units and its write units per second at peak, split by the access pattern that causes them. The figures are in the table below the chart.",
	}
	loads := map[string]bool{}
	for _, res := range r.Resources {
		for _, sh := range res.Load {
			if sh.RCU > 0 || sh.WCU > 0 {
				loads[sh.Pattern] = true
			}
		}
	}
	column := map[string]int{}
	for _, p := range r.Patterns {
		if loads[p.ID] {
			column[p.ID] = len(c.Series)
			c.Series = append(c.Series, templates.ChartSeries{Label: "#" + itoa(p.Number) + " " + shorten(p.Description, 40), Short: "#" + itoa(p.Number)})
		}
	}
	for _, res := range r.Resources {
		reads, writes := make([]float64, len(c.Series)), make([]float64, len(c.Series))
		for _, sh := range res.Load {
			if i, ok := column[sh.Pattern]; ok {
				reads[i] += sh.RCU
				writes[i] += sh.WCU
			}
		}
		for _, side := range []struct {
			values     []float64
			name, unit string
		}{{reads, "reads", " RCU/s"}, {writes, "writes", " WCU/s"}} {
			total := 0.0
			texts := make([]string, len(side.values))
			for i, v := range side.values {
				total += v
				texts[i] = quantity(v)
			}
			if total > 0 {
				c.Rows = append(c.Rows, templates.StackedBarsRow{Label: resourceLabel(res) + ", " + side.name, Values: side.values, Texts: texts, Total: quantity(total) + side.unit})
			}
		}
	}
	return c
}

// settingHint says what an empty setting means.
func settingHint(key string) string {
	p := capacity.DefaultPrices
	price := func(pr capacity.Price) string {
		return "empty: $" + strconv.FormatFloat(pr.Dollars, 'f', -1, 64) + " (" + p.Region + ", " + pr.AsOf + ")"
	}
	switch key {
	case designer.CapacityField.Region.Key:
		return "the region whose prices are used, from Dynaloom's price table (" + capacity.DefaultPrices.Region +
			" only); another region takes the prices set below; empty: " + p.Region
	case designer.CapacityField.ReadRequestPrice.Key:
		return price(p.ReadRequest)
	case designer.CapacityField.WriteRequestPrice.Key:
		return price(p.WriteRequest)
	case designer.CapacityField.ReadUnitHourPrice.Key:
		return price(p.ReadUnitHour)
	case designer.CapacityField.WriteUnitHourPrice.Key:
		return price(p.WriteUnitHour)
	case designer.CapacityField.StoragePrice.Key:
		return price(p.Storage)
	case designer.CapacityField.TargetUtilization.Key:
		return "of provisioned capacity the peak may use, " + itoa(designer.MinTargetUtilization) + "–" + itoa(designer.MaxTargetUtilization) + "; empty: " + itoa(capacity.DefaultTargetUtilization) + " %"
	case designer.CapacityField.HotKeySkew.Key:
		return "times its even share the busiest key value takes (1: spread evenly), under the skew model; empty: " + itoa(capacity.DefaultHotKeySkew) + "×"
	case designer.CapacityField.HotKeyModel.Key:
		return "how a key's load spreads over its values: skew, uniform, top-key share or zipf; empty: skew"
	case designer.CapacityField.HotKeyShare.Key:
		return "of a key's load its busiest value takes, 0–100, under top-key share; empty: " + itoa(capacity.DefaultHotKeyShare) + " %"
	case designer.CapacityField.HotKeyZipfS.Key:
		return "the exponent s, 0–" + itoa(designer.MaxHotKeyZipfS) + " (0: uniform; 1: Zipf's law), under zipf; empty: " + itoa(capacity.DefaultHotKeyZipfS)
	case designer.CapacityField.ReplicaRegions.Key:
		return "other regions a Global Table replicates to, comma-separated; each is written and stores everything again"
	case designer.CapacityField.ReservedCapacity.Key:
		return "none, 1 year or 3 years; provisioned Standard tables only"
	case designer.CapacityField.HorizonMonths.Key:
		return "how many months ahead storage is worked out: each entity's count grows by its new items, up to what it keeps; empty: 0 (today)"
	}
	return ""
}

// capacitySetting is the cell of one capacity setting.
func capacitySetting(d *designContext, f designer.Field[designer.CapacitySettings]) templates.CapacitySetting {
	st := templates.CapacitySetting{Label: f.Heading(), Hint: settingHint(f.Key), Cell: templates.Cell{
		ID: elemID("capset", f.Key), Label: f.Heading(), Value: f.Get(d.Record.Design.Capacity),
		Action: "/d/" + d.Token + "/capacity/setting", Vals: vals("field", f.Key), Kind: "text", CanEdit: d.canEdit(),
	}}
	if opts, ok := settingOptions[f.Key]; ok {
		st.Cell.Kind, st.Cell.Options, st.Cell.Shown = "select", opts, optionLabel(opts, st.Cell.Value)
	}
	return st
}

// settingOptions are the choices of the settings picked from a list, by key.
var settingOptions = map[string][]templates.Option{
	designer.CapacityField.HotKeyModel.Key:      hotModelOptions,
	designer.CapacityField.ReservedCapacity.Key: reservedOptions,
}

// reservedOptions are the reserved-capacity terms; "" is none, the default.
var reservedOptions = []templates.Option{
	{Value: "", Label: designer.ReservedTermName("")}, {Value: designer.Reserved1Year, Label: designer.ReservedTermName(designer.Reserved1Year)},
	{Value: designer.Reserved3Year, Label: designer.ReservedTermName(designer.Reserved3Year)},
}

// hotModelOptions are the hot-key models a team picks from; "" is the default, the skew.
var hotModelOptions = []templates.Option{
	{Value: "", Label: "skew (default)"}, {Value: designer.HotKeySkewModel, Label: "skew"},
	{Value: designer.HotKeyUniform, Label: "uniform"}, {Value: designer.HotKeyTopShare, Label: "top-key share"},
	{Value: designer.HotKeyZipf, Label: "zipf"},
}

func capacitySettings(d *designContext) []templates.CapacitySetting {
	out := make([]templates.CapacitySetting, 0, len(designer.CapacityFields))
	for _, f := range designer.CapacityFields {
		out = append(out, capacitySetting(d, f))
	}
	return out
}

// saveCapacitySetting saves one setting and answers with its cell and, out of band, every figure,
// which the setting may have moved; a refused value changes nothing and is said on its cell.
func (s *Server) saveCapacitySetting(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	field, value := form.get("field"), form.get("value")
	f, ok := designer.FieldNamed(designer.CapacityFields, field)
	if !ok {
		return badInput("field: capacity has no setting %q", field)
	}
	return s.apply(c, stepHref(designFrom(c), "capacity"), designer.SetCapacityField{Field: field, Value: value},
		func(d *designContext, r *refused) (templ.Component, error) {
			st := capacitySetting(d, f)
			cell := templates.CellView(withRefusal(st.Cell, r, value))
			if r != nil {
				return cell, nil
			}
			figures := capacityFigures(d, listSpotOf(c, "capacity"))
			figures.OOB = true
			return templ.Join(cell, templates.CapacityFiguresView(figures)), nil
		})
}

type capacityResponse struct {
	Revision int64 `json:"revision"`
	capacity.Document
}

// apiCapacity answers GET /api/designs/{token}/capacity: the revision's capacity report, in the
// shape docs/capacity.md "API and CLI" documents.
func (s *Server) apiCapacity(c echo.Context) error {
	d := designFrom(c)
	x := d.derived()
	return c.JSON(http.StatusOK, capacityResponse{Revision: d.Record.Revision, Document: capacity.NewDocument(x.Design(), x.Capacity())})
}
