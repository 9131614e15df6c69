package designer

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

const commentAt = "2025-03-01T09:30:00Z"

// comment is an AddComment by Ada at commentAt.
func comment(target, parent, body string) AddComment {
	return AddComment{Target: target, ParentID: parent, Body: body, Author: "Ada", At: commentAt}
}

// withThread is the HR design with a thread on pattern 4: cm1 by Ada and cm2, Bo's reply.
func withThread(t *testing.T) Design {
	t.Helper()
	reply := comment("access_patterns/ap4", "cm1", "It is in pattern 7 too.")
	reply.Author = "Bo"
	return applyAll(t, hrDesign(t), comment("access_patterns/ap4", "", "Is 500 RPS the peak or the average?"), reply)
}

func TestAddComment(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", MaxCommentLen)
	runChangeCases(t, []changeCase{
		{name: "on a pattern", change: AddComment{Target: " access_patterns/ap4 ", Body: "  Peak or average?\r\nAsk ops. ", Author: " Ada ", At: "2025-03-01T10:30:00+01:00"},
			check: func(t *testing.T, _, after Design) {
				want := Comment{ID: "cm1", Target: "access_patterns/ap4", Author: "Ada", At: "2025-03-01T09:30:00Z", Body: "Peak or average?\nAsk ops."}
				if got := after.Comments; len(got) != 1 || !reflect.DeepEqual(got[0], want) {
					t.Errorf("comments = %+v, want [%+v]", got, want)
				}
			}},
		{name: "on a table", change: comment("tables/Employee", "", "Why not one table?")},
		{name: "on an index", change: comment("tables/Employee/indexes/EmployeesByTitle", "", "Sparse?")},
		{name: "on an item", change: comment("tables/TitleHistory/items/t10001a", "", "Is this date right?")},
		{name: "the longest body", change: comment("tables/Employee", "", long)},
		{name: "no target", change: comment("  ", "", "x"), field: "target"},
		{name: "unknown pattern", change: comment("access_patterns/ap99", "", "x"), field: "target"},
		{name: "unknown table", change: comment("tables/Orders", "", "x"), field: "target"},
		{name: "unknown index", change: comment("tables/Employee/indexes/ByColour", "", "x"), field: "target"},
		{name: "unknown item", change: comment("tables/Employee/items/nope", "", "x"), field: "target"},
		{name: "not a commentable element", change: comment("entities/Employee", "", "x"), field: "target"},
		{name: "a field, not an element", change: comment("access_patterns/ap4/peak_rps", "", "x"), field: "target"},
		{name: "unknown parent", change: comment("access_patterns/ap4", "cm9", "x"), field: "parent_id"},
		{name: "empty body", change: comment("access_patterns/ap4", "", " \n\t "), field: "body"},
		{name: "body too long", change: comment("access_patterns/ap4", "", long+"!"), field: "body"},
		{name: "control character", change: comment("access_patterns/ap4", "", "bell\x07"), field: "body"},
		{name: "invalid UTF-8", change: comment("access_patterns/ap4", "", "caf\xe9"), field: "body"},
		{name: "no author", change: AddComment{Target: "access_patterns/ap4", Body: "x", At: commentAt}, field: "author"},
		{name: "no time", change: AddComment{Target: "access_patterns/ap4", Body: "x", Author: "Ada"}, field: "at"},
		{name: "not RFC 3339", change: AddComment{Target: "access_patterns/ap4", Body: "x", Author: "Ada", At: "yesterday"}, field: "at"},
	})
}

func TestAddComment_messagesNameWhatIsWrong(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	for _, tt := range []struct {
		change Change
		want   string
	}{
		{comment("access_patterns/ap99", "", "x"), `no access pattern with id "ap99"`},
		{comment("tables/Employee/indexes/ByColour", "", "x"), `table Employee has no index named "ByColour"`},
		{comment("entities/Employee", "", "x"), "a comment is about an access pattern"},
		{comment("access_patterns/ap5", "cm1", "x"), "comment cm1 is about access_patterns/ap4, not access_patterns/ap5"},
		{comment("access_patterns/ap4", "", strings.Repeat("a", MaxCommentLen+1)), "is 4001 characters long; at most 4000"},
	} {
		_, err := tt.change.Apply(d)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want one containing %q", tt.change, err, tt.want)
		}
	}
}

