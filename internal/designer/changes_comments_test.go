package designer_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

const commentAt = "2025-03-01T09:30:00Z"

// comment is an AddComment by Ada at commentAt.
func comment(target, parent, body string) designer.AddComment {
	return designer.AddComment{Target: target, ParentID: parent, Body: body, Author: "Ada", At: commentAt}
}

// withThread is the HR design with a thread on pattern 4: cm1 by Ada and cm2, Bo's reply.
func withThread(t *testing.T) designer.Design {
	t.Helper()
	reply := comment("access_patterns/ap4", "cm1", "It is in pattern 7 too.")
	reply.Author = "Bo"
	return designertest.ApplyAll(t, designertest.HRDesign(t), comment("access_patterns/ap4", "", "Is 500 RPS the peak or the average?"), reply)
}

func TestAddComment(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", designer.MaxCommentLen)
	designertest.RunChangeCases(t, designertest.HRDesign(t), []designertest.ChangeCase{
		{Name: "on a pattern", Change: designer.AddComment{Target: " access_patterns/ap4 ", Body: "  Peak or average?\r\nAsk ops. ", Author: " Ada ", At: "2025-03-01T10:30:00+01:00"},
			Check: func(t *testing.T, _, after designer.Design) {
				want := designer.Comment{ID: "cm1", Target: "access_patterns/ap4", Author: "Ada", At: "2025-03-01T09:30:00Z", Body: "Peak or average?\nAsk ops."}
				if got := after.Comments; len(got) != 1 || !reflect.DeepEqual(got[0], want) {
					t.Errorf("comments = %+v, want [%+v]", got, want)
				}
			}},
		{Name: "on a table", Change: comment("tables/Employee", "", "Why not one table?")},
		{Name: "on an index", Change: comment("tables/Employee/indexes/EmployeesByTitle", "", "Sparse?")},
		{Name: "on an item", Change: comment("tables/TitleHistory/items/t10001a", "", "Is this date right?")},
		{Name: "the longest body", Change: comment("tables/Employee", "", long)},
		{Name: "no target", Change: comment("  ", "", "x"), Field: "target"},
		{Name: "unknown pattern", Change: comment("access_patterns/ap99", "", "x"), Field: "target"},
		{Name: "unknown table", Change: comment("tables/Orders", "", "x"), Field: "target"},
		{Name: "unknown index", Change: comment("tables/Employee/indexes/ByColour", "", "x"), Field: "target"},
		{Name: "unknown item", Change: comment("tables/Employee/items/nope", "", "x"), Field: "target"},
		{Name: "not a commentable element", Change: comment("entities/Employee", "", "x"), Field: "target"},
		{Name: "a field, not an element", Change: comment("access_patterns/ap4/peak_rps", "", "x"), Field: "target"},
		{Name: "unknown parent", Change: comment("access_patterns/ap4", "cm9", "x"), Field: "parent_id"},
		{Name: "empty body", Change: comment("access_patterns/ap4", "", " \n\t "), Field: "body"},
		{Name: "body too long", Change: comment("access_patterns/ap4", "", long+"!"), Field: "body"},
		{Name: "control character", Change: comment("access_patterns/ap4", "", "bell\x07"), Field: "body"},
		{Name: "invalid UTF-8", Change: comment("access_patterns/ap4", "", "caf\xe9"), Field: "body"},
		{Name: "no author", Change: designer.AddComment{Target: "access_patterns/ap4", Body: "x", At: commentAt}, Field: "author"},
		{Name: "no time", Change: designer.AddComment{Target: "access_patterns/ap4", Body: "x", Author: "Ada"}, Field: "at"},
		{Name: "not RFC 3339", Change: designer.AddComment{Target: "access_patterns/ap4", Body: "x", Author: "Ada", At: "yesterday"}, Field: "at"},
	})
}

