package derive

import (
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
)

// A Set answers the same Derived for the same revision, makes a new revision's from the newest it
// holds of that design (counting what that one holds by then), and drops the least recently used
// once the bytes it is charged pass the budget.
func TestSet_reusesARevisionAndStaysWithinItsBudget(t *testing.T) {
	t.Parallel()
	d := designertest.Large(designertest.Size{Tables: 2, Items: 1000, GSIs: 2, Patterns: 20})
	s := NewSet(1 << 30)
	x := s.Get("a", 1, d)
	if s.Get("a", 1, d) != x {
		t.Fatal("the same revision was derived twice")
	}
	x.Findings()
	next, err := designer.SetItemCell{Table: d.Tables[0].Name, ID: d.Tables[0].Items[0].ID, Attribute: "note", Text: "Zed"}.Apply(d)
	if err != nil {
		t.Fatal(err)
	}
	y := s.Get("a", 2, next)
	if y == x || y.prev != x {
		t.Fatal("revision 2 was not made from revision 1")
	}
	y.Findings()
	s.Get("a", 2, next) // counts what y's findings added; x's were counted when y was made from it
	s.measures.Wait()
	n, used := s.Size()
	if want := x.Measure() + y.Measure(); n != 2 || used < want*3/4 || used > want*5/4 {
		t.Fatalf("Size() = %d revisions, %d bytes; want 2 and %d within a quarter", n, used, want)
	}

	one := New(d, nil)
	one.Findings()
	small := NewSet(one.Measure() + 1)
	small.Get("a", 1, d).Findings()
	small.Get("a", 1, d)
	b := small.Get("b", 1, d)
	if b.prev != nil {
		t.Fatal("design b's revision was made from design a's")
	}
	b.Findings()
	small.Get("b", 1, d)
	if n, used := small.Size(); n != 1 || used > one.Measure()+1 {
		t.Fatalf("Size() = %d revisions, %d bytes; want 1 within the budget of %d", n, used, one.Measure()+1)
	}
}

// Measuring a Derived while other goroutines work its parts out is safe (run with -race): a Set
// measures an entry as it is asked for, from any request.
func TestSet_measuresWhilePartsAreWorkedOut(t *testing.T) {
	t.Parallel()
	d := designertest.Large(designertest.Size{Tables: 2, Items: 300, GSIs: 4, Patterns: 20})
	s := NewSet(1 << 30)
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			everything(s.Get("a", 1, d), d)
			s.Get("a", 1, d).Measure()
		}()
	}
	for range 4 {
		<-done
	}
	s.Get("a", 1, d)
	s.measures.Wait()
	if n, used := s.Size(); n != 1 || used < s.Get("a", 1, d).Measure()*3/4 {
		t.Fatalf("Size() = %d revisions, %d bytes; want 1 charged about %d", n, used, s.Get("a", 1, d).Measure())
	}
}
