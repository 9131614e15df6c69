package format

import (
	"runtime"
	"strings"
	"testing"
)

// The importers' work against their input's size: each fuzz input is a unit of a document,
// repeated to about 4 KB and to four times as many copies, and the second import may allocate at
// most growthBound times what the first does (objects and bytes; allocations count work
// deterministically, where seconds would not). Linear work gives 4, with steps where a buffer
// grows; work that grows with the square gives 16.
const growthBound = 5.5

// importWork is the allocations, and their bytes, of one Import of data.
func importWork(data []byte) (n, bytes uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	Import([]File{{Name: "doc", Data: data}})
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// checkGrowth imports doc(k) and doc(4k), k the copies that make about 4 KB of unit, and fails
// when the larger costs more than growthBound times the smaller.
func checkGrowth(t *testing.T, unit string, doc func(copies int) string) {
	if unit == "" || len(unit) > 2048 {
		return
	}
	// A multiple of 4 copies, so that both documents end the same way (an even number of
	// quotes, brackets paired as often).
	k := ((4<<10)/len(unit) + 3) / 4 * 4
	small, large := []byte(doc(k)), []byte(doc(4*k))
	Import([]File{{Name: "doc", Data: small}}) // what every import shares is set up once
	ns, bs := importWork(small)
	nl, bl := importWork(large)
	if float64(nl) > growthBound*float64(ns)+2000 || float64(bl) > growthBound*float64(bs)+1<<20 {
		t.Fatalf("%d copies: %d allocations of %d bytes; %d copies: %d of %d bytes", k, ns, bs, 4*k, nl, bl)
	}
}

// FuzzImport_markdownWorkGrowsWithSize repeats a unit of markdown under a data model document's
// headings, and alone (read as whatever kind it looks like).
func FuzzImport_markdownWorkGrowsWithSize(f *testing.F) {
	for _, s := range []string{
		"| u1 | s1 | x |\n", "- **Partition Key**: PK (String)\n", "> > quoted `code` *em*\n", "- a\n  - b\n",
		"### Users Table\n\n| PK | SK |\n|---|---|\n| a | b |\n", "| 1 | Get user | GetItem on Users (PK = :u) |\n",
		"## Access Patterns\n\n| # | Pattern | RPS |\n|---|---|---|\n| 1 | Get | 10 |\n", "PK: USER#{user_id}\nSK: PROFILE\n",
		"[a]: b\n", "```\ncode\n```\n", "`` ` ``` x\n",
		"## Entity Relationships Deep Dive\n- **Owner → Pet**: 1:Many (avg 1.6 pets per owner)\n\n## Application Overview\n40,000 owners, 4 pets per owner per year, kept 7 years\n",
	} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, unit string, underModel bool) {
		checkGrowth(t, unit, func(copies int) string {
			body := strings.Repeat(unit, copies)
			if underModel {
				return shapeHead + "| PK | SK | note |\n|---|---|---|\n" + body
			}
			return body
		})
	})
}

// FuzzImport_workbenchWorkGrowsWithSize repeats a unit of a NoSQL Workbench model's sample items.
func FuzzImport_workbenchWorkGrowsWithSize(f *testing.F) {
	for _, s := range []string{`{"id": {"S": "a"}, "x": {"N": "1"}}`, `{"id": {"S": "a"}, "m": {"M": {"k": {"L": [{"NULL": true}]}}}}`, `{"id": {"N": "1e5"}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, unit string) {
		checkGrowth(t, unit, func(copies int) string {
			return `{"ModelName": "m", "DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}}, "TableData": [` +
				strings.TrimSuffix(strings.Repeat(unit+",", copies), ",") + `]}]}`
		})
	})
}