func TestAddComment_messagesNameWhatIsWrong(t *testing.T) {
	t.Parallel()
	designertest.RunChangeCases(t, withThread(t), []designertest.ChangeCase{
		{Name: "unknown pattern", Change: comment("access_patterns/ap99", "", "x"), Err: `no access pattern with id "ap99"`},
		{Name: "unknown index", Change: comment("tables/Employee/indexes/ByColour", "", "x"), Err: `table Employee has no index named "ByColour"`},
		{Name: "entity", Change: comment("entities/Employee", "", "x"), Err: "a comment is about an access pattern"},
		{Name: "reply elsewhere", Change: comment("access_patterns/ap5", "cm1", "x"), Err: "comment cm1 is about access_patterns/ap4, not access_patterns/ap5"},
		{Name: "too long", Change: comment("access_patterns/ap4", "", strings.Repeat("a", designer.MaxCommentLen+1)), Err: "is 4001 characters long; at most 4000"},
	})
}

func TestAddComment_repliesJoinTheThread(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	d = designertest.ApplyAll(t, d, comment("access_patterns/ap4", "cm2", "A reply to the reply."))
	threads := designer.CommentThreads(d, "access_patterns/ap4")
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
	d = designertest.ApplyAll(t, d, onTable)
	if id := d.Comments[2].ID; id != "cm3" {
		t.Fatalf("third comment id = %q, want cm3", id)
	}
	// Deleting the last comment frees its number; deleting an earlier one does not.
	d = designertest.ApplyAll(t, d, designer.DeleteComment{ID: "cm3", Target: "tables/Employee"}, onTable)
	if id := d.Comments[2].ID; id != "cm3" {
		t.Errorf("after deleting cm3, the next id = %q, want cm3", id)
	}
	d = designertest.ApplyAll(t, d, designer.DeleteComment{ID: "cm2", Target: "access_patterns/ap4"}, onTable)
	if id := d.Comments[len(d.Comments)-1].ID; id != "cm4" {
		t.Errorf("after deleting cm2, the next id = %q, want cm4", id)
	}
}

func TestResolveComment(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	before := designertest.MustMarshal(t, d)
	resolved, err := designer.ResolveComment{ID: "cm1", Target: "access_patterns/ap4", Resolved: true}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	designertest.AssertUnchanged(t, before, d)
	if !resolved.Comments[0].Resolved || resolved.Comments[1].Resolved {
		t.Fatalf("comments = %+v, want the root resolved", resolved.Comments)
	}
	if n := designer.OpenCommentCount(resolved, "access_patterns/ap4"); n != 0 {
		t.Errorf("open comments after resolving = %d, want 0", n)
	}
	reopened := designertest.ApplyAll(t, resolved, designer.ResolveComment{ID: "cm1", Target: "access_patterns/ap4"})
	if reopened.Comments[0].Resolved {
		t.Errorf("reopening left the thread resolved")
	}
	designertest.RunChangeCases(t, d, []designertest.ChangeCase{
		{Name: "a reply", Change: designer.ResolveComment{ID: "cm2", Target: "access_patterns/ap4", Resolved: true}, Field: "id"},
		{Name: "unknown", Change: designer.ResolveComment{ID: "cm9", Target: "access_patterns/ap4", Resolved: true}, Field: "id"},
		{Name: "wrong target", Change: designer.ResolveComment{ID: "cm1", Target: "access_patterns/ap5", Resolved: true}, Field: "target"},
	})
}

