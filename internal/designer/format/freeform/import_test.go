package freeform

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
)

func importFile(t *testing.T, path string) (designer.Design, []designer.ImportNote) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !Looks(string(data)) {
		t.Errorf("%s: Looks = false", path)
	}
	d, notes, err := Import(data)
	if err != nil {
		t.Fatalf("%s: Import: %v", path, err)
	}
	return d, notes
}

func table(t *testing.T, d designer.Design, name string) designer.Table {
	t.Helper()
	tb, _, ok := d.TableByName(name)
	if !ok {
		var names []string
		for _, x := range d.Tables {
			names = append(names, x.Name)
		}
		t.Fatalf("no table %s; the tables are %v", name, names)
	}
	return tb
}

// keys says a table's or index's key as "PK/SK".
func keys(t designer.Table) string {
	s := t.PartitionKey.Name + ":" + string(t.PartitionKey.Type)
	if t.SortKey != nil {
		s += "/" + t.SortKey.Name + ":" + string(t.SortKey.Type)
	}
	return s
}

func indexKeys(ix designer.Index) string {
	var parts []string
	for _, k := range append(slices.Clone(ix.PartitionKey), ix.SortKey...) {
		parts = append(parts, k.Name)
	}
	return ix.Name + "(" + strings.Join(parts, "/") + ")"
}

func indexes(t designer.Table) []string {
	var out []string
	for _, ix := range append(slices.Clone(t.GSIs), t.LSIs...) {
		out = append(out, indexKeys(ix))
	}
	return out
}

func templates(t designer.Table) []string {
	var out []string
	for _, et := range t.EntityTypes {
		out = append(out, et.Entity+" "+et.PKTemplate+" "+et.SKTemplate)
	}
	return out
}

// served says how each pattern is served: "Query Orders.ByStatus #pk = :pk", or "-" for none.
func served(d designer.Design) []string {
	var out []string
	for _, p := range d.Patterns {
		if len(p.Mapping.Operations) == 0 {
			out = append(out, p.Description+": -")
			continue
		}
		op := p.Mapping.Operations[0]
		where := op.Table
		if op.Index != "" {
			where += "." + op.Index
		}
		out = append(out, strings.TrimSpace(p.Description+": "+op.Op+" "+where+" "+op.KeyCondition))
	}
	return out
}

func noteAt(notes []designer.ImportNote, line int, contains string) bool {
	return slices.ContainsFunc(notes, func(n designer.ImportNote) bool {
		return n.Line == line && strings.Contains(n.Message, contains)
	})
}