func TestAddComment_repliesJoinTheThread(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	d = applyAll(t, d, comment("access_patterns/ap4", "cm2", "A reply to the reply."))
	threads := CommentThreads(d, "access_patterns/ap4")
	if len(threads) != 1 {
		t.Fatalf("%d threads, want 1: %+v", len(threads), threads)
	}
	th := threads[0]
	if th.Root.ID != "cm1" || len(th.Replies) != 2 || th.Replies[0].ID != "cm2" || th.Replies[1].ID != "cm3" {
		t.Fatalf("thread = %+v, want cm1 with replies cm2, cm3", th)
	}
	if th.Replies[1].ParentID != "cm1" {
		t.Errorf("a reply to reply cm2 has parent %q, want the thread's root cm1", th.Replies[1].ParentID)
	}
	if th.Replies[0].Author != "Bo" {
		t.Errorf("reply author = %q, want Bo", th.Replies[0].Author)
	}
}

func TestAddComment_idsComeFromTheDesign(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	onTable := comment("tables/Employee", "", "x")
	d = applyAll(t, d, onTable)
	if id := d.Comments[2].ID; id != "cm3" {
		t.Fatalf("third comment id = %q, want cm3", id)
	}
	// Deleting the last comment frees its number; deleting an earlier one does not.
	d = applyAll(t, d, DeleteComment{ID: "cm3", Target: "tables/Employee"}, onTable)
	if id := d.Comments[2].ID; id != "cm3" {
		t.Errorf("after deleting cm3, the next id = %q, want cm3", id)
	}
	d = applyAll(t, d, DeleteComment{ID: "cm2", Target: "access_patterns/ap4"}, onTable)
	if id := d.Comments[len(d.Comments)-1].ID; id != "cm4" {
		t.Errorf("after deleting cm2, the next id = %q, want cm4", id)
	}
}

func TestResolveComment(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	before := mustMarshal(t, d)
	resolved, err := ResolveComment{ID: "cm1", Target: "access_patterns/ap4", Resolved: true}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	assertUnchanged(t, before, d)
	if !resolved.Comments[0].Resolved || resolved.Comments[1].Resolved {
		t.Fatalf("comments = %+v, want the root resolved", resolved.Comments)
	}
	if n := OpenCommentCount(resolved, "access_patterns/ap4"); n != 0 {
		t.Errorf("open comments after resolving = %d, want 0", n)
	}
	reopened := applyAll(t, resolved, ResolveComment{ID: "cm1", Target: "access_patterns/ap4"})
	if reopened.Comments[0].Resolved {
		t.Errorf("reopening left the thread resolved")
	}
	for _, tt := range []struct {
		name   string
		change ResolveComment
		field  string
	}{
		{"a reply", ResolveComment{ID: "cm2", Target: "access_patterns/ap4", Resolved: true}, "id"},
		{"unknown", ResolveComment{ID: "cm9", Target: "access_patterns/ap4", Resolved: true}, "id"},
		{"wrong target", ResolveComment{ID: "cm1", Target: "access_patterns/ap5", Resolved: true}, "target"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.change.Apply(d)
			wantValidationError(t, err, tt.field)
			assertUnchanged(t, before, d)
		})
	}
}

func TestDeleteComment(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	before := mustMarshal(t, d)
	_, err := DeleteComment{ID: "cm1", Target: "access_patterns/ap4"}.Apply(d)
	wantValidationError(t, err, "id")
	if err == nil || !strings.Contains(err.Error(), "has replies") {
		t.Errorf("deleting a root with replies: %v, want it refused because of the replies", err)
	}
	_, err = DeleteComment{ID: "cm7", Target: "access_patterns/ap4"}.Apply(d)
	wantValidationError(t, err, "id")
	_, err = DeleteComment{ID: "cm2", Target: "tables/Employee"}.Apply(d)
	wantValidationError(t, err, "target")

	orig := d
	d = applyAll(t, d, DeleteComment{ID: "cm2", Target: "access_patterns/ap4"})
	assertUnchanged(t, before, orig)
	if len(d.Comments) != 1 || d.Comments[0].ID != "cm1" {
		t.Fatalf("after deleting the reply: %+v", d.Comments)
	}
	d = applyAll(t, d, DeleteComment{ID: "cm1", Target: "access_patterns/ap4"})
	if len(d.Comments) != 0 {
		t.Errorf("after deleting the root: %+v", d.Comments)
	}
}

