package server

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The package's files stand in floors: a file uses names of the files below it only, so that a
// reader can start at the ground (server.go, context.go, errors.go) and go up to routes.go. An
// arrow is one file using a package-level name, a method or a field that another file declares;
// an arrow that runs back up is one inside a circle of files, since outside circles a floor
// order without any exists. Issue 28 allowed 10; there are none, and that is held. The files
// are held to 40, of 600 lines each.
func TestServerFiles_standInFloors(t *testing.T) {
	files, arrows := fileArrows(t)
	if len(files) > 40 {
		t.Errorf("internal/server has %d files, more than 40", len(files))
	}
	for name, lines := range files {
		if lines > 600 {
			t.Errorf("%s has %d lines, more than 600", name, lines)
		}
	}
	back := arrowsInCircles(arrows)
	total := 0
	for _, to := range arrows {
		total += len(to)
	}
	t.Logf("%d files, %d arrows between them, %d inside a circle of files", len(files), total, len(back))
	if len(back) > 0 {
		t.Errorf("%d arrows run back up, in a circle of files; move a name down to the file below both:\n%s", len(back), strings.Join(back, "\n"))
	}
}

// fileArrows type-checks the package's own files (no tests) against the export data of what it
// imports, and returns each file's lines and, for each file, the files whose names it uses.
func fileArrows(t *testing.T) (map[string]int, map[string]map[string][]string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Export", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	exports := map[string]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		exports[p.ImportPath] = p.Export
	}
	paths, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	var syntax []*ast.File
	lines := map[string]int{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		syntax = append(syntax, f)
		lines[p] = strings.Count(string(src), "\n")
	}
	lookup := func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) }
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := conf.Check("dynaloom/internal/server", fset, syntax, info)
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	arrows := map[string]map[string][]string{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg {
			continue
		}
		v, isVar := obj.(*types.Var)
		fn, isFunc := obj.(*types.Func)
		member := isVar && v.IsField() || isFunc && fn.Signature().Recv() != nil
		if obj.Parent() != pkg.Scope() && !member {
			continue
		}
		from, to := fset.Position(id.Pos()).Filename, fset.Position(obj.Pos()).Filename
		if from == to || strings.HasSuffix(to, "_test.go") {
			continue
		}
		if arrows[from] == nil {
			arrows[from] = map[string][]string{}
		}
		arrows[from][to] = append(arrows[from][to], id.Name)
	}
	return lines, arrows
}

// arrowsInCircles lists the arrows whose two files lie on one circle (a strongly connected
// component of the file graph), with the names each uses.
func arrowsInCircles(arrows map[string]map[string][]string) []string {
	index, low, comp := map[string]int{}, map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	next, comps := 0, 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range arrows[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = comps
				if w == v {
					break
				}
			}
			comps++
		}
	}
	for v := range arrows {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	var back []string
	for from, to := range arrows {
		for file, names := range to {
			if comp[from] == comp[file] {
				slices.Sort(names)
				back = append(back, from+" -> "+file+": "+strings.Join(slices.Compact(names), ", "))
			}
		}
	}
	slices.Sort(back)
	return back
}
