package datamodelmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/rules"
)

// The two layouts of the mapping table — the 9 columns of the MCP server's current prompt and the
// older 5 — import with every operation's key condition and options, and validation then finds
// no MAP003 the cells do not deserve; MAP005 and MAP002 fire where the file asks a GSI for what it
// cannot give.
func TestImport_operationCellsEarnNoMAP003(t *testing.T) {
	t.Parallel()
	type op = designer.Operation
	files := []struct {
		name string
		want map[int][]op
		// codes are findings the file deserves: code and path.
		codes [][2]string
	}{
		{"operation-cells-nine.md", map[int][]op{
			1: {{Op: "Query", Table: "Episodes", KeyCondition: "show_id = :show_id", Limit: limit(20), Descending: true}},
			2: {{Op: "Query", Table: "Episodes", KeyCondition: "show_id = :show_id AND begins_with(published_at, :published_at)", Values: vals(":published_at", designer.Str("2026-01"))}},
			3: {{Op: "Query", Table: "Listens", KeyCondition: "listener_id = :listener_id AND begins_with(sort_key, :sort_key)", Values: vals(":sort_key", designer.Str("LISTEN#"))}},
			4: {{Op: "GetItem", Table: "Listens", KeyCondition: "listener_id = :listener_id AND sort_key = :sort_key", Values: vals(":sort_key", designer.Str("PROFILE")), Consistent: true}},
			5: {{Op: "Query", Table: "Episodes", Index: "ByGenre", KeyCondition: "genre = :genre AND published_at BETWEEN :published_at_from AND :published_at_to",
				Values: vals(":published_at_from", designer.Str("2026-01-01"), ":published_at_to", designer.Str("2026-12-31"))}},
			6:  {{Op: "Query", Table: "Charts", KeyCondition: "chart_week = :chart_week AND #rank <= :rank", Names: map[string]string{"#rank": "rank"}, Values: vals(":rank", designer.Num("10"))}},
			7:  {{Op: "PutItem", Table: "Listens"}, {Op: "UpdateItem", Table: "Episodes"}},
			8:  {{Op: "Query", Table: "Listens", KeyCondition: "listener_id = :l", Limit: limit(11)}},
			9:  {{Op: "Query", Table: "Episodes", Index: "ByGenre", KeyCondition: "genre = :g", Limit: limit(20)}},
			10: {{Op: "Query", Table: "Episodes", Index: "ByGenre", KeyCondition: "genre = :genre", Consistent: true}},
			11: {{Op: "GetItem", Table: "Episodes", Index: "ByGenre", KeyCondition: "genre = :genre AND published_at = :published_at"}},
			12: {{Op: "GetItem", Table: "Charts", KeyCondition: "chart_week = :chart_week AND #rank = :rank", Names: map[string]string{"#rank": "rank"}, Values: vals(":chart_week", designer.Num("202601"), ":rank", designer.Num("1"))}},
		}, [][2]string{{"MAP005", "access_patterns/10/mapping/operations/0"}, {"MAP002", "access_patterns/11/mapping/operations/0"}}},
		{"operation-cells-five.md", map[int][]op{
			1: {{Op: "Query", Table: "Episodes", KeyCondition: "show_id = :show_id AND published_at > :published_at", Values: vals(":published_at", designer.Str("2026-01-15"))}},
			2: {{Op: "Query", Table: "Listens", KeyCondition: "listener_id = :listener_id"}, {Op: "BatchGetItem", Table: "Listens"}},
			3: {{Op: "Query", Table: "Episodes", Index: "ByGenre", KeyCondition: "genre = :genre"}},
			4: {{Op: "Query", Table: "Episodes", Index: "ByGenre", KeyCondition: "genre = :genre AND published_at < :published_at", Values: vals(":published_at", designer.Str("2026-02"))}},
			5: {{Op: "TransactWriteItems", Table: "Listens", Action: "put", Notes: "Put Listen"}, {Op: "TransactWriteItems", Table: "Episodes", Action: "update", Notes: "Update Episode"}},
			6: {{Op: "PutItem", Table: "Listens"}, {Op: "DeleteItem", Table: "Listens"}},
			7: {{Op: "Query", Table: "Episodes", KeyCondition: "show_id = :show_id", Notes: "app aggregation"}},
			8: {{Op: "Query", Table: "Episodes", KeyCondition: "show_id = :show_id", Notes: `ExecuteStatement: SELECT * FROM "Episodes" WHERE show_id = ?`}},
			9: nil,
		}, [][2]string{{"MAP001", "access_patterns/9/mapping"}}},
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			d, notes := mustImport(t, readFixture(t, f.name))
			for n, want := range f.want {
				p, _, ok := d.PatternByNumber(n)
				if !ok {
					t.Fatalf("no pattern %d", n)
				}
				if got := p.Mapping.Operations; !sameOperations(got, want) {
					g, _ := json.Marshal(got)
					w, _ := json.Marshal(want)
					t.Errorf("pattern %d:\n got %s\nwant %s", n, g, w)
				}
			}
			findings := rules.Validate(d)
			for _, fd := range findings {
				if fd.Code == "MAP003" {
					t.Errorf("a finding the cells do not deserve: %s %s", fd.Path, fd.Message)
				}
			}
			for _, c := range f.codes {
				found := false
				for _, fd := range findings {
					found = found || fd.Code == c[0] && strings.HasPrefix(fd.Path, c[1])
				}
				if !found {
					t.Errorf("no %s at %s", c[0], c[1])
				}
			}
			if f.name == "operation-cells-five.md" {
				said := false
				for _, n := range notes {
					said = said || strings.Contains(n.Message, "PartiQL statement") && n.Line > 0
				}
				if !said {
					t.Errorf("no note with its line on the PartiQL statement: %+v", notes)
				}
			}
		})
	}
}

