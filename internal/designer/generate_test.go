package designer_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
)

func genTestFloat(v float64) *float64 { return &v }

func generateTable() designer.Table {
	return designer.Table{
		Name:         "App",
		PartitionKey: designer.KeyAttribute{Name: "PK", Type: designer.S},
		SortKey:      &designer.KeyAttribute{Name: "SK", Type: designer.S},
		Attributes: []designer.Attribute{
			{Name: "expires_at", Type: designer.N},
			{Name: "age", Type: designer.N},
			{Name: "zip", Type: designer.S},
		},
		EntityTypes: []designer.EntityType{
			{Entity: "User", PKTemplate: "USER#{user_id}", SKTemplate: "PROFILE"},
			{Entity: "Order", PKTemplate: "USER#{user_id}", SKTemplate: "ORDER#{created_at}#{order_id}"},
		},
		GSIs: []designer.Index{{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "gsi1pk", Type: designer.S}}, SortKey: []designer.KeyAttribute{{Name: "gsi1sk", Type: designer.N}}}},
	}
}

func everyGenerator() map[string]designer.Generator {
	return map[string]designer.Generator{
		"user_id":    {Kind: "uuid"},
		"name":       {Kind: "name"},
		"email":      {Kind: "email"},
		"created_at": {Kind: "date", Min: genTestFloat(1704067200), Max: genTestFloat(1706745599)},
		"expires_at": {Kind: "date"},
		"age":        {Kind: "number", Min: genTestFloat(18), Max: genTestFloat(99)},
		"price":      {Kind: "number", Min: genTestFloat(0.5), Max: genTestFloat(20)},
		"zip":        {Kind: "number", Min: genTestFloat(1000), Max: genTestFloat(9999)},
		"status":     {Kind: "one_of", Values: []string{"NEW", "PAID", ""}},
		"flag":       {Kind: "one_of", Values: []string{"true", "false"}},
		"order_id":   {Kind: "template", Template: "O-{label}"},
		"label":      {Kind: "template", Template: "{status}/{age}"},
		"bio":        {Kind: "text", Min: genTestFloat(2), Max: genTestFloat(4)},
		"mystery":    {Kind: "pick"},
	}
}

func TestGenerateItems_sameSeedSameItems(t *testing.T) {
	t.Parallel()
	tbl, gens := generateTable(), everyGenerator()
	a := designer.GenerateItems(tbl, gens, 50, 42)
	b := designer.GenerateItems(tbl, gens, 50, 42)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs with seed 42 differ")
	}
	c := designer.GenerateItems(tbl, gens, 50, 43)
	if reflect.DeepEqual(a, c) {
		t.Fatal("seeds 42 and 43 gave the same items")
	}
	if got := designer.GenerateItems(tbl, gens, 0, 42); len(got) != 0 {
		t.Fatalf("count 0 gave %d items", len(got))
	}
}

