package rules

import (
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/capacity"
	"dynaloom/internal/designer/designertest"
)

// capShop is a design for the CAP rules: an Events table of 3,000 devices (entity count) whose
// partition key is {device_id}, with a SETTINGS item under a literal key, an LSI by time, and GSIs
// by status (four values in the sample items), by day (a date) and by device. Its patterns are:
//
//	#1 reads the settings (SETTINGS: 1 value)      #2 queries ByStatus
//	#3 puts an event (writing ByDay and ByStatus)   #4 updates an event's status
//
// The loads (capShopReport) are written by hand, as package capacity would work them out, so that
// each test sets the figures it needs and the messages can be checked on paper.
func capShop() designer.Design {
	event := func(id, device, status, day string) designer.SampleItem {
		return designer.SampleItem{ID: id, Item: designer.Item{
			"pk": designer.Str(device), "sk": designer.Str("EVENT#" + id), "device_id": designer.Str(device),
			"status": designer.Str(status), "event_day": designer.Str(day), "at": designer.Num("1")}}
	}
	key := func(pk string) designer.Operation {
		return designer.Operation{Op: "GetItem", Table: "Events", KeyCondition: "pk = :pk AND sk = :sk",
			Values: map[string]designer.Value{":pk": designer.Str(pk), ":sk": designer.Str("X")}}
	}
	put, update := key("d1"), key("d1")
	put.Op, update.Op, update.Update = "PutItem", "UpdateItem", "SET #st = :st"
	update.Names = map[string]string{"#st": "status"}
	return designer.Normalize(designer.Design{
		Name: "Telemetry",
		Entities: []designer.Entity{
			{Name: "Device", Count: designertest.Ptr[int64](3000), Attributes: []designer.Attribute{{Name: "device_id", Type: designer.S}}},
			{Name: "Event", Attributes: []designer.Attribute{{Name: "device_id", Type: designer.S}, {Name: "status", Type: designer.S}, {Name: "event_day", Type: designer.S}}},
			{Name: "Settings", Attributes: []designer.Attribute{{Name: "name", Type: designer.S}}},
		},
		Patterns: []designer.Pattern{
			{ID: "p1", Number: 1, Description: "Read the settings", Type: designer.Read, Mapping: designer.Mapping{Operations: []designer.Operation{key("SETTINGS")}}},
			{ID: "p2", Number: 2, Description: "Events by status", Type: designer.Read, Mapping: designer.Mapping{Operations: []designer.Operation{{Op: "Query", Table: "Events", Index: "ByStatus", KeyCondition: "#s = :s"}}}},
			{ID: "p3", Number: 3, Description: "Record an event", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{put}}},
			{ID: "p4", Number: 4, Description: "Change an event's status", Type: designer.Write, Mapping: designer.Mapping{Operations: []designer.Operation{update}}},
		},
		Tables: []designer.Table{{
			Name:         "Events",
			PartitionKey: designer.KeyAttribute{Name: "pk", Type: designer.S},
			SortKey:      &designer.KeyAttribute{Name: "sk", Type: designer.S},
			EntityTypes: []designer.EntityType{
				{Entity: "Event", PKTemplate: "{device_id}", SKTemplate: "EVENT#{event_id}"},
				{Entity: "Settings", PKTemplate: "SETTINGS", SKTemplate: "{name}"},
			},
			GSIs: []designer.Index{
				{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}}},
				{Name: "ByDay", PartitionKey: []designer.KeyAttribute{{Name: "event_day", Type: designer.S}}},
				{Name: "ByDevice", PartitionKey: []designer.KeyAttribute{{Name: "device_id", Type: designer.S}}},
			},
			LSIs: []designer.Index{{Name: "ByTime", SortKey: []designer.KeyAttribute{{Name: "at", Type: designer.N}}}},
			Items: []designer.SampleItem{
				event("e1", "d1", "NEW", "2026-11-01"), event("e2", "d1", "SEEN", "2026-11-01"), event("e3", "d2", "DONE", "2026-11-02"),
				event("e4", "d3", "LOST", "2026-11-02"), event("e5", "d3", "NEW", "2026-11-03"),
			},
		}},
	})
}

// capLoads are the figures of capShopReport: each pattern's peak RPS and units per request.
type capLoads struct {
	settingsRPS, settingsRRU float64 // #1 on the table
	statusRPS, statusRRU     float64 // #2 on ByStatus
	putRPS                   float64 // #3: 1 WRU on the table, 1 on ByDay
	updateRPS                float64 // #4: 1 WRU on the table; 1 on ByStatus, or with statusChanges a key change (2 writes, 2 WRU)
	statusChanges            bool
	storedGB                 float64 // the table's and its LSI's storage, together
	hot                      capacity.HotModel
}

