package datamodelmd

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

func readFixture(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func mustImport(t *testing.T, data []byte) (designer.Design, []designer.ImportNote) {
	t.Helper()
	d, notes, err := Import(data)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	return d, notes
}

func tableNamed(t *testing.T, d designer.Design, name string) designer.Table {
	t.Helper()
	for _, tb := range d.Tables {
		if tb.Name == name {
			return tb
		}
	}
	t.Fatalf("no table %s in %d tables", name, len(d.Tables))
	return designer.Table{}
}

func TestImport_fixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file  string
		check func(t *testing.T, d designer.Design, notes []designer.ImportNote)
	}{
		{"template-style.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			if d.Name != "Marketplace" {
				t.Errorf("name = %q", d.Name)
			}
			orders := tableNamed(t, d, "Orders")
			if orders.PartitionKey != (designer.KeyAttribute{Name: "customer_id", Type: designer.S}) || orders.SortKey == nil || *orders.SortKey != (designer.KeyAttribute{Name: "sk", Type: designer.S}) {
				t.Errorf("keys = %+v %+v", orders.PartitionKey, orders.SortKey)
			}
			if len(orders.Items) != 5 {
				t.Fatalf("items = %d, want 5 (the index sample makes none)", len(orders.Items))
			}
			first, second := orders.Items[0].Item, orders.Items[1].Item
			if _, ok := first["status"]; ok {
				t.Errorf("an empty cell must leave the attribute out: %+v", first)
			}
			if v := second["total"]; v.Type != designer.N || v.S != "42.50" {
				t.Errorf("total = %+v, want N 42.50 from the Attributes bullet", v)
			}
			if v := second["tags"]; v.Type != designer.SS || len(v.SS) != 2 {
				t.Errorf("tags = %+v, want a string set", v)
			}
			if v := first["address"]; v.Type != designer.M || v.M["city"].S != "Lyon" {
				t.Errorf("address = %+v, want a map", v)
			}
			if v := orders.Items[3].Item["address"]; v.Type != designer.S || v.S != "null" {
				t.Errorf("null cell = %+v, want the text kept", v)
			}
			if !designertest.HasNote(notes, "1 cell holds the text null") {
				t.Errorf("no note about the null cell: %v", notes)
			}
			if orders.TTLAttribute != "expires_at" {
				t.Errorf("TTL = %q", orders.TTLAttribute)
			}
			if len(orders.EntityTypes) != 2 || orders.EntityTypes[1].SKTemplate != "ORDER#{created_at}#{order_id}" || orders.EntityTypes[1].Entity != "Order" {
				t.Errorf("SK taxonomy = %+v", orders.EntityTypes)
			}
			// The bullet lists pattern 4, which the mapping gives the GSI: it stays as written, under
			// the table, and is not copied into the capacity notes.
			if strings.Contains(orders.Capacity, "Pattern #") || !slices.ContainsFunc(d.Prose.Sections, func(s designer.Section) bool {
				return s.Title == "Orders Table" && strings.Contains(s.Body, "- **Access Patterns Served**: Pattern #1, #2, #4")
			}) || !slices.ContainsFunc(notes, func(n designer.ImportNote) bool {
				return n.Line == 30 && strings.Contains(n.Message, "Access Patterns Served")
			}) {
				t.Errorf("capacity = %q, prose = %+v", orders.Capacity, d.Prose.Sections)
			}
			if len(orders.GSIs) != 1 || len(orders.LSIs) != 1 {
				t.Fatalf("indexes = %+v / %+v", orders.GSIs, orders.LSIs)
			}
			g := orders.GSIs[0]
			if g.Name != "OpenOrdersByTenant" || !g.Sparse || len(g.PartitionKey) != 2 || g.PartitionKey[1].Name != "region" || g.SortKey[0].Name != "status" {
				t.Errorf("GSI = %+v", g)
			}
			if g.Projection.Type != designer.Include || !slices.Equal(g.Projection.Attributes, []string{"total", "status"}) {
				t.Errorf("projection = %+v", g.Projection)
			}
			if len(g.PatternAttributes) != 1 || g.PatternAttributes[0].Pattern != 4 {
				t.Errorf("pattern attributes = %+v", g.PatternAttributes)
			}
			if l := orders.LSIs[0]; l.Name != "ByTotal" || l.Projection.Type != designer.KeysOnly || l.SortKey[0] != (designer.KeyAttribute{Name: "total", Type: designer.N}) {
				t.Errorf("LSI = %+v", l)
			}
			products := tableNamed(t, d, "Products")
			if products.SortKey != nil || products.SortKeyWhy != "a product is one item" {
				t.Errorf("Sort Key: None gave %+v %q", products.SortKey, products.SortKeyWhy)
			}
			if v := products.Items[0].Item["price"]; v.Type != designer.N {
				t.Errorf("price = %+v, want N inferred from an all-numeric column", v)
			}
			if len(d.Patterns) != 4 || d.Patterns[1].Mapping.Source != `Query(customer_id, begins_with(sk, "ORDER#"))` {
				t.Errorf("patterns = %+v", d.Patterns)
			}
			if !strings.Contains(d.Prose.DesignPhilosophy, "Orders live") || !strings.Contains(d.Prose.AggregateDecisions, "Customer Aggregate") ||
				!strings.Contains(d.Prose.HotPartitions, "300 RPS") || !strings.Contains(d.Prose.TradeOffs, "Sparse GSI") {
				t.Errorf("prose = %+v", d.Prose)
			}
			if !slices.ContainsFunc(d.Prose.Sections, func(s designer.Section) bool { return s.Title == "Cost Estimates" }) {
				t.Errorf("Cost Estimates not kept: %+v", d.Prose.Sections)
			}
			if !designertest.HasNote(notes, "Validation Results are not read") || !designertest.HasNote(notes, "sample table of index OpenOrdersByTenant") {
				t.Errorf("notes = %v", notes)
			}
		}},
		{"wild-workshop.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			accounts := tableNamed(t, d, "Accounts")
			if accounts.PartitionKey.Name != "PK" || accounts.SortKey == nil || accounts.SortKey.Name != "SK" {
				t.Errorf("keys = %+v %+v", accounts.PartitionKey, accounts.SortKey)
			}
			if len(accounts.EntityTypes) != 2 || accounts.EntityTypes[1] != (designer.EntityType{Entity: "Session", PKTemplate: "{account_email}", SKTemplate: "SESSION#{session_id}", Description: "one item per session"}) ||
				strings.Contains(accounts.SortKeyWhy, "SESSION#") {
				// The sort key's form lines describe the entity types; they are not kept twice.
				t.Errorf("entity types = %+v", accounts.EntityTypes)
			}
			if i := slices.IndexFunc(accounts.Attributes, func(a designer.Attribute) bool { return a.Name == "flags" }); i < 0 || accounts.Attributes[i].Type != designer.SS {
				t.Errorf("attributes = %+v, want flags as SS", accounts.Attributes)
			}
			if g := accounts.GSIs[0]; g.Name != "GSI1" || g.Projection.Type != designer.KeysOnly || g.Sparse || !strings.HasPrefix(g.Purpose, "Legacy Id Lookup (Migration Only)") {
				t.Errorf("GSI1 = %+v", g)
			}
			devices := tableNamed(t, d, "Devices")
			if devices.PartitionKey != (designer.KeyAttribute{Name: "device_id", Type: designer.N}) || devices.SortKey != nil || len(devices.Items) != 3 {
				t.Errorf("devices = %+v", devices)
			}
			if g := devices.GSIs[0]; g.Name != "DeviceByOwner" || g.PartitionKey[0] != (designer.KeyAttribute{Name: "owner", Type: designer.S}) || g.SortKey[0] != (designer.KeyAttribute{Name: "device_id", Type: designer.N}) || g.Projection.Type != designer.All {
				t.Errorf("DeviceByOwner = %+v", g)
			}
			p4, _, ok := d.PatternByNumber(4)
			if !ok || p4.PeakRPS == nil || *p4.PeakRPS != 12 || p4.Type != designer.Read || p4.ResultBound != "5" ||
				len(p4.Mapping.Operations) != 1 || p4.Mapping.Operations[0].Table != "Accounts" || strings.Contains(p4.Mapping.Notes, "Tables/Indexes") {
				t.Errorf("pattern 4 = %+v", p4)
			}
			if len(d.Patterns) != 2 || !designertest.HasNote(notes, `mapping row "x"`) {
				t.Errorf("patterns = %d, notes = %v", len(d.Patterns), notes)
			}
		}},
		// The seed's own layout: each GSI's sample table right after its heading.
		{"gsi-after-heading.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			if d.Name != "Books and 1 more tables" || len(d.Tables) != 2 {
				t.Errorf("name %q, %d tables", d.Name, len(d.Tables))
			}
			books := tableNamed(t, d, "Books")
			if books.PartitionKey != (designer.KeyAttribute{Name: "isbn", Type: designer.N}) || books.SortKey == nil || *books.SortKey != (designer.KeyAttribute{Name: "record", Type: designer.S}) {
				t.Errorf("keys = %+v %+v, want isbn (Number) and record", books.PartitionKey, books.SortKey)
			}
			if len(books.Items) != 4 {
				t.Fatalf("Books items = %d, want 4: the GSI samples make none", len(books.Items))
			}
			if v := books.Items[0].Item["copies"]; v.Type != designer.N || v.S != "2" {
				t.Errorf("copies = %+v", v)
			}
			if _, ok := books.Items[1].Item["borrower"]; ok {
				t.Errorf("an empty cell gave an attribute: %+v", books.Items[1].Item)
			}
			if names := tableIndexNames(books); !slices.Equal(names, []string{"BooksByAuthor", "BooksOnLoan"}) {
				t.Errorf("Books indexes = %v", names)
			}
			author, loans := books.GSIs[0], books.GSIs[1]
			if author.Projection.Type != designer.Include || !slices.Equal(author.Projection.Attributes, []string{"title", "shelf"}) ||
				author.SortKey[0] != (designer.KeyAttribute{Name: "isbn", Type: designer.N}) || len(author.PatternAttributes) != 1 || author.PatternAttributes[0].Pattern != 3 {
				t.Errorf("BooksByAuthor = %+v", author)
			}
			if !loans.Sparse || loans.Projection.Type != designer.KeysOnly || loans.PartitionKey[0].Name != "borrower" {
				t.Errorf("BooksOnLoan = %+v", loans)
			}
			history := tableNamed(t, d, "LoanHistory")
			if len(history.GSIs) != 0 || len(history.Items) != 3 || history.SortKey.Name != "loaned_on" {
				t.Errorf("LoanHistory = %+v", history)
			}
			p3 := designertest.Pattern(t, d, 3)
			if len(d.Patterns) != 6 || p3.Mapping.Source != "Query(author)" || len(p3.Mapping.Operations) != 1 || p3.Mapping.Operations[0].Op != "Query" ||
				!strings.Contains(p3.Mapping.Notes, "Eventually consistent") {
				t.Errorf("pattern 3 = %+v", p3)
			}
			if p2 := designertest.Pattern(t, d, 2); len(p2.Mapping.Operations) != 2 {
				t.Errorf("UpdateItem + PutItem gave %+v", p2.Mapping.Operations)
			}
			if !strings.Contains(d.Prose.DesignPhilosophy, "lending library") || !strings.Contains(d.Prose.AggregateDecisions, "Loan History") ||
				!strings.Contains(d.Prose.HotPartitions, "40 RPS") || !strings.Contains(d.Prose.TradeOffs, "KEYS_ONLY for loans") {
				t.Errorf("prose = %+v", d.Prose)
			}
		}},
		// The seed's other layout: an index's sample table before its heading, "(Sparse)" headings,
		// grouped attribute lists, a TTL bullet with an explanation, "Sort Key: None".
		{"gsi-before-heading.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			album := tableNamed(t, d, "AlbumPhotos")
			if len(album.Items) != 4 || album.Items[0].Item["views"].Type != designer.N {
				t.Errorf("AlbumPhotos items = %+v", album.Items)
			}
			if _, ok := album.Items[0].Item["caption"]; ok {
				t.Errorf("the album item has a caption from an empty cell")
			}
			if len(album.EntityTypes) != 2 || album.EntityTypes[1].Entity != "Photo" || album.EntityTypes[1].SKTemplate != "PHOTO#{photo_id}" {
				t.Errorf("SK taxonomy = %+v", album.EntityTypes)
			}
			if _, i, ok := album.AttributeByName("caption"); !ok || album.Attributes[i].Description != "photo details" {
				t.Errorf("grouped attributes = %+v", album.Attributes)
			}
			reactions := tableNamed(t, d, "Reactions")
			if len(reactions.Items) != 3 || !slices.Equal(tableIndexNames(reactions), []string{"ReactionsByUser"}) {
				t.Errorf("Reactions: %d items, indexes %v (the GSI sample must not become items)", len(reactions.Items), tableIndexNames(reactions))
			}
			if p := reactions.GSIs[0].Projection; p.Type != designer.Include || !slices.Equal(p.Attributes, []string{"kind", "reacted_on"}) {
				t.Errorf("ReactionsByUser projection = %+v", p)
			}
			alerts := tableNamed(t, d, "Alerts")
			if alerts.TTLAttribute != "expires" || alerts.Items[0].Item["seen"].Type != designer.BOOL {
				t.Errorf("Alerts = %+v", alerts)
			}
			if g := alerts.GSIs; len(g) != 1 || g[0].Name != "UnseenAlerts" || !g[0].Sparse || g[0].Projection.Type != designer.KeysOnly {
				t.Errorf("Alerts indexes = %+v", g)
			}
			handles := tableNamed(t, d, "Handles")
			if handles.SortKey != nil || handles.SortKeyWhy != "One item per handle" || len(handles.Items) != 2 {
				t.Errorf("Handles = %+v", handles)
			}
			if p7 := designertest.Pattern(t, d, 7); len(p7.Mapping.Operations) != 0 || !strings.Contains(p7.Mapping.Notes, "Search service") {
				t.Errorf("pattern 7 = %+v", p7)
			}
			// The TTL bullet's explanation describes the TTL attribute; it is not kept twice.
			if a, _, _ := alerts.AttributeByName("expires"); alerts.TTLAttribute != "expires" || a.Description != "field removes alerts after 30 days" {
				t.Errorf("the TTL explanation was not kept: %+v", a)
			}
			if s, ok := designertest.ProseTitled(d, "Alerts Table"); ok && strings.Contains(s.Body, "removes alerts after 30 days") {
				t.Errorf("the TTL explanation was kept twice: %+v", s)
			}
		}},
		// The older layout: entity paragraphs, "GSI1:" headings repeated under each table, Cost
		// Estimates, Unsolved Patterns, Design Considerations & Integrations, "AP7-8" rows.
		{"older-layout.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			accounts, events := tableNamed(t, d, "Accounts"), tableNamed(t, d, "Events")
			if len(d.Tables) != 2 || !slices.Equal(tableIndexNames(accounts), []string{"GSI1", "GSI2"}) || !slices.Equal(tableIndexNames(events), []string{"GSI1"}) {
				t.Fatalf("tables %d, Accounts %v, Events %v", len(d.Tables), tableIndexNames(accounts), tableIndexNames(events))
			}
			if !strings.HasPrefix(accounts.GSIs[0].Purpose, "Legacy Account Lookup") || !strings.HasPrefix(events.GSIs[0].Purpose, "Events By Venue") {
				t.Errorf("GSI1 purposes = %q / %q", accounts.GSIs[0].Purpose, events.GSIs[0].Purpose)
			}
			if accounts.PartitionKey.Name != "PK" || events.GSIs[0].SortKey[0].Name != "GSI1SK" {
				t.Errorf("keys = %+v / %+v", accounts.PartitionKey, events.GSIs[0].SortKey)
			}
			if len(accounts.EntityTypes) != 3 || accounts.EntityTypes[2] != (designer.EntityType{Entity: "Booking", PKTemplate: "{account_email}", SKTemplate: "BOOKING#{isodate}#{booking_id}", Description: "Bookings in date order"}) ||
				strings.Contains(accounts.SortKeyWhy, "BOOKING#") {
				t.Errorf("entity types = %+v", accounts.EntityTypes)
			}
			for name, typ := range map[string]designer.Type{"is_promoter": designer.BOOL, "settings": designer.M, "lines": designer.L, "amount": designer.N} {
				if a, _, ok := accounts.AttributeByName(name); !ok || a.Type != typ {
					t.Errorf("attribute %s = %+v", name, a)
				}
			}
			var numbers []int
			for _, p := range d.Patterns {
				numbers = append(numbers, p.Number)
			}
			if !slices.Equal(numbers, []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12}) {
				t.Errorf("patterns = %v", numbers)
			}
			if p1 := designertest.Pattern(t, d, 1); len(p1.Mapping.Operations) != 1 || p1.Mapping.Operations[0].Op != "TransactWriteItems" ||
				!strings.HasPrefix(p1.Mapping.Notes, "Tables/Indexes: Accounts, Emails") {
				t.Errorf("pattern 1 = %+v", p1)
			}
			for _, title := range []string{"Unsolved Patterns & Alternatives", "Cost Estimates", "Design Considerations & Integrations", "GSI1 GSI (Events Table)"} {
				if _, ok := designertest.ProseTitled(d, title); !ok {
					t.Errorf("section %q was not kept", title)
				}
			}
		}},
		// The newer 9-column mapping table: type, peak RPS, items returned and item size per pattern.
		{"nine-columns.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			sensors := tableNamed(t, d, "Sensors")
			if len(sensors.Items) != 3 || sensors.Items[0].Item["celsius"].Type != designer.N || len(sensors.GSIs) != 1 || sensors.GSIs[0].PartitionKey[0] != (designer.KeyAttribute{Name: "battery", Type: designer.N}) {
				t.Errorf("Sensors = %+v", sensors)
			}
			p1, p2, p3 := designertest.Pattern(t, d, 1), designertest.Pattern(t, d, 2), designertest.Pattern(t, d, 3)
			if p1.Type != designer.Write || designertest.RPS(p1.PeakRPS) != "800" || p1.SizeBand != "0.2 KB" {
				t.Errorf("pattern 1 = %+v", p1)
			}
			if p2.Type != designer.Read || designertest.RPS(p2.PeakRPS) != "50" || p2.ResultBound != "12" || p2.Mapping.Source != "Query(sensor_id, reading_at > :hour_ago)" {
				t.Errorf("pattern 2 = %+v", p2)
			}
			if p3.PeakRPS != nil || !strings.Contains(p3.Mapping.Notes, "Peak RPS: about five") {
				t.Errorf("pattern 3 = %+v", p3)
			}
		}},
		// A document with most sections missing and no title.
		{"missing-sections.md", func(t *testing.T, d designer.Design, notes []designer.ImportNote) {
			carts := tableNamed(t, d, "Carts")
			if d.Name != "Carts" || len(d.Tables) != 1 || len(d.Patterns) != 0 {
				t.Errorf("name %q, %d tables, %d patterns", d.Name, len(d.Tables), len(d.Patterns))
			}
			if carts.SortKey == nil || *carts.SortKey != (designer.KeyAttribute{Name: "line", Type: designer.N}) || len(carts.Items) != 2 || !carts.Items[1].Item["qty"].Identical(designer.Num("4")) {
				t.Errorf("Carts = %+v", carts)
			}
			if s, ok := designertest.ProseTitled(d, "Carts Table"); !ok || !strings.Contains(s.Body, "expire after a day") {
				t.Errorf("the closing sentence was not kept: %+v", d.Prose.Sections)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			d, notes := mustImport(t, readFixture(t, tt.file))
			if err := designer.Check(d); err != nil {
				t.Fatalf("Check: %v", err)
			}
			tt.check(t, d, notes)
		})
	}
}