func TestGenerateItems_eachKind(t *testing.T) {
	t.Parallel()
	items := designer.GenerateItems(generateTable(), everyGenerator(), 200, 7)
	if len(items) != 200 {
		t.Fatalf("%d items, want 200", len(items))
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	email := regexp.MustCompile(`^[a-z]+\.[a-z]+@[a-z.]+\.(com|org|net)$`)
	sawAbsentStatus := false
	for i, it := range items {
		if v := it["user_id"]; v.Type != designer.S || !uuid.MatchString(v.S) {
			t.Fatalf("item %d user_id = %+v", i, v)
		}
		if v := it["name"]; v.Type != designer.S || len(strings.Fields(v.S)) < 2 {
			t.Fatalf("item %d name = %+v", i, v)
		}
		if v := it["email"]; v.Type != designer.S || !email.MatchString(v.S) {
			t.Fatalf("item %d email = %+v", i, v)
		}
		created, err := time.Parse(time.RFC3339, it["created_at"].S)
		if err != nil || created.Unix() < 1704067200 || created.Unix() > 1706745599 {
			t.Fatalf("item %d created_at = %+v (%v)", i, it["created_at"], err)
		}
		if v := it["expires_at"]; v.Type != designer.N {
			t.Fatalf("item %d expires_at = %+v, want epoch seconds as a number", i, v)
		}
		age, err := strconv.Atoi(it["age"].S)
		if it["age"].Type != designer.N || err != nil || age < 18 || age > 99 {
			t.Fatalf("item %d age = %+v", i, it["age"])
		}
		price, err := strconv.ParseFloat(it["price"].S, 64)
		if it["price"].Type != designer.N || err != nil || price < 0.5 || price > 20 || !strings.Contains(it["price"].S, ".") {
			t.Fatalf("item %d price = %+v", i, it["price"])
		}
		if v := it["zip"]; v.Type != designer.S {
			t.Fatalf("item %d zip = %+v, want the declared string type", i, v)
		}
		if v := it["flag"]; v.Type != designer.BOOL {
			t.Fatalf("item %d flag = %+v, want an inferred boolean", i, v)
		}
		if n := len(strings.Fields(it["bio"].S)); n < 2 || n > 4 {
			t.Fatalf("item %d bio = %q", i, it["bio"].S)
		}
		if _, ok := it["mystery"]; ok {
			t.Fatalf("item %d has a value from an unknown generator kind", i)
		}
		status, hasStatus := it["status"]
		if !hasStatus {
			sawAbsentStatus = true
			if _, ok := it["label"]; ok {
				t.Fatalf("item %d has a label although its status is missing", i)
			}
			continue
		}
		if want := status.S + "/" + it["age"].S; it["label"].S != want {
			t.Fatalf("item %d label = %q, want %q", i, it["label"].S, want)
		}
		if want := "O-" + it["label"].S; it["order_id"].S != want {
			t.Fatalf("item %d order_id = %q, want %q", i, it["order_id"].S, want)
		}
	}
	if !sawAbsentStatus {
		t.Fatal("an empty one_of value never left status out")
	}
}

func TestGenerateItems_keyDefaultsFollowEntityTemplates(t *testing.T) {
	t.Parallel()
	tbl := generateTable()
	items := designer.GenerateItems(tbl, map[string]designer.Generator{"created_at": {Kind: "date"}}, 4, 1)
	rows := designer.TableRows(designer.Table{PartitionKey: tbl.PartitionKey, SortKey: tbl.SortKey, EntityTypes: tbl.EntityTypes, Items: sampleItems(items)})
	counts := map[string]int{}
	for _, r := range rows {
		counts[r.EntityType]++
	}
	if counts["User"] != 2 || counts["Order"] != 2 {
		t.Fatalf("entity types of generated items = %v, want 2 User and 2 Order", counts)
	}
	if got := items[0]["PK"].S; got != "USER#1" {
		t.Errorf("first PK = %q, want USER#1", got)
	}
	if got := items[1]["SK"].S; !strings.HasPrefix(got, "ORDER#"+items[1]["created_at"].S+"#") {
		t.Errorf("second SK = %q, want it built from created_at", got)
	}
	for i, it := range items {
		if it["gsi1pk"].Type != designer.S || !strings.HasPrefix(it["gsi1pk"].S, "GSI1PK#") {
			t.Errorf("item %d gsi1pk = %+v", i, it["gsi1pk"])
		}
		if it["gsi1sk"].Type != designer.N || it["gsi1sk"].S != strconv.Itoa(i+1) {
			t.Errorf("item %d gsi1sk = %+v", i, it["gsi1sk"])
		}
	}
}

func TestGenerateItems_keyDefaultsWithoutTemplates(t *testing.T) {
	t.Parallel()
	tbl := designer.Table{
		PartitionKey: designer.KeyAttribute{Name: "tenant", Type: designer.S},
		SortKey:      &designer.KeyAttribute{Name: "seq", Type: designer.N},
		LSIs:         []designer.Index{{Name: "ByBlob", SortKey: []designer.KeyAttribute{{Name: "blob", Type: designer.B}}}},
	}
	items := designer.GenerateItems(tbl, nil, 3, 9)
	for i, it := range items {
		n := strconv.Itoa(i + 1)
		if !cellValueEqual(it["tenant"], designer.Str("TENANT#"+n)) || !cellValueEqual(it["seq"], designer.Num(n)) || string(it["blob"].B) != "BLOB#"+n {
			t.Errorf("item %d = %v", i, it)
		}
	}
}

func TestGenerator_jsonForm(t *testing.T) {
	t.Parallel()
	data, err := json.Marshal(designer.Generator{Kind: "number", Min: genTestFloat(1), Max: genTestFloat(5)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), `{"kind":"number","min":1,"max":5}`; got != want {
		t.Fatalf("json = %s, want %s", got, want)
	}
}

func sampleItems(items []designer.Item) []designer.SampleItem {
	out := make([]designer.SampleItem, len(items))
	for i, it := range items {
		out[i] = designer.SampleItem{ID: strconv.Itoa(i), Item: it}
	}
	return out
}

func BenchmarkGenerateItems1000(b *testing.B) {
	tbl, gens := generateTable(), everyGenerator()
	b.ReportAllocs()
	for b.Loop() {
		designer.GenerateItems(tbl, gens, 1000, 1)
	}
}

func TestGenerateItems_tableKeysAreNeverLeftOut(t *testing.T) {
	t.Parallel()
	tbl := designer.Table{PartitionKey: designer.KeyAttribute{Name: "PK", Type: designer.S}, GSIs: []designer.Index{{Name: "G", PartitionKey: []designer.KeyAttribute{{Name: "g", Type: designer.S}}}}}
	gens := map[string]designer.Generator{
		"PK": {Kind: "template", Template: "X#{missing}"},
		"g":  {Kind: "one_of", Values: []string{""}},
	}
	for i, it := range designer.GenerateItems(tbl, gens, 3, 5) {
		if want := "PK#" + strconv.Itoa(i+1); it["PK"].S != want {
			t.Errorf("item %d PK = %+v, want %s", i, it["PK"], want)
		}
		if _, ok := it["g"]; ok {
			t.Errorf("item %d has g although its generator made nothing; an index key may stay sparse", i)
		}
	}
}