func TestDeleteComment(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	before := designertest.MustMarshal(t, d)
	designertest.RunChangeCases(t, d, []designertest.ChangeCase{
		{Name: "a root with replies", Change: designer.DeleteComment{ID: "cm1", Target: "access_patterns/ap4"}, Field: "id", Err: "has replies"},
		{Name: "unknown", Change: designer.DeleteComment{ID: "cm7", Target: "access_patterns/ap4"}, Field: "id"},
		{Name: "wrong target", Change: designer.DeleteComment{ID: "cm2", Target: "tables/Employee"}, Field: "target"},
	})

	orig := d
	d = designertest.ApplyAll(t, d, designer.DeleteComment{ID: "cm2", Target: "access_patterns/ap4"})
	designertest.AssertUnchanged(t, before, orig)
	if len(d.Comments) != 1 || d.Comments[0].ID != "cm1" {
		t.Fatalf("after deleting the reply: %+v", d.Comments)
	}
	d = designertest.ApplyAll(t, d, designer.DeleteComment{ID: "cm1", Target: "access_patterns/ap4"})
	if len(d.Comments) != 0 {
		t.Errorf("after deleting the root: %+v", d.Comments)
	}
}

func TestOpenCommentCount_countsUnresolvedThreadsPerElement(t *testing.T) {
	t.Parallel()
	d := withThread(t)
	d = designertest.ApplyAll(t, d,
		comment("access_patterns/ap4", "", "Second thread."),
		comment("tables/Employee/indexes/EmployeesByTitle", "", "Projection?"),
		designer.ResolveComment{ID: "cm4", Target: "tables/Employee/indexes/EmployeesByTitle", Resolved: true},
		comment("tables/TitleHistory/items/t10001a", "", "Typo?"),
	)
	want := map[string]int{"access_patterns/ap4": 3, "tables/TitleHistory/items/t10001a": 1,
		"tables/Employee/indexes/EmployeesByTitle": 0, "tables/Employee": 0, "access_patterns/ap5": 0}
	for target, n := range want {
		if got := designer.OpenCommentCount(d, target); got != n {
			t.Errorf("OpenCommentCount(%s) = %d, want %d", target, got, n)
		}
	}
	if n := len(designer.CommentThreads(d, "access_patterns/ap4")); n != 2 {
		t.Errorf("%d threads on pattern 4, want 2", n)
	}
	if th := designer.CommentThreads(d, "tables/Employee"); len(th) != 0 {
		t.Errorf("threads on the table = %+v; comments on its index are not the table's", th)
	}
}