func tableIndexNames(t designer.Table) []string {
	var out []string
	for _, ix := range slices.Concat(t.GSIs, t.LSIs) {
		out = append(out, ix.Name)
	}
	return out
}

// Whatever layout a document has, the export of what was read from it reads back to the same
// export.
func TestImport_exportOfAnImportIsAFixedPoint(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil || len(files) < 7 {
		t.Fatalf("testdata documents: %v, %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			d, _ := mustImport(t, readFixture(t, filepath.Base(f)))
			assertDataModelFixedPoint(t, d)
		})
	}
}

func TestImport_refusesWhatIsNotADocument(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "   ", "\x00\x01binary", "just a shopping list\n- eggs\n"} {
		_, _, err := Import([]byte(in))
		designertest.WantValidationError(t, err, "file")
	}
}

// TestImport_sharedSeeds reads the real data models under /work/shared when they are
// there; what it asserts was checked by reading each document.
func TestImport_sharedSeeds(t *testing.T) {
	t.Parallel()
	glob := func(pattern string) string {
		m, _ := filepath.Glob(pattern)
		if len(m) == 0 {
			return ""
		}
		return m[0]
	}
	tests := []struct {
		path                          string
		tables, gsis, items, patterns int
		check                         func(t *testing.T, d designer.Design)
	}{
		{glob("/work/shared/seeds/000_*.txt"), 3, 3, 14, 15, func(t *testing.T, d designer.Design) {
			employee := tableNamed(t, d, "Employee")
			if employee.PartitionKey != (designer.KeyAttribute{Name: "emp_no", Type: designer.N}) || len(employee.Items) != 5 ||
				!slices.Equal(tableIndexNames(employee), []string{"EmployeesByGender", "EmployeesByDepartment"}) {
				t.Errorf("Employee: key %+v, %d items, indexes %v", employee.PartitionKey, len(employee.Items), tableIndexNames(employee))
			}
			if p := employee.GSIs[0].Projection; p.Type != designer.Include || !slices.Equal(p.Attributes, []string{"first_name", "last_name", "dept_name"}) {
				t.Errorf("EmployeesByGender projection = %+v", p)
			}
			// The document describes this index under TitleHistory.
			if names := tableIndexNames(tableNamed(t, d, "TitleHistory")); !slices.Equal(names, []string{"TitleSalaryAnalytics"}) {
				t.Errorf("TitleHistory indexes = %v", names)
			}
			if p13 := designertest.Pattern(t, d, 13); len(p13.Mapping.Operations) != 2 || p13.Mapping.Operations[0].Op != "PutItem" || p13.Mapping.Operations[1].Op != "UpdateItem" {
				t.Errorf("pattern 13 = %+v", p13.Mapping)
			}
		}},
		{glob("/work/shared/seeds/002_*.txt"), 8, 2, 28, 22, func(t *testing.T, d designer.Design) {
			if g := tableNamed(t, d, "Notifications").GSIs; len(g) != 1 || g[0].Name != "UnreadNotifications" || !g[0].Sparse || g[0].Projection.Type != designer.KeysOnly {
				t.Errorf("Notifications indexes = %+v", g)
			}
			if g := tableNamed(t, d, "SocialGraph").GSIs; len(g) != 1 || g[0].Name != "FollowersByUser" ||
				!slices.Equal(g[0].Projection.Attributes, []string{"follower_username", "follower_profilePicture", "createdDate"}) {
				t.Errorf("SocialGraph indexes = %+v", g)
			}
			if st := tableNamed(t, d, "Stories"); st.TTLAttribute != "expiresAt" {
				t.Errorf("Stories TTL = %q", st.TTLAttribute)
			}
			if ul := tableNamed(t, d, "UserLookup"); ul.SortKey != nil || len(ul.Items) != 4 {
				t.Errorf("UserLookup = %+v", ul)
			}
			if up := tableNamed(t, d, "UserPosts"); len(up.Items) != 5 || up.Items[1].Item["likeCount"].Type != designer.N {
				t.Errorf("UserPosts items = %+v", up.Items)
			}
		}},
		{glob("/work/shared/seeds/003_*.txt"), 0, 0, 0, 0, nil},
		{glob("/work/shared/seeds/004_*.txt"), 1, 5, 0, 0, nil},
		{"/work/shared/fixtures/aws-dynamodb-examples/modernizer-stage-02-dynamodb_data_model.md", 3, 6, 0, 44, func(t *testing.T, d designer.Design) {
			for table, want := range map[string][]string{"Users": {"GSI1", "GSI2", "GSI3"}, "Products": {"GSI1", "GSI2"}, "Categories": {"GSI1"}} {
				if got := tableIndexNames(tableNamed(t, d, table)); !slices.Equal(got, want) {
					t.Errorf("%s indexes = %v, want %v", table, got, want)
				}
			}
			if p, _, ok := d.PatternByNumber(13); !ok || p.Description != "Product CRUD" {
				t.Errorf("the AP12-14 row did not give pattern 13: %+v", p)
			}
			for _, title := range []string{"Cost Estimates", "Unsolved Patterns & Alternatives", "Design Considerations & Integrations"} {
				if _, ok := designertest.ProseTitled(d, title); !ok {
					t.Errorf("section %q was not kept", title)
				}
			}
		}},
	}
	for _, tt := range tests {
		data, err := os.ReadFile(tt.path)
		if tt.path == "" || err != nil {
			t.Logf("skipping %q: the shared seeds are not here (%v)", tt.path, err)
			continue
		}
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			if !Looks(string(data)) && !LooksLoosely(string(data)) {
				t.Errorf("the document does not look like a data model")
			}
			d, _, err := Import(data)
			if err != nil {
				t.Fatalf("Import: %v", err)
			}
			gsis, items := 0, 0
			for _, tb := range d.Tables {
				gsis += len(tb.GSIs)
				items += len(tb.Items)
			}
			if len(d.Tables) != tt.tables || gsis != tt.gsis || items != tt.items || len(d.Patterns) != tt.patterns {
				t.Errorf("tables %d, GSIs %d, items %d, patterns %d; want %d, %d, %d, %d",
					len(d.Tables), gsis, items, len(d.Patterns), tt.tables, tt.gsis, tt.items, tt.patterns)
			}
			if tt.check != nil {
				tt.check(t, d)
			}
			assertDataModelFixedPoint(t, d)
		})
	}
	if _, err := os.Stat("/work/shared"); err != nil {
		t.Skip("/work/shared is not here; the real documents were not read")
	}
}