func capShopReport(l capLoads) capacity.Report {
	r := capacity.Report{Settings: capacity.Settings{HotKeySkew: 2, Hot: l.hot}, Prices: capacity.DefaultPrices}
	r.Patterns = []capacity.PatternLoad{
		{ID: "p1", Number: 1, PeakRPS: l.settingsRPS, Operations: []capacity.OperationLoad{{Op: "GetItem", Table: "Events", ReadUnits: l.settingsRRU}}},
		{ID: "p2", Number: 2, PeakRPS: l.statusRPS, AvgRPS: l.statusRPS, Operations: []capacity.OperationLoad{{Op: "Query", Table: "Events", Index: "ByStatus", ReadUnits: l.statusRRU}}},
		{ID: "p3", Number: 3, PeakRPS: l.putRPS, Operations: []capacity.OperationLoad{{Op: "PutItem", Table: "Events", WriteUnits: 1,
			IndexWrites: []capacity.IndexWriteLoad{{Index: "ByDay", Writes: 1, Units: 1}}}}},
		{ID: "p4", Number: 4, PeakRPS: l.updateRPS, Operations: []capacity.OperationLoad{{Op: "UpdateItem", Table: "Events", WriteUnits: 1,
			IndexWrites: []capacity.IndexWriteLoad{{Index: "ByStatus", Writes: 1, Units: 1}}}}},
	}
	if l.statusChanges {
		r.Patterns[3].Operations[0].IndexWrites[0] = capacity.IndexWriteLoad{Index: "ByStatus", Writes: 2, Units: 2, KeyChange: true}
	}
	r.Resources = []capacity.Resource{
		{Table: "Events", Kind: capacity.KindTable, Storage: capacity.Storage{Bytes: l.storedGB * (1 << 30) * 3 / 4}},
		{Table: "Events", Index: "ByStatus", Kind: capacity.KindGSI},
		{Table: "Events", Index: "ByDay", Kind: capacity.KindGSI},
		{Table: "Events", Index: "ByDevice", Kind: capacity.KindGSI},
		{Table: "Events", Index: "ByTime", Kind: capacity.KindLSI, Storage: capacity.Storage{Bytes: l.storedGB * (1 << 30) / 4}},
	}
	return r
}

// quiet are loads under every CAP threshold.
var quiet = capLoads{settingsRPS: 10, settingsRRU: 0.5, statusRPS: 10, statusRRU: 1, putRPS: 40, storedGB: 1}

