package mcpmodel

import (
	"encoding/json"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// petsDesign is a design as an import from markdown leaves it: key conditions whose placeholders
// have no values, and attribute names DynamoDB reserves (status, day).
func petsDesign() designer.Design {
	item := func(owner, pet, status, day string) designer.SampleItem {
		return designer.SampleItem{ID: owner + pet, Item: designer.Item{"owner_id": designer.Str(owner), "pet_id": designer.Str(pet),
			"status": designer.Str(status), "day": designer.Str(day)}}
	}
	sk := designer.KeyAttribute{Name: "pet_id", Type: designer.S}
	return designer.Design{Name: "Pets", Tables: []designer.Table{{
		Name: "Pets", PartitionKey: designer.KeyAttribute{Name: "owner_id", Type: designer.S}, SortKey: &sk,
		GSIs: []designer.Index{{Name: "ByStatus", PartitionKey: []designer.KeyAttribute{{Name: "status", Type: designer.S}},
			Projection: designer.Projection{Type: designer.All}}},
		Items: []designer.SampleItem{item("o-1", "p-1", "lost", "mon"), item("o-2", "p-2", "home", "tue"), item("o-2", "p-3", "home", "wed")},
	}}}
}

func withPattern(d designer.Design, ops ...designer.Operation) designer.Design {
	d.Patterns = []designer.Pattern{{Number: 1, Description: "a pattern", Mapping: designer.Mapping{Operations: ops}}}
	return d
}

func onlyCommand(t *testing.T, d designer.Design) opCommand {
	t.Helper()
	cmds := commandsOf(t, d, "access_patterns/0", d.Patterns[0].Mapping.Operations)
	if len(cmds) != 1 {
		t.Fatalf("%d commands, want 1", len(cmds))
	}
	return cmds[0]
}

// runs evaluates a read command's request and returns how many items it finds.
func runs(t *testing.T, d designer.Design, c opCommand) int {
	t.Helper()
	op, body, ok := cliRequest(t, c.words)
	if !ok {
		t.Fatalf("not a read: %q", c.words)
	}
	resp, err := dynamo.EvaluateJSON(d, op, body)
	if err != nil {
		t.Fatalf("%s %s: %v", op, body, err)
	}
	var r struct {
		Count int
		Item  designer.Item
	}
	if err := json.Unmarshal(resp, &r); err != nil {
		t.Fatal(err)
	}
	if r.Item != nil {
		r.Count = 1
	}
	return r.Count
}

func TestExport_missingKeyValuesComeFromASampleItem(t *testing.T) {
	t.Parallel()
	d := withPattern(petsDesign(), designer.Operation{Op: "GetItem", Table: "Pets", KeyCondition: "owner_id = :owner_id AND pet_id = :pet_id"})
	c := onlyCommand(t, d)
	if got, want := flagJSON(t, c, "--key"), `{"owner_id":{"S":"o-1"},"pet_id":{"S":"p-1"}}`; got != want {
		t.Fatalf("--key %s, want %s", got, want)
	}
	if n := runs(t, d, c); n != 1 {
		t.Fatalf("the command reads %d items", n)
	}
}

func TestExport_reservedWordsAreAliased(t *testing.T) {
	t.Parallel()
	d := withPattern(petsDesign(), designer.Operation{Op: "Query", Table: "Pets", Index: "ByStatus", KeyCondition: "status = :status",
		Filter: "day <> :never", Projection: "pet_id, day", Values: map[string]designer.Value{":never": designer.Str("sun")}})
	c := onlyCommand(t, d)
	for flag, want := range map[string]string{"--key-condition-expression": "#status = :status", "--filter-expression": "#day <> :never",
		"--projection-expression": "pet_id, #day"} {
		if got := c.words[indexOf(c.words, flag)+1]; got != want {
			t.Errorf("%s %q, want %q", flag, got, want)
		}
	}
	if got, want := flagJSON(t, c, "--expression-attribute-names"), `{"#day":"day","#status":"status"}`; got != want {
		t.Errorf("names %s, want %s", got, want)
	}
	if got, want := flagJSON(t, c, "--expression-attribute-values"), `{":never":{"S":"sun"},":status":{"S":"lost"}}`; got != want {
		t.Errorf("values %s, want %s", got, want)
	}
	if n := runs(t, d, c); n != 1 {
		t.Fatalf("the command reads %d items", n)
	}
	if d.Patterns[0].Mapping.Operations[0].Names != nil {
		t.Fatal("the export changed the design's operation")
	}
}

func TestExport_aFilterValueIsTakenFromAnItemTheQueryReturns(t *testing.T) {
	t.Parallel()
	// The first item's day (mon) is in another partition: with it the query returns nothing, so
	// the value comes from the first item of owner o-2 instead.
	d := withPattern(petsDesign(), designer.Operation{Op: "Query", Table: "Pets", KeyCondition: "owner_id = :o", Filter: "day = :day",
		Values: map[string]designer.Value{":o": designer.Str("o-2")}})
	c := onlyCommand(t, d)
	if got, want := flagJSON(t, c, "--expression-attribute-values"), `{":day":{"S":"tue"},":o":{"S":"o-2"}}`; got != want {
		t.Fatalf("values %s, want %s", got, want)
	}
	if n := runs(t, d, c); n != 1 {
		t.Fatalf("the command reads %d items", n)
	}
}

func TestExport_withoutAMatchingItemThePatternKeepsItsReason(t *testing.T) {
	t.Parallel()
	d := withPattern(petsDesign(), designer.Operation{Op: "Query", Table: "Pets", KeyCondition: "owner_id = :owner_id AND begins_with(pet_id, :prefix)",
		Values: map[string]designer.Value{":prefix": designer.Str("cat#")}})
	e := exportedEntries(t, d)
	if len(e) != 1 || e[0].Implementation != "" || e[0].Table != "Pets" || e[0].DynamoDBOperation != "Query" {
		t.Fatalf("want one entry without a command: %+v", e)
	}
	for _, want := range []string{"owner_id = :owner_id", ":owner_id (owner_id)", "no sample item of Pets"} {
		if !strings.Contains(e[0].Reason, want) {
			t.Errorf("the reason %q does not say %q", e[0].Reason, want)
		}
	}
	d.Tables[0].Items = nil
	if e := exportedEntries(t, d); len(e) != 1 || e[0].Implementation != "" || !strings.Contains(e[0].Reason, ":owner_id") {
		t.Fatalf("a table without items: %+v", e)
	}
}

func TestExport_aWriteTakesItsKeyFromASampleItem(t *testing.T) {
	t.Parallel()
	d := withPattern(petsDesign(), designer.Operation{Op: "UpdateItem", Table: "Pets", KeyCondition: "owner_id = :owner_id AND pet_id = :pet_id",
		Update: "SET status = :status", Condition: "attribute_exists(pet_id)"})
	c := onlyCommand(t, d)
	if got, want := flagJSON(t, c, "--key"), `{"owner_id":{"S":"o-1"},"pet_id":{"S":"p-1"}}`; got != want {
		t.Fatalf("--key %s, want %s", got, want)
	}
	if got := c.words[indexOf(c.words, "--update-expression")+1]; got != "SET #status = :status" {
		t.Fatalf("--update-expression %q", got)
	}
	if got, want := flagJSON(t, c, "--expression-attribute-values"), `{":status":{"S":"lost"}}`; got != want {
		t.Fatalf("values %s, want %s", got, want)
	}
}

func indexOf(words []string, w string) int {
	for i, x := range words {
		if x == w {
			return i
		}
	}
	return len(words) - 1
}