func FuzzImport(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, name := range files {
		f.Add(readFixture(f, filepath.Base(name)))
	}
	f.Add(Export(sparseIndexesDesign()))
	for _, s := range []string{
		"# DynamoDB Data Model\n",
		"### T Table\n| a | b |\n|---|---|\n| 1 | x |\n- **Sort Key**: None\n",
		"### T Table\n- **Partition Key**: a + b + c\n| x |\n|-|\n| null |\n### G GSI\n- **Projection**: INCLUDE (\n",
		"### GSI1: x\n- **Partition Key**: `= <>`\n| Pattern | DynamoDB Operations |\n|-|-|\n| AP3-1 | q |\n",
		"## Access Pattern Mapping\n| Pattern | Description |\n|--|--|\n| AP1-999999 | x |\n| 0 | y |\n",
		"### T Table\n- **Attributes**: a (Map), b (StringSet), c (N)\n| a | b | c |\n|-|-|-|\n| {\"x\": [1e999]} | [] | 1e200 |\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, err := Import(data)
		if err != nil {
			var ve *designer.ValidationError
			if !errors.As(err, &ve) || ve.Field != "file" {
				t.Fatalf("error other than a refused file: %v", err)
			}
			return
		}
		if err := designer.Check(d); err != nil {
			t.Fatalf("import gave a design Check refuses: %v", err)
		}
		// What was read, written in the template, reads back to the same document.
		assertDataModelFixedPoint(t, d)
	})
}

