package rules

import (
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// telemetry is capShop with rates, the values its writes need and the entity counts, validated
// whole: the capacity report is package capacity's own, worked out from the sample items. Every
// item is under 1 KB and every read returns under 4 KB, so each eventually consistent read is 0.5
// RRU and each write 1 WRU a table or index, and the figures below can be checked on paper. At the
// rates set here nothing is near a limit.
func telemetry() designer.Design {
	d := capShop()
	rate := func(n int, peak float64) {
		p := &d.Patterns[n-1]
		p.PeakRPS, p.AvgRPS = designertest.Ptr(peak), designertest.Ptr(peak/2)
		p.Consistency = designer.Eventual
	}
	rate(1, 10)
	rate(2, 10)
	rate(3, 10)
	rate(4, 10)
	q := &d.Patterns[1].Mapping.Operations[0]
	q.Names, q.Values = map[string]string{"#s": "status"}, map[string]designer.Value{":s": designer.Str("NEW")}
	put := &d.Patterns[2].Mapping.Operations[0]
	put.Values = map[string]designer.Value{":pk": designer.Str("d9"), ":sk": designer.Str("EVENT#e9"), ":device_id": designer.Str("d9"),
		":status": designer.Str("NEW"), ":event_day": designer.Str("2026-11-26"), ":at": designer.Num("2")}
	upd := &d.Patterns[3].Mapping.Operations[0]
	upd.Values = map[string]designer.Value{":pk": designer.Str("d1"), ":sk": designer.Str("EVENT#e1"), ":st": designer.Str("SEEN")}
	d.Entities[1].Count = designertest.Ptr[int64](3_000_000)
	d.Entities[2].Count = designertest.Ptr[int64](1)
	return d
}

func TestValidate_capRulesOnTheirOwnComputedFigures(t *testing.T) {
	t.Parallel()
	setRPS := func(n int, peak float64) func(d *designer.Design) {
		return func(d *designer.Design) { d.Patterns[n-1].PeakRPS = designertest.Ptr(peak) }
	}
	tests := []struct {
		name string
		code string
		edit func(d *designer.Design)
		want []string // findings of the code, as "CODE severity path"
		text []string
	}{
		{name: "CAP001 at 7,000 reads a second of the one SETTINGS item", code: "CAP001", edit: setRPS(1, 7000),
			want: []string{"CAP001 error tables/Events/partition_key"},
			text: []string{"3,500 RCU/s", "117 %", "Pattern 1 reads 7,000 RPS × 0.5 RRU = 3,500 RCU/s, all of it on one value"}},
		{name: "no CAP001 at the base rates", code: "CAP001"},
		{name: "CAP002 at 1,400 queries a second of the 4 statuses", code: "CAP002", edit: setRPS(2, 1400),
			want: []string{"CAP002 warning tables/Events/indexes/ByStatus/partition_key"},
			text: []string{"it has 4 values (4 distinct values of status in the sample items)", "13 % of one partition", // 350 / 3,000 + (10 + 5) / 1,000
				"Pattern 2 reads 1,400 RPS × 0.5 RRU = 700 RCU/s, × 2 (skew) ÷ 4 values = 350 on the hottest value"}},
		{name: "no CAP002 at the base rates", code: "CAP002"},
		{name: "CAP003: pattern 4 sets status, the key of ByStatus", code: "CAP003",
			want: []string{"CAP003 warning access_patterns/4/mapping/operations/0"},
			text: []string{"Pattern 4 changes status, the key of GSI ByStatus on Events", "2 index writes of 1 WCU", "10 RPS that is 20 WCU/s"}},
		{name: "no CAP003 when the update sets another attribute", code: "CAP003",
			edit: func(d *designer.Design) {
				op := opOf(d, 4, 0)
				op.Update, op.Names = "SET note = :st", nil
			}},
		{name: "CAP004 at 300 new events a second on the newest event_day", code: "CAP004", edit: setRPS(3, 300),
			want: []string{"CAP004 info tables/Events/indexes/ByDay/partition_key"},
			text: []string{"Pattern 3 writes 300 RPS × 1 WRU = 300 WCU/s, all of it on one value", "hash(item id) % 2"}},
		{name: "no CAP004 at 10 new events a second", code: "CAP004"},
		{name: "CAP005 with 100 billion events over 3,001 keys and an LSI", code: "CAP005",
			edit: func(d *designer.Design) { d.Entities[1].Count = designertest.Ptr[int64](100_000_000_000) },
			want: []string{"CAP005 warning tables/Events/partition_key"},
			text: []string{"Events has an LSI (ByTime)", "over 3,001 values"}},
		{name: "no CAP005 with 3 million events", code: "CAP005"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := telemetry()
			if tc.edit != nil {
				tc.edit(&d)
			}
			fs := findingsOf(Validate(d), tc.code)
			var got, messages []string
			for _, f := range fs {
				got = append(got, f.Code+" "+f.Severity+" "+f.Path)
				messages = append(messages, f.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("findings:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"), strings.Join(messages, "\n"))
			}
			for _, phrase := range tc.text {
				if !strings.Contains(strings.Join(messages, "\n"), phrase) {
					t.Errorf("no message holds %q:\n%s", phrase, strings.Join(messages, "\n"))
				}
			}
		})
	}
}

// Validating each revision from the last one's memo (ValidateFrom) finds what validating it
// afresh finds while item edits move the load on one key and leave the others' alone: the CAP
// findings taken over are those of the keys whose loads did not change.
func TestValidateFrom_capFindingsFollowTheKeysAnItemEditMoves(t *testing.T) {
	t.Parallel()
	d := telemetry()
	d.Patterns[1].PeakRPS = designertest.Ptr(1400.0)
	d.Patterns[2].PeakRPS = designertest.Ptr(300.0)
	capOf := func(fs []Finding) []Finding {
		var out []Finding
		for _, f := range fs {
			if strings.HasPrefix(f.Code, "CAP") {
				out = append(out, f)
			}
		}
		return out
	}
	found, memo := ValidateFrom(d, nil, nil)
	for _, code := range []string{"CAP002", "CAP004"} {
		if len(findingsOf(found, code)) == 0 {
			t.Fatalf("no %s to follow: %v", code, capOf(found))
		}
	}
	for _, e := range []struct {
		change designer.SetItemCell
		moves  bool // the CAP findings change
	}{
		{designer.SetItemCell{Table: "Events", ID: "e5", Attribute: "status", Text: "ARCHIVED"}, true}, // 5 statuses
		{designer.SetItemCell{Table: "Events", ID: "e4", Attribute: "note", Text: "no key"}, false},
		{designer.SetItemCell{Table: "Events", ID: "e1", Attribute: "status", Text: "DONE"}, true}, // 4 again
		{designer.SetItemCell{Table: "Events", ID: "e2", Attribute: "status", Text: "DONE"}, true}, // 3
	} {
		next, err := e.change.Apply(d)
		if err != nil {
			t.Fatal(err)
		}
		var got []Finding
		got, memo = ValidateFrom(next, nil, memo)
		want := Validate(next)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s: the CAP findings taken over are\n%v\nvalidated afresh\n%v", e.change.Summary(), capOf(got), capOf(want))
		}
		if moved := !reflect.DeepEqual(capOf(got), capOf(found)); moved != e.moves {
			t.Fatalf("after %s the CAP findings changed: %v, want %v", e.change.Summary(), moved, e.moves)
		}
		d, found = next, got
	}
}