func TestOpenCommentCount_countsUnresolvedThreadsPerElement(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	d = applyAll(t, d,
		comment("access_patterns/ap4", "", "Second thread."),
		comment("tables/Employee/indexes/EmployeesByTitle", "", "Projection?"),
		ResolveComment{ID: "cm4", Target: "tables/Employee/indexes/EmployeesByTitle", Resolved: true},
		comment("tables/TitleHistory/items/t10001a", "", "Typo?"),
	)
	want := map[string]int{"access_patterns/ap4": 3, "tables/TitleHistory/items/t10001a": 1,
		"tables/Employee/indexes/EmployeesByTitle": 0, "tables/Employee": 0, "access_patterns/ap5": 0}
	for target, n := range want {
		if got := OpenCommentCount(d, target); got != n {
			t.Errorf("OpenCommentCount(%s) = %d, want %d", target, got, n)
		}
	}
	if n := len(CommentThreads(d, "access_patterns/ap4")); n != 2 {
		t.Errorf("%d threads on pattern 4, want 2", n)
	}
	if th := CommentThreads(d, "tables/Employee"); len(th) != 0 {
		t.Errorf("threads on the table = %+v; comments on its index are not the table's", th)
	}
}

func TestComments_replayThroughHistoryGivesTheSameDesign(t *testing.T) {
	t.Parallel()
	changes := []Change{
		comment("access_patterns/ap4", "", "Is 500 RPS the peak?"),
		comment("access_patterns/ap4", "cm1", "Yes, at month end."),
		comment("tables/Employee", "", "<script>alert(1)</script> & more"),
		ResolveComment{ID: "cm1", Target: "access_patterns/ap4", Resolved: true},
		DeleteComment{ID: "cm3", Target: "tables/Employee"},
		comment("tables/Employee/indexes/EmployeesByTitle", "", "Sparse?"),
	}
	direct, replayed := hrDesign(t), hrDesign(t)
	for _, c := range changes {
		direct = applyAll(t, direct, c)
		data, err := MarshalChange(c)
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := UnmarshalChange(data)
		if err != nil {
			t.Fatalf("UnmarshalChange(%s): %v", data, err)
		}
		replayed = applyAll(t, replayed, decoded)
	}
	if !bytes.Equal(mustMarshal(t, direct), mustMarshal(t, replayed)) {
		t.Fatal("replaying the stored changes gives another design")
	}
	ids := []string{}
	for _, c := range replayed.Comments {
		ids = append(ids, c.ID+"@"+c.At)
	}
	want := []string{"cm1@" + commentAt, "cm2@" + commentAt, "cm3@" + commentAt}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("comments = %v, want %v", ids, want)
	}
}

func TestComments_historyLinesAndPaths(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	tests := []struct {
		change Change
		line   string
		path   string
	}{
		{comment("access_patterns/ap4", "", "Peak?"), "Commented on pattern 4: Peak?", "access_patterns/ap4/comments"},
		{comment("access_patterns/ap4", "cm1", "Yes"), "Replied to a comment on pattern 4: Yes", "access_patterns/ap4/comments"},
		{comment("tables/Employee/indexes/EmployeesByTitle", "", "Sparse?"), "Commented on index EmployeesByTitle of Employee: Sparse?", "tables/Employee/indexes/EmployeesByTitle/comments"},
		{ResolveComment{ID: "cm1", Target: "access_patterns/ap4", Resolved: true}, "Resolved a comment thread on pattern 4", "access_patterns/ap4/comments"},
		{ResolveComment{ID: "cm1", Target: "access_patterns/ap4"}, "Reopened a comment thread on pattern 4", "access_patterns/ap4/comments"},
		{DeleteComment{ID: "cm2", Target: "access_patterns/ap4"}, "Deleted a comment on pattern 4", "access_patterns/ap4/comments"},
	}
	for _, tt := range tests {
		if got := Describe(tt.change, d); got != tt.line {
			t.Errorf("Describe(%+v) = %q, want %q", tt.change, got, tt.line)
		}
		if got := tt.change.Paths(); !reflect.DeepEqual(got, []string{tt.path}) {
			t.Errorf("%+v.Paths() = %v, want [%s]", tt.change, got, tt.path)
		}
	}
	if got := (comment("access_patterns/ap4", "", "Peak?")).Summary(); got != "Commented on pattern ap4: Peak?" {
		t.Errorf("Summary without the design = %q", got)
	}
}