func TestImport_adrWithAKeyTable(t *testing.T) {
	t.Parallel()
	d, notes := importFile(t, filepath.Join("testdata", "adr-key-table.md"))
	if d.Name != "ADR-7: One table for the lending library" {
		t.Errorf("name = %q", d.Name)
	}
	lib := table(t, d, "library-main")
	if len(d.Tables) != 1 || keys(lib) != "PK:S/SK:S" || lib.BillingMode != designer.OnDemand {
		t.Errorf("%d tables; library-main keys %s, billing %s", len(d.Tables), keys(lib), lib.BillingMode)
	}
	if got, want := templates(lib), []string{"Member MEMBER#{member_id} PROFILE", "Book BOOK#{isbn} DETAILS", "Loan MEMBER#{member_id} LOAN#{due_date}#{isbn}"}; !slices.Equal(got, want) {
		t.Errorf("entity types = %q, want %q", got, want)
	}
	if lib.EntityTypes[2].Description != "LoansByBook: GSI1PK = BOOK#{isbn}, GSI1SK = LOAN#{borrowed_at}" {
		t.Errorf("the loan's index keys = %q", lib.EntityTypes[2].Description)
	}
	if got := indexes(lib); !slices.Equal(got, []string{"LoansByBook(GSI1PK/GSI1SK)"}) || lib.GSIs[0].Projection.Type != designer.KeysOnly {
		t.Errorf("indexes = %v, projection %+v", got, lib.GSIs[0].Projection)
	}
	want := []string{
		"Look up a member: GetItem library-main #pk = :pk AND #sk = :sk",
		"List a member's loans: Query library-main #pk = :pk AND begins_with(#sk, :sk)",
		"Loan history of a book: Query library-main.LoansByBook #gsi1pk = :gsi1pk",
		"Record a return: DeleteItem library-main #pk = :pk AND #sk = :sk",
	}
	if got := served(d); !slices.Equal(got, want) {
		t.Errorf("patterns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	op := d.Patterns[1].Mapping.Operations[0]
	if op.Names["#sk"] != "SK" || !op.Values[":sk"].Equal(designer.Str("LOAN#")) || !strings.Contains(op.Notes, ":pk stands for MEMBER#{member_id}") {
		t.Errorf("pattern 2's operation = %+v", op)
	}
	if d.Patterns[0].Type != designer.Read || d.Patterns[3].Type != designer.Write {
		t.Errorf("types = %s, %s", d.Patterns[0].Type, d.Patterns[3].Type)
	}
	for line, what := range map[int]string{12: "table library-main", 18: "entity type Member", 29: `access pattern 1 "Look up a member"`} {
		if !noteAt(notes, line, what) {
			t.Errorf("no note at line %d saying %q: %v", line, what, notes)
		}
	}
	if !slices.ContainsFunc(d.Prose.Sections, func(s designer.Section) bool {
		return s.Title == "Consequences" && strings.Contains(s.Body, "Reports across all branches")
	}) {
		t.Errorf("the Consequences section was not kept: %+v", d.Prose.Sections)
	}
}

func TestImport_layoutWithKeyBulletsAndAnIndexList(t *testing.T) {
	t.Parallel()
	d, notes := importFile(t, filepath.Join("testdata", "layout-bullets.md"))
	fleet := table(t, d, "fleet-events")
	if keys(fleet) != "PK:S/SK:S" || fleet.BillingMode != designer.Provisioned || fleet.TTLAttribute != "expires_at" {
		t.Errorf("fleet-events: keys %s, billing %s, TTL %q", keys(fleet), fleet.BillingMode, fleet.TTLAttribute)
	}
	if got, want := templates(fleet), []string{"Vehicle VEHICLE#{vin} META", "Reading VEHICLE#{vin} READING#{recorded_at}"}; !slices.Equal(got, want) {
		t.Errorf("entity types = %q, want %q", got, want)
	}
	if got := indexes(fleet); !slices.Equal(got, []string{"ByDepot(DEPOT_PK/DEPOT_SK)"}) {
		t.Errorf("indexes = %v", got)
	}
	if p := fleet.GSIs[0].Projection; p.Type != designer.Include || !slices.Equal(p.Attributes, []string{"model", "in_service"}) {
		t.Errorf("ByDepot projection = %+v", p)
	}
	if len(fleet.Items) != 1 || !fleet.Items[0].Item["SK"].Equal(designer.Str("READING#2026-03-01T08:00:00Z")) {
		t.Errorf("the example item = %+v", fleet.Items)
	}
	vehicle, _, ok := d.EntityByName("Vehicle")
	if !ok || len(vehicle.Attributes) != 3 || vehicle.Attributes[2] != (designer.Attribute{Name: "in_service", Type: designer.BOOL, Description: "whether the vehicle is on the road"}) {
		t.Errorf("Vehicle = %+v", vehicle)
	}
	want := []string{
		"Get a vehicle: GetItem fleet-events #pk = :pk AND #sk = :sk",
		"Vehicles of a depot: Query fleet-events.ByDepot #depot_pk = :depot_pk",
		// A key named without a value is a condition whose value the team fills in.
		"Retire a vehicle: UpdateItem fleet-events #pk = :pk AND #sk = :sk",
		"Vehicles by depot key: Query fleet-events.ByDepot #depot_pk = :depot_pk",
		"Latest readings of a vehicle: Query fleet-events #pk = :pk AND begins_with(#sk, :sk)",
		"Readings between two times: Query fleet-events #pk = :pk AND #sk BETWEEN :sk_from AND :sk_to",
		"Drop raw readings: -",
	}
	if got := served(d); !slices.Equal(got, want) {
		t.Errorf("patterns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Under the Vehicle heading, an UpdateItem that gives no key values addresses a vehicle: its key
	// is the entity's templates.
	if op := d.Patterns[2].Mapping.Operations[0]; !op.Values[":sk"].Equal(designer.Str("META")) || !strings.Contains(op.Notes, ":pk stands for VEHICLE#{vin}") || !noteAt(notes, 25, "the key is Vehicle's") {
		t.Errorf("an update under the Vehicle heading: values %v, notes %q; import notes %v", op.Values, op.Notes, notes)
	}
	if op := d.Patterns[3].Mapping.Operations[0]; len(op.Values) != 0 || !noteAt(notes, 26, "the text names the key, not its values") {
		t.Errorf("a key named without a value: values %v, notes %v", op.Values, notes)
	}
	if ttl := d.Patterns[6]; ttl.Status != designer.StatusOutside || !strings.Contains(ttl.Mapping.Notes, "TTL") || !noteAt(notes, 44, "served by TTL") {
		t.Errorf("a pattern served by TTL: status %q, notes %q", ttl.Status, ttl.Mapping.Notes)
	}
	if !noteAt(notes, 48, "GSI ByDepot (also called GSI1)") {
		t.Errorf("no note for the index: %v", notes)
	}
}

func TestImport_numberedPatternList(t *testing.T) {
	t.Parallel()
	d, notes := importFile(t, filepath.Join("testdata", "numbered-patterns.md"))
	if len(d.Tables) != 2 || keys(table(t, d, "Users")) != "user_id:S" || keys(table(t, d, "Sessions")) != "user_id:S/started_at:N" {
		t.Fatalf("tables = %+v", d.Tables)
	}
	want := []string{
		"Get user by id: GetItem Users",
		"List the sessions of a user: Query Sessions",
		"Start a session: PutItem Sessions",
		"Sign out everywhere: BatchWriteItem Sessions",
		"Rename a user: GetItem Users",
	}
	if got := served(d); !slices.Equal(got, want) {
		t.Errorf("patterns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ops := d.Patterns[4].Mapping.Operations; len(ops) != 2 || ops[1].Op != "UpdateItem" || ops[1].Table != "Users" || d.Patterns[4].Type != designer.Write {
		t.Errorf("pattern 5 reads then updates: %+v", ops)
	}
	if op := d.Patterns[1].Mapping.Operations[0]; !op.Descending || op.Limit == nil || *op.Limit != 20 || op.Consistent {
		t.Errorf("pattern 2 reads newest first, 20 at a time: %+v", op)
	}
	if op := d.Patterns[0].Mapping.Operations[0]; !op.Consistent || op.Descending {
		t.Errorf("pattern 1 is a strongly consistent read: %+v", op)
	}
	if !strings.Contains(d.Patterns[3].Mapping.Notes, "deletes them 25 at a time") || !noteAt(notes, 22, "kept in the notes of access pattern 4") {
		t.Errorf("the continuation line was not kept with pattern 4: %q", d.Patterns[3].Mapping.Notes)
	}
	if !noteAt(notes, 7, "no billing mode is stated; on-demand was taken") {
		t.Errorf("the billing mode taken is not said: %v", notes)
	}
}

func TestImport_noDesignIsRefusedSayingWhy(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		"# Retro notes\n\nWe talked about DynamoDB and agreed to meet again.\n\n## Actions\n\n- book a room\n",
		"# Keys\n\n```\nPK: USER#{user_id}\n```\n"[:9],
	} {
		_, _, err := Import([]byte(doc))
		var ve *designer.ValidationError
		if !errors.As(err, &ve) || ve.Field != "file" || !strings.Contains(err.Error(), "no design") {
			t.Errorf("%q: error = %v", doc, err)
		}
	}
}

// sharedSeed finds a seed beside the repository (../shared from its root), as CI has it.
func sharedSeed(t *testing.T, pattern string) string {
	t.Helper()
	for _, dir := range []string{filepath.Join("..", "..", "..", "..", "..", "shared", "seeds"), "/work/shared/seeds"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pattern)); len(m) > 0 {
			return m[0]
		}
	}
	t.Skipf("the shared seeds (../shared/seeds beside the repository) are not here; %s is not read", pattern)
	return ""
}

func TestImport_sharedADRSeed(t *testing.T) {
	t.Parallel()
	d, notes := importFile(t, sharedSeed(t, "003_*.txt"))
	todo := table(t, d, "todo-app-data")
	if len(d.Tables) != 1 || keys(todo) != "PK:S/SK:S" {
		t.Errorf("%d tables, todo-app-data keys %s", len(d.Tables), keys(todo))
	}
	if got, want := templates(todo), []string{"Users USER#{user_id} METADATA", "Tasks TASK#{user_id} TASK#{task_id}", "Idempotency IDEMPOTENCY#{request_id} METADATA"}; !slices.Equal(got, want) {
		t.Errorf("entity types = %q, want %q", got, want)
	}
	if got, want := indexes(todo), []string{"GSI1(GSI1PK/GSI1SK)", "GSI2(GSI2PK/GSI2SK)", "GSI3(GSI3PK/GSI3SK)", "GSI4(GSI4PK/GSI4SK)"}; !slices.Equal(got, want) {
		t.Errorf("indexes = %v, want %v", got, want)
	}
	if todo.TTLAttribute != "expiration_timestamp" {
		t.Errorf("TTL = %q", todo.TTLAttribute)
	}
	if len(d.Patterns) != 25 {
		t.Errorf("%d access patterns, want the table's 25", len(d.Patterns))
	}
	got := served(d)
	for _, want := range []string{
		"Fetch user by user_id: GetItem todo-app-data #pk = :pk AND #sk = :sk",
		"Fetch tasks by date range for user: Query todo-app-data.GSI2 #gsi2pk = :gsi2pk AND #gsi2sk BETWEEN :gsi2sk_from AND :gsi2sk_to",
		"Search tasks by title/description: Scan todo-app-data",
		"Pagination support: -",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no pattern %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	users, _, ok := d.EntityByName("Users")
	if !ok || len(users.Attributes) != 4 || users.Attributes[2].Type != designer.N {
		t.Errorf("Users = %+v", users)
	}
	if !noteAt(notes, 41, "entity type Users") {
		t.Errorf("no note for the Users key structure at line 41")
	}
}

func TestImport_sharedLayoutSeed(t *testing.T) {
	t.Parallel()
	d, _ := importFile(t, sharedSeed(t, "004_*.txt"))
	data := table(t, d, "ma-teachers-contracts-data")
	if len(d.Tables) != 1 || keys(data) != "PK:S/SK:S" || data.TTLAttribute != "ttl" || data.BillingMode != designer.OnDemand {
		t.Errorf("%d tables; keys %s, TTL %q, billing %s", len(d.Tables), keys(data), data.TTLAttribute, data.BillingMode)
	}
	wantTypes := []string{
		"District Metadata DISTRICT#{districtId} METADATA",
		"District-Town Relationships DISTRICT#{districtId} TOWN#{townName}",
		"Salary Schedules DISTRICT#{districtId} SCHEDULE#{yyyy}#{period}#EDU#{edu}#CR#{credits}#STEP#{step}",
		"Schedule Metadata METADATA#SCHEDULES YEAR#{yyyy}#PERIOD#{period}",
		"Max Values Metadata METADATA#MAXVALUES GLOBAL",
		"Job JOB#{jobId} METADATA",
	}
	if got := templates(data); !slices.Equal(got, wantTypes) {
		t.Errorf("entity types:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantTypes, "\n"))
	}
	wantIndexes := []string{"GSI_TOWN(GSI_TOWN_PK/GSI_TOWN_SK)", "ExactMatchIndex(GSI1PK/GSI1SK)", "FallbackQueryIndex(GSI2PK/GSI2SK)", "ComparisonIndex(GSI_COMP_PK/GSI_COMP_SK)", "GSI_METADATA(SK/name_lower)"}
	if got := indexes(data); !slices.Equal(got, wantIndexes) {
		t.Errorf("indexes = %v, want %v", got, wantIndexes)
	}
	for _, ix := range data.GSIs {
		if ix.Projection.Type != designer.All {
			t.Errorf("%s projection = %+v", ix.Name, ix.Projection)
		}
	}
	if len(d.Patterns) != 14 {
		t.Errorf("%d access patterns, want 14:\n%s", len(d.Patterns), strings.Join(served(d), "\n"))
	}
	got := served(d)
	for _, want := range []string{
		"Get district by ID: GetItem ma-teachers-contracts-data #pk = :pk AND #sk = :sk",
		"List all districts: Query ma-teachers-contracts-data.GSI_METADATA #sk = :sk",
		"Find districts by town: Query ma-teachers-contracts-data.GSI_TOWN #gsi_town_pk = :gsi_town_pk",
		// "Query GSI5 (ComparisonIndex) with GSI_COMP_PK": the key named, its value left to the team.
		"Compare salaries across districts: Query ma-teachers-contracts-data.ComparisonIndex #gsi_comp_pk = :gsi_comp_pk",
		// "UpdateItem on PK/SK".
		"Update district: UpdateItem ma-teachers-contracts-data #pk = :pk AND #sk = :sk",
		// "Update job status: `UpdateItem`" under Job: its key is Job's, JOB#{jobId} and METADATA.
		"Update job status: UpdateItem ma-teachers-contracts-data #pk = :pk AND #sk = :sk",
		// "TTL expires records after 30 days": no request serves it.
		"Automatic cleanup: -",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no pattern %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if cleanup := d.Patterns[13]; cleanup.Status != designer.StatusOutside {
		t.Errorf("pattern 14, served by TTL, is %q", cleanup.Status)
	}
}