func TestComments_replayThroughHistoryGivesTheSameDesign(t *testing.T) {
	t.Parallel()
	changes := []designer.Change{
		comment("access_patterns/ap4", "", "Is 500 RPS the peak?"),
		comment("access_patterns/ap4", "cm1", "Yes, at month end."),
		comment("tables/Employee", "", "<script>alert(1)</script> & more"),
		designer.ResolveComment{ID: "cm1", Target: "access_patterns/ap4", Resolved: true},
		designer.DeleteComment{ID: "cm3", Target: "tables/Employee"},
		comment("tables/Employee/indexes/EmployeesByTitle", "", "Sparse?"),
	}
	direct, replayed := designertest.HRDesign(t), designertest.HRDesign(t)
	for _, c := range changes {
		direct = designertest.ApplyAll(t, direct, c)
		data, err := designer.MarshalChange(c)
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := designer.UnmarshalChange(data)
		if err != nil {
			t.Fatalf("UnmarshalChange(%s): %v", data, err)
		}
		replayed = designertest.ApplyAll(t, replayed, decoded)
	}
	if !bytes.Equal(designertest.MustMarshal(t, direct), designertest.MustMarshal(t, replayed)) {
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
		change designer.Change
		line   string
		path   designer.Path
	}{
		{comment("access_patterns/ap4", "", "Peak?"), "Commented on pattern 4: Peak?", "access_patterns/ap4/comments"},
		{comment("access_patterns/ap4", "cm1", "Yes"), "Replied to a comment on pattern 4: Yes", "access_patterns/ap4/comments"},
		{comment("tables/Employee/indexes/EmployeesByTitle", "", "Sparse?"), "Commented on index EmployeesByTitle of Employee: Sparse?", "tables/Employee/indexes/EmployeesByTitle/comments"},
		{designer.ResolveComment{ID: "cm1", Target: "access_patterns/ap4", Resolved: true}, "Resolved a comment thread on pattern 4", "access_patterns/ap4/comments"},
		{designer.ResolveComment{ID: "cm1", Target: "access_patterns/ap4"}, "Reopened a comment thread on pattern 4", "access_patterns/ap4/comments"},
		{designer.DeleteComment{ID: "cm2", Target: "access_patterns/ap4"}, "Deleted a comment on pattern 4", "access_patterns/ap4/comments"},
	}
	for _, tt := range tests {
		if got := designer.Describe(tt.change, d); got != tt.line {
			t.Errorf("Describe(%+v) = %q, want %q", tt.change, got, tt.line)
		}
		if got := tt.change.Paths(); !reflect.DeepEqual(got, []designer.Path{tt.path}) {
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
	d := designertest.ApplyAll(t, designertest.HRDesign(t),
		comment("tables/TitleHistory", "", "Needed?"),
		comment("tables/TitleHistory/items/t10001a", "", "Typo?"),
		comment("tables/Employee/indexes/EmployeesByTitle", "", "Sparse?"),
		comment("access_patterns/ap2", "", "Still needed?"),
	)
	after := designertest.ApplyAll(t, d,
		designer.DeleteTable{Table: "TitleHistory"},
		designer.RenameIndex{Table: "Employee", Index: "EmployeesByTitle", To: "ByTitle"},
		designer.DeletePattern{ID: "ap2"},
	)
	if err := designer.Check(after); err != nil {
		t.Fatalf("Check with comments on vanished elements: %v", err)
	}
	parsed, err := designer.ParseJSON(designertest.MustMarshal(t, after))
	if err != nil {
		t.Fatalf("ParseJSON: %v", err)
	}
	if len(parsed.Comments) != 4 {
		t.Errorf("round trip kept %d comments, want 4", len(parsed.Comments))
	}
	if got := designer.OpenCommentCount(after, "tables/Employee/indexes/ByTitle"); got != 1 {
		t.Errorf("the renamed index shows %d comments, want its 1 (comments follow a rename)", got)
	}
	// The thread is still there for a restored revision, but cannot be replied to while its
	// element is gone.
	_, err = comment("tables/TitleHistory", "cm1", "Reply").Apply(after)
	designertest.WantValidationError(t, err, "target")
	if n := len(designer.CommentThreads(d, "tables/TitleHistory")); n != 1 {
		t.Errorf("before the delete, %d threads on the table, want 1", n)
	}
}

// Renaming a table or an index keeps its comments with it.
func TestComments_followRenamedTablesAndIndexes(t *testing.T) {
	t.Parallel()
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		t.Fatal(err)
	}
	tb := d.Tables[0]
	if len(tb.GSIs) == 0 {
		t.Fatalf("example table %s has no GSI", tb.Name)
	}
	ix := tb.GSIs[0]
	for _, target := range []string{designer.TableTarget(tb.Name), designer.IndexTarget(tb.Name, ix.Name)} {
		if d, err = (designer.AddComment{Target: target, Body: "Why this key?", Author: "Ada", At: "2026-11-21T10:00:00Z"}).Apply(d); err != nil {
			t.Fatal(err)
		}
	}
	if d, err = (designer.RenameIndex{Table: tb.Name, Index: ix.Name, To: "ByManager2"}).Apply(d); err != nil {
		t.Fatal(err)
	}
	if d, err = (designer.RenameTable{Table: tb.Name, To: "Staff"}).Apply(d); err != nil {
		t.Fatal(err)
	}
	if got := designer.OpenCommentCount(d, designer.TableTarget("Staff")); got != 1 {
		t.Errorf("renamed table has %d open comments, want 1", got)
	}
	if got := designer.OpenCommentCount(d, designer.IndexTarget("Staff", "ByManager2")); got != 1 {
		t.Errorf("renamed index has %d open comments, want 1", got)
	}
	if got := designer.OpenCommentCount(d, designer.TableTarget(tb.Name)); got != 0 {
		t.Errorf("the old table name still has %d comments", got)
	}
}