func BenchmarkImport_10Tables50Items(b *testing.B) {
	var doc strings.Builder
	doc.WriteString("# DynamoDB Data Model\n\n## Table Designs\n\n")
	for t := range 10 {
		fmt.Fprintf(&doc, "### T%d Table\n\n| pk | sk | name | qty | tags |\n|---|---|---|---|---|\n", t)
		for i := range 50 {
			fmt.Fprintf(&doc, "| USER#%d | ORDER#%04d | item %d | %d | [\"a\", \"b\"] |\n", i%7, i, i, i*3)
		}
		doc.WriteString("\n- **Purpose**: orders\n- **Partition Key**: pk - users\n- **Sort Key**: sk - orders\n")
		doc.WriteString("- **Attributes**: pk (String), sk (String), name (String), qty (Number)\n\n")
		fmt.Fprintf(&doc, "### ByName%d GSI\n- **Partition Key**: name - names\n- **Projection**: KEYS_ONLY - ids only\n\n", t)
	}
	data := []byte(doc.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Import(data); err != nil {
			b.Fatal(err)
		}
	}
}

// A mapping row that names its table in the Tables/Indexes column and its key positionally in the
// operation cell, as data models written by hand often do, gives operations with their table or
// index and a key condition.
func TestImport_mappingTargetsAndPositionalKeys(t *testing.T) {
	t.Parallel()
	doc := `# Shop Data Model

## Table Designs

### Carts Table

| cart_id | line | sku |
|---|---|---|
| c1 | META | |
| c1 | LINE#001 | s-9 |

- **Purpose**: carts and their lines
- **Partition key**: cart_id (S)
- **Sort key**: line (S)

### BySku GSI

- **Partition key**: sku (S)
- **Projection**: KEYS_ONLY

## Access Pattern Mapping

| Pattern | Description | Tables/Indexes | DynamoDB Operations | Implementation Notes |
|---------|-------------|----------------|---------------------|----------------------|
| 1 | Open a cart | Carts | GetItem(cart_id, "META") | one read |
| 2 | List a cart's lines | Carts | Query(cart_id, SK begins_with "LINE#") | newest last |
| 3 | Carts holding a product | BySku GSI | Query(sku) | |
| 4 | Add a line | Carts, Carts | PutItem + UpdateItem | |
| 5 | Everything | Multiple tables | Scan | |
`
	d, _, err := Import([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]designer.Operation{
		1: {{Op: "GetItem", Table: "Carts", KeyCondition: "cart_id = :cart_id AND line = :line", Values: map[string]designer.Value{":line": designer.Str("META")}}},
		2: {{Op: "Query", Table: "Carts", KeyCondition: "cart_id = :cart_id AND begins_with(line, :line)", Values: map[string]designer.Value{":line": designer.Str("LINE#")}}},
		3: {{Op: "Query", Table: "Carts", Index: "BySku", KeyCondition: "sku = :sku"}},
		4: {{Op: "PutItem", Table: "Carts"}, {Op: "UpdateItem", Table: "Carts"}},
		5: {{Op: "Scan"}},
	}
	for n, ops := range want {
		p, _, ok := d.PatternByNumber(n)
		if !ok {
			t.Fatalf("no pattern %d", n)
		}
		got := p.Mapping.Operations
		if len(got) != len(ops) {
			t.Fatalf("pattern %d: %+v", n, got)
		}
		for i := range ops {
			g, w := got[i], ops[i]
			if g.Op != w.Op || g.Table != w.Table || g.Index != w.Index || g.KeyCondition != w.KeyCondition || len(g.Values) != len(w.Values) {
				t.Errorf("pattern %d operation %d = %+v, want %+v", n, i, g, w)
			}
			for k, v := range w.Values {
				if !g.Values[k].Equal(v) {
					t.Errorf("pattern %d value %s = %+v, want %+v", n, k, g.Values[k], v)
				}
			}
		}
		if n != 5 && strings.Contains(p.Mapping.Notes, "Tables/Indexes") {
			t.Errorf("pattern %d keeps the target in its notes: %q", n, p.Mapping.Notes)
		}
	}
	if p, _, _ := d.PatternByNumber(5); !strings.Contains(p.Mapping.Notes, "Tables/Indexes: Multiple tables") {
		t.Errorf("pattern 5 lost what its row said: %q", p.Mapping.Notes)
	}
	// And the document written from it reads back the same.
	again, _, err := Import(Export(d))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := Export(again), Export(d); !bytes.Equal(a, b) {
		t.Errorf("not a fixed point:\n%s\n----\n%s", a, b)
	}
}

// A Tables/Indexes cell may name an index by the words of its heading and its table, as models
// written by hand do ("ProductsByCategory" for "### GSI1: Category Products" under the Products
// table): it is read as that index, with a note, when the words name one index only.
func TestImport_anIndexNamedByTheWordsOfItsHeading(t *testing.T) {
	t.Parallel()
	doc := `# Shop Data Model

## Table Designs

### Products Table

- **Purpose**: the catalogue
- **Partition key**: product_id (S)

### GSI1: Category Products (Potential Hot Partition)

- **Partition key**: category_id (S)
- **Projection**: ALL

### GSI2: Seller Products

- **Partition key**: seller_id (S)
- **Projection**: ALL

### GSI3: Seller Products Archive

- **Partition key**: archive_id (S)
- **Projection**: KEYS_ONLY

## Access Pattern Mapping

| Pattern | Description | Tables/Indexes | DynamoDB Operations | Implementation Notes |
|---------|-------------|----------------|---------------------|----------------------|
| 1 | Products of a category | ProductsByCategory | Query(category_id) | |
| 2 | Products of a seller | products-by-seller | Query(seller_id) | |
| 3 | Products of a colour | ProductsByColour | Query(colour) | |
`
	d, notes, err := Import([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int][2]string{1: {"Products", "GSI1"}, 2: {"Products", "GSI2"}, 3: {"", ""}} {
		p, _, _ := d.PatternByNumber(n)
		if len(p.Mapping.Operations) != 1 {
			t.Fatalf("pattern %d: %+v", n, p.Mapping.Operations)
		}
		if op := p.Mapping.Operations[0]; op.Table != want[0] || op.Index != want[1] {
			t.Errorf("pattern %d reads %s.%s, want %s.%s", n, op.Table, op.Index, want[0], want[1])
		}
	}
	if !designertest.HasNote(notes, `"ProductsByCategory" in its Tables/Indexes cell was read as index GSI1 of table Products`) {
		t.Errorf("no note says how ProductsByCategory was read: %v", notes)
	}
	if p, _, _ := d.PatternByNumber(3); !strings.Contains(p.Mapping.Notes, "ProductsByColour") {
		t.Errorf("pattern 3 lost what its row said: %q", p.Mapping.Notes)
	}
	assertDataModelFixedPoint(t, d)
}

func TestNameWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ProductsByCategory":         "category product",
		"Products Category Products": "category product",
		"products-by-seller":         "product seller",
		"UsersByEmail":               "email user",
		"GSI1":                       "",
		"Orders":                     "",
		"HTTPRequestsByHost":         "host http request",
		"Address Class":              "address class",
		"CategoriesByParent":         "category parent",
		"BoxesOfStatus":              "box status",
	} {
		if got := nameWords(in); got != want {
			t.Errorf("nameWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// "INCLUDE status - why", the list written bare after the word, projects those attributes.
func TestImport_includeListWrittenBare(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"- **Projection**: INCLUDE status - the schedule shows only the status", "status"},
		{"- **Projection**: INCLUDE status, vet_name", "status,vet_name"},
		{"- **Projection**: INCLUDE (status) - why", "status"},
	} {
		doc := "# DynamoDB Data Model\n\n## Table Designs\n\n### Appointments Table\n\n- **Partition Key**: pet_id (S)\n- **Sort Key**: appt_key (S)\n\n### ByVet GSI\n\n- **Partition Key**: vet_id (S)\n" + c.line + "\n"
		d, _, err := Import([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Tables) != 1 || len(d.Tables[0].GSIs) != 1 {
			t.Fatalf("%q: tables %+v", c.line, d.Tables)
		}
		pr := d.Tables[0].GSIs[0].Projection
		if pr.Type != designer.Include || strings.Join(pr.Attributes, ",") != c.want {
			t.Errorf("%q: projection %+v, want INCLUDE %s", c.line, pr, c.want)
		}
	}
}