func TestCapRules_eachFiresWithTheFiguresThatCausedItAndNotBelowIts(t *testing.T) {
	t.Parallel()
	with := func(edit func(l *capLoads)) capLoads {
		l := quiet
		edit(&l)
		return l
	}
	tests := []struct {
		name  string
		code  string
		loads capLoads
		want  []string // findings of the code, as "CODE severity path"
		text  []string // phrases the findings' messages hold
	}{
		{name: "CAP001: 7,000 RPS × 0.5 RRU on the one SETTINGS value", code: "CAP001",
			loads: with(func(l *capLoads) { l.settingsRPS = 7000 }),
			want:  []string{"CAP001 error tables/Events/partition_key"},
			// 3,500 RCU/s on one value; the device events add 40 × 1 × 2 / 3,000 = 0.0267 WCU/s.
			text: []string{"The partition key pk of table Events", "3,500 RCU/s and 0.0267 WCU/s", "117 %",
				"under the hot-key model skew 2×",
				"Pattern 1 reads 7,000 RPS × 0.5 RRU = 3,500 RCU/s, all of it on one value",
				// A GetItem of the one item reads one shard at any count.
				"No shard suffix brings it under: at 100,000 shards the hottest still takes 3,500 RCU/s"}},
		{name: "CAP001 adds reads and writes as shares of one partition", code: "CAP001",
			// ByStatus: #2 400 × 12 × 2 / 4 = 2,400 RCU/s (80 %); #4 300 × 2 × 2 / 4 = 300 WCU/s (30 %).
			loads: with(func(l *capLoads) { l.statusRPS, l.statusRRU, l.updateRPS, l.statusChanges = 400, 12, 300, true }),
			want:  []string{"CAP001 error tables/Events/indexes/ByStatus/partition_key"},
			text: []string{"2,400 RCU/s and 300 WCU/s", "110 %", "2,400 / 3,000 RCU + 300 / 1,000 WCU",
				"Pattern 2 reads 400 RPS × 12 RRU = 4,800 RCU/s, × 2 (skew) ÷ 4 values = 2,400 on the hottest value",
				"pattern 4 writes 300 RPS × 2 WRU = 600 WCU/s, × 2 (skew) ÷ 4 values = 300 on the hottest value",
				// 2 shards: 300/2 = 150 WCU/s and 2,400 × max(1/2, 0.5/12) = 1,200 RCU/s, 55 %; each Query
				// of 12 RRU becomes 2 of 6, nothing more to pay.
				"Write-shard it into 2 shards: {status}#{shard} with shard = hash(item id) % 2, so that the hottest shard takes 1,200 RCU/s and 150 WCU/s (55 % of a partition).",
				"Pattern 2's Query of the key becomes 2 Queries, 12 RRU a request instead of 12."}},
		{name: "CAP001 under zipf s = 1: ByStatus's hottest of 4 statuses takes 1/H(4, 1) = 12/25", code: "CAP001",
			// #2 400 × 12 × 12/25 = 2,304 RCU/s; #4 600 × 12/25 = 288 WCU/s: 76.8 % + 28.8 % = 106 %.
			loads: with(func(l *capLoads) {
				l.statusRPS, l.statusRRU, l.updateRPS, l.statusChanges = 400, 12, 300, true
				l.hot = capacity.HotModel{Name: designer.HotKeyZipf, NameFrom: capacity.FromDesign, S: 1, SFrom: capacity.FromDesign}
			}),
			want: []string{"CAP001 error tables/Events/indexes/ByStatus/partition_key"},
			text: []string{"2,304 RCU/s and 288 WCU/s", "106 %", "under the hot-key model zipf (design), s = 1 (design)",
				"Pattern 2 reads 400 RPS × 12 RRU = 4,800 RCU/s, ÷ H(4, 1) = 2.08 (zipf s = 1 over 4 values) = 2,304 on the hottest value",
				"Write-shard it into 2 shards"}},
		{name: "CAP001 under a top-key share of 50 %: half of pattern 4's writes on one value of the table and of ByStatus", code: "CAP001",
			// ByStatus: #2 100 × 0.5 × 50 % = 25 RCU/s; #4 2,400 × 1 × 50 % = 1,200 WCU/s: 121 %. Over n shards
			// 1,200/n WCU/s and 25 × max(1/n, 1) = 25 RCU/s: n = 2 gives 60.8 %. Each Query of 0.5 RRU becomes
			// 2 of 0.5: 0.5 RRU more at its average of 100 RPS is
			// 0.5 × 100 × 2,635,200 × $0.125/million = $16.47 a month.
			loads: with(func(l *capLoads) {
				l.statusRPS, l.statusRRU, l.updateRPS = 100, 0.5, 2400
				l.hot = capacity.HotModel{Name: designer.HotKeyTopShare, NameFrom: capacity.FromDesign, Share: 50, ShareFrom: capacity.FromDesign}
			}),
			want: []string{"CAP001 error tables/Events/partition_key", "CAP001 error tables/Events/indexes/ByStatus/partition_key"},
			text: []string{"25 RCU/s and 1,200 WCU/s", "121 %", "× 50 % (top-key share) = 1,200 on the hottest value",
				"hottest shard takes 25 RCU/s and 600 WCU/s (61 % of a partition)",
				"Pattern 2's Query of the key becomes 2 Queries, 1 RRU a request instead of 0.5: $16.47 a month more at 100 RPS on average."}},
		{name: "CAP001 is quiet at 5,000 RPS on the settings (2,500 RCU/s, 83 %)", code: "CAP001",
			loads: with(func(l *capLoads) { l.settingsRPS = 5000 })},

		{name: "CAP002: a status of 4 values carries pattern 2, and the SETTINGS literal pattern 1, each over a tenth of a partition", code: "CAP002",
			// SETTINGS: 700 × 0.5 = 350 RCU/s on its one value (11.7 %); ByStatus: 700 × 1 × 2 / 4 = 350 (11.7 %).
			loads: with(func(l *capLoads) { l.settingsRPS, l.statusRPS = 700, 700 }),
			want:  []string{"CAP002 warning tables/Events/partition_key", "CAP002 warning tables/Events/indexes/ByStatus/partition_key"},
			text: []string{"The partition key pk of table Events: pattern 1 reaches 1 value of it (1 (literal SETTINGS)), fewer than the 100",
				"The partition key status of GSI ByStatus on Events: it has 4 values (4 distinct values of status in the sample items)",
				"takes 12 % of one partition on the hottest value",
				"Pattern 2 reads 700 RPS × 1 RRU = 700 RCU/s, × 2 (skew) ÷ 4 values = 350 on the hottest value"}},
		{name: "CAP002 is quiet under a tenth of a partition: 10 RPS on the 4 statuses and the settings", code: "CAP002", loads: quiet},
		{name: "CAP002 counts writes against 1,000 WCU: 200 status changes a second are 20 %", code: "CAP002",
			// 200 × 2 WRU × 2 / 4 = 200 WCU/s on the hottest status (20 %); 10 reads add 5 RCU/s (0.17 %).
			loads: with(func(l *capLoads) { l.updateRPS, l.statusChanges = 200, true }),
			want:  []string{"CAP002 warning tables/Events/indexes/ByStatus/partition_key"},
			text:  []string{"takes 20 % of one partition", "Pattern 4 writes 200 RPS × 2 WRU = 400 WCU/s, × 2 (skew) ÷ 4 values = 200 on the hottest value"}},

		{name: "CAP003: pattern 4 sets status, ByStatus's key: 2 writes of 1 WCU at 30 RPS", code: "CAP003",
			loads: with(func(l *capLoads) { l.updateRPS, l.statusChanges = 30, true }),
			want:  []string{"CAP003 warning access_patterns/4/mapping/operations/0"},
			text: []string{"Pattern 4 changes status, the key of GSI ByStatus on Events", "2 index writes of 1 WCU, 2 WCU per request",
				"peak of 30 RPS that is 60 WCU/s on the index"}},
		{name: "CAP003 is quiet when no write changes an index key", code: "CAP003", loads: quiet},

		{name: "CAP004: 300 puts a second on the newest event_day", code: "CAP004",
			loads: with(func(l *capLoads) { l.putRPS = 300 }),
			want:  []string{"CAP004 info tables/Events/indexes/ByDay/partition_key"},
			text: []string{"The partition key event_day of GSI ByDay on Events: it grows with time",
				"Pattern 3 writes 300 RPS × 1 WRU = 300 WCU/s, all of it on one value",
				"event_day#shard with shard = hash(item id) % 2, so that each value takes at most 150 WCU/s"}},
		{name: "CAP004 is quiet at 40 puts a second (40 WCU/s, under 100)", code: "CAP004", loads: quiet},

		{name: "CAP005: 40 GB over 3,001 key values, × 2, is 27 MB a collection: quiet", code: "CAP005",
			loads: with(func(l *capLoads) { l.storedGB = 40 })},
		{name: "CAP005: 20,000 GB over 3,001 key values, × 2, is 13.3 GB", code: "CAP005",
			loads: with(func(l *capLoads) { l.storedGB = 20000 }),
			want:  []string{"CAP005 warning tables/Events/partition_key"},
			text: []string{"Events has an LSI (ByTime)", "stores 20,000 GB over 3,001 values",
				"skew of 2 its largest collection holds about 13.33 GB"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := findingsOf(capFindings(capShop(), capShopReport(tc.loads), nil), tc.code)
			var got []string
			for _, f := range fs {
				got = append(got, f.Code+" "+f.Severity+" "+f.Path)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			var messages []string
			for _, f := range fs {
				messages = append(messages, f.Message)
			}
			for _, phrase := range tc.text {
				if !strings.Contains(strings.Join(messages, "\n"), phrase) {
					t.Errorf("no message holds %q:\n%s", phrase, strings.Join(messages, "\n"))
				}
			}
		})
	}
}

func TestChangedKeyAttributes_namesWhatTheUpdateSetsOrWhatAPutCanChange(t *testing.T) {
	t.Parallel()
	tbl := capShop().Tables[0]
	ix := designer.Index{Name: "ByStatusThenPK", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}, {Name: "event_day", Type: designer.S}},
		SortKey: []designer.KeyAttribute{{Name: "pk", Type: designer.S}}}
	for _, c := range []struct {
		op   designer.Operation
		want string
	}{
		{designer.Operation{Op: "UpdateItem", Update: "SET #st = :st, note = :n", Names: map[string]string{"#st": "status"}}, "status"},
		{designer.Operation{Op: "UpdateItem", Update: "REMOVE event_day SET status = :s"}, "status and event_day"},
		// A put replaces the item under its table key, which it cannot change: pk is left out.
		{designer.Operation{Op: "PutItem"}, "status and event_day"},
	} {
		if got := changedKeyAttributes(c.op, tbl, ix, false); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.op.Op, c.op.Update, got, c.want)
		}
	}
}