// sharedSeed finds a seed of ../shared beside the repository, or skips saying why.
func sharedSeed(t *testing.T, prefix string) []byte {
	t.Helper()
	for _, dir := range []string{filepath.Join("..", "..", "..", "..", "..", "shared", "seeds"), "/work/shared/seeds"} {
		if m, _ := filepath.Glob(filepath.Join(dir, prefix+"_*.txt")); len(m) > 0 {
			data, err := os.ReadFile(m[0])
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
	t.Skipf("seed %s is not beside the repository (../shared/seeds); the test reads it only there", prefix)
	return nil
}

// The seeds' own operation cells — GetItem(emp_no, "PROFILE"), Query(dept_no) + app aggregation,
// Query(user_id, SK begins_with "POST#"), Query(user_id) or GSI Query — give their key conditions,
// and no Query of the two seeds lacks one.
func TestImport_seedOperationCells(t *testing.T) {
	t.Parallel()
	type op = designer.Operation
	for _, tt := range []struct {
		seed string
		want map[int][]op
	}{
		{"000", map[int][]op{
			1:  {{Op: "GetItem", Table: "Employee", KeyCondition: "emp_no = :emp_no AND sort_key = :sort_key", Values: vals(":sort_key", designer.Str("PROFILE"))}},
			7:  {{Op: "Query", Table: "Employee", Index: "EmployeesByDepartment", KeyCondition: "dept_no = :dept_no", Notes: "app aggregation"}},
			11: {{Op: "Query", Table: "SalaryHistory", KeyCondition: "emp_no = :emp_no"}},
			15: {{Op: "PutItem", Table: "Employee"}, {Op: "UpdateItem", Table: "Employee"}},
		}},
		{"002", map[int][]op{
			6:  {{Op: "Query", Table: "UserPosts", KeyCondition: "user_id = :user_id AND begins_with(sort_key, :sort_key)", Values: vals(":sort_key", designer.Str("POST#"))}},
			11: {{Op: "Query", Table: "SocialGraph", Index: "FollowersByUser", KeyCondition: "following_id = :following_id"}},
			17: {{Op: "Query", Table: "Notifications", KeyCondition: "user_id = :user_id"},
				{Op: "Query", Table: "Notifications", Index: "UnreadNotifications", KeyCondition: "user_id = :user_id"}},
		}},
	} {
		t.Run(tt.seed, func(t *testing.T) {
			d, _ := mustImport(t, sharedSeed(t, tt.seed))
			for n, want := range tt.want {
				p, _, _ := d.PatternByNumber(n)
				if got := p.Mapping.Operations; !sameOperations(got, want) {
					g, _ := json.Marshal(got)
					w, _ := json.Marshal(want)
					t.Errorf("pattern %d:\n got %s\nwant %s", n, g, w)
				}
			}
			for _, fd := range rules.Validate(d) {
				if fd.Code == "MAP003" {
					t.Errorf("%s %s", fd.Path, fd.Message)
				}
			}
		})
	}
}
