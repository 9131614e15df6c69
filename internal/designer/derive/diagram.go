package derive

import (
	"context"
	"strconv"
	"sync"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/diagram"
	"dynaloom/internal/designer/rules"
)

// diagrams holds the two laid-out diagrams of a revision, each worked out when first asked.
type diagrams struct {
	mu   sync.Mutex
	done map[string]diagramResult
}

type diagramResult struct {
	drawing diagram.Drawing
	err     error
}

// Diagram is diagram kind (designer.EntityDiagram or designer.ModelMap) of the design, laid out
// once per revision. The model map marks red the patterns whose verdict fails or at which an
// error or warning finding points.
func (x *Derived) Diagram(kind string) (diagram.Drawing, error) {
	x.diagrams.mu.Lock()
	r, ok := x.diagrams.done[kind]
	x.diagrams.mu.Unlock()
	if ok {
		return r.drawing, r.err
	}
	var marks diagram.Marks
	if kind == designer.ModelMap {
		marks = x.Marks()
	}
	r.drawing, r.err = diagram.Draw(context.Background(), x.design, kind, marks)
	x.diagrams.mu.Lock()
	defer x.diagrams.mu.Unlock()
	if x.diagrams.done == nil {
		x.diagrams.done = map[string]diagramResult{}
	}
	x.diagrams.done[kind] = r
	return r.drawing, r.err
}

// Marks says, per pattern id, why the model map draws the pattern red: its verdict fails, or an
// error or warning finding points at it (the first, as the findings are sorted).
func (x *Derived) Marks() diagram.Marks {
	byNumber := map[string]string{}
	for _, p := range x.design.Patterns {
		byNumber[strconv.Itoa(p.Number)] = p.ID
	}
	marks := diagram.Marks{}
	for _, f := range x.Findings() {
		if f.Severity != rules.SeverityError && f.Severity != rules.SeverityWarning {
			continue
		}
		pp := designer.Path(f.Path).Parts()
		if pp.Collection != designer.PathPatterns {
			continue
		}
		if id, ok := byNumber[pp.Key]; ok && marks[id] == "" {
			marks[id] = f.Code + ": " + f.Message
		}
	}
	for _, p := range x.design.Patterns {
		if x.PatternVerdict(p) == "fail" {
			marks[p.ID] = "its operations return other items than the team expects"
		}
	}
	return marks
}

// bytes estimates the memory the laid-out diagrams hold.
func (ds *diagrams) bytes() int64 {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	var n int64
	for _, r := range ds.done {
		n += 256 * int64(len(r.drawing.Nodes)+len(r.drawing.Groups))
		for _, e := range r.drawing.Edges {
			n += 128 + int64(len(e.D))
		}
	}
	return n
}