// A comment whose element is deleted stays in the document, out of sight (a renamed element keeps
// its comments): the design still passes Check and round-trips, and undoing the deletion shows the
// thread again.
func TestComments_onVanishedElementsDoNotBreakTheDesign(t *testing.T) {
	t.Parallel()
	d := applyAll(t, hrDesign(t),
		comment("tables/TitleHistory", "", "Needed?"),
		comment("tables/TitleHistory/items/t10001a", "", "Typo?"),
		comment("tables/Employee/indexes/EmployeesByTitle", "", "Sparse?"),
		comment("access_patterns/ap2", "", "Still needed?"),
	)
	after := applyAll(t, d,
		DeleteTable{Table: "TitleHistory"},
		RenameIndex{Table: "Employee", Index: "EmployeesByTitle", To: "ByTitle"},
		DeletePattern{ID: "ap2"},
	)
	if err := Check(after); err != nil {
		t.Fatalf("Check with comments on vanished elements: %v", err)
	}
	parsed, err := ParseJSON(mustMarshal(t, after))
	if err != nil {
		t.Fatalf("ParseJSON: %v", err)
	}
	if len(parsed.Comments) != 4 {
		t.Errorf("round trip kept %d comments, want 4", len(parsed.Comments))
	}
	if got := OpenCommentCount(after, "tables/Employee/indexes/ByTitle"); got != 1 {
		t.Errorf("the renamed index shows %d comments, want its 1 (comments follow a rename)", got)
	}
	// The thread is still there for a restored revision, but cannot be replied to while its
	// element is gone.
	_, err = comment("tables/TitleHistory", "cm1", "Reply").Apply(after)
	wantValidationError(t, err, "target")
	if n := len(CommentThreads(d, "tables/TitleHistory")); n != 1 {
		t.Errorf("before the delete, %d threads on the table, want 1", n)
	}
}

// Renaming a table or an index keeps its comments with it.
func TestComments_followRenamedTablesAndIndexes(t *testing.T) {
	t.Parallel()
	d, err := ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	tb := d.Tables[0]
	if len(tb.GSIs) == 0 {
		t.Fatalf("example table %s has no GSI", tb.Name)
	}
	ix := tb.GSIs[0]
	for _, target := range []string{TableTarget(tb.Name), IndexTarget(tb.Name, ix.Name)} {
		if d, err = (AddComment{Target: target, Body: "Why this key?", Author: "Ada", At: "2026-11-21T10:00:00Z"}).Apply(d); err != nil {
			t.Fatal(err)
		}
	}
	if d, err = (RenameIndex{Table: tb.Name, Index: ix.Name, To: "ByManager2"}).Apply(d); err != nil {
		t.Fatal(err)
	}
	if d, err = (RenameTable{Table: tb.Name, To: "Staff"}).Apply(d); err != nil {
		t.Fatal(err)
	}
	if got := OpenCommentCount(d, TableTarget("Staff")); got != 1 {
		t.Errorf("renamed table has %d open comments, want 1", got)
	}
	if got := OpenCommentCount(d, IndexTarget("Staff", "ByManager2")); got != 1 {
		t.Errorf("renamed index has %d open comments, want 1", got)
	}
	if got := OpenCommentCount(d, TableTarget(tb.Name)); got != 0 {
		t.Errorf("the old table name still has %d comments", got)
	}
}
