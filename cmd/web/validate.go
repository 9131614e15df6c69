package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format"
	"dynaloom/internal/designer/rules"
)

// stdin is what "-" reads; a test sets it.
var stdin io.Reader = os.Stdin

// designFiles are the files one design is read from, and the name it is reported under.
type designFiles struct {
	name  string
	files []format.File
}

// located is a finding with the file and line it came from, where a file holds it.
type located struct {
	rules.Finding
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// severityRank orders severities for --fail-on: a finding fails the run when it ranks at or
// above the one named.
var severityRank = map[string]int{rules.SeverityInfo: 1, rules.SeverityWarning: 2, rules.SeverityError: 3}

// validate prints the findings of each design it is given (docs/contract.md "validate"): 0 when
// none is at or above --fail-on, 1 when one is, 2 when an input cannot be read. Flags may come
// anywhere on the line; an argument is a file, a directory (each folder in it one design) or "-"
// (a design on standard input).
func validate(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("dynaloom validate", flag.ContinueOnError)
	fset.SetOutput(stderr)
	outFormat := fset.String("format", "text", "output format: text, json, sarif (SARIF 2.1.0) or github (workflow annotations)")
	failOn := fset.String("fail-on", rules.SeverityError, "exit 1 when a finding is this severe or more: error, warning or info")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "Usage: dynaloom validate [--format text|json|sarif|github] [--fail-on error|warning|info] FILE|DIR|- ...")
	}
	names, err := parseInterleaved(fset, args)
	if err != nil {
		return flagStatus(err)
	}
	switch *outFormat {
	case "text", "json", "sarif", "github":
	default:
		fmt.Fprintf(stderr, "dynaloom validate: --format %q: use text, json, sarif or github\n", *outFormat)
		return 2
	}
	if severityRank[*failOn] == 0 {
		fmt.Fprintf(stderr, "dynaloom validate: --fail-on %q: use error, warning or info\n", *failOn)
		return 2
	}
	designs, err := gatherDesigns(names)
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom validate:", err)
		return 2
	}
	var reports []designReport
	for _, df := range designs {
		d, notes, err := format.Import(df.files)
		if err != nil {
			fmt.Fprintf(stderr, "dynaloom validate: %s: %v\n", df.name, err)
			return 2
		}
		writeNotes(stderr, notes)
		report := rules.BuildReport(d)
		r := designReport{name: df.name, report: report}
		for _, f := range report.Findings {
			file, line := format.Locate(d, df.files, f.Path)
			r.findings = append(r.findings, located{Finding: f, File: file, Line: line})
		}
		reports = append(reports, r)
	}
	if err := writeReports(stdout, *outFormat, reports); err != nil {
		fmt.Fprintln(stderr, "dynaloom validate:", err)
		return 2
	}
	for _, r := range reports {
		for _, f := range r.findings {
			if severityRank[f.Severity] >= severityRank[*failOn] {
				return 1
			}
		}
	}
	return 0
}

type designReport struct {
	name     string
	report   rules.Report
	findings []located
}

// parseInterleaved parses flags wherever they stand among the arguments, as pipelines write them
// ("validate models/ --format sarif"); "--" ends the flags.
func parseInterleaved(fset *flag.FlagSet, args []string) ([]string, error) {
	var names []string
	for {
		if err := fset.Parse(args); err != nil {
			return nil, err
		}
		rest := fset.Args()
		if len(rest) == 0 {
			return names, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(names, rest...), nil
		}
		names = append(names, rest[0])
		args = rest[1:]
	}
}

// gatherDesigns reads the arguments' files. Loose files pair as a requirement and a data model of
// one folder, and each other file is a design of its own; a directory is walked, and each folder
// in it that holds design files gives its designs alike; "-" is one design read from stdin.
func gatherDesigns(names []string) ([]designFiles, error) {
	if len(names) == 0 {
		return nil, errors.New("give the design's files, a directory of designs, or - for standard input")
	}
	var out []designFiles
	var loose []format.File
	for _, name := range names {
		if name == "-" {
			data, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
			if err != nil {
				return nil, err
			}
			out = append(out, designFiles{name: "-", files: []format.File{{Name: "-", Data: data}}})
			continue
		}
		info, err := os.Stat(name)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			data, err := os.ReadFile(name)
			if err != nil {
				return nil, err
			}
			loose = append(loose, format.File{Name: name, Data: data})
			continue
		}
		found, err := designsUnder(name)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: holds no design file (a dynamodb_requirement.md, a dynamodb_data_model.md, a design or Workbench JSON file)", name)
		}
		out = append(out, found...)
	}
	return append(groupDesigns(loose), out...), nil
}

// designsUnder walks dir and groups the design files of each folder; hidden folders and
// node_modules are skipped, and a file is taken only when it reads as a design format.
func designsUnder(dir string) ([]designFiles, error) {
	byFolder := map[string][]format.File{}
	var folders []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if path != dir && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := strings.ToLower(filepath.Ext(path))
		if ext != ".md" && ext != ".json" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !isDesignFile(data) {
			return nil
		}
		folder := filepath.Dir(path)
		if _, seen := byFolder[folder]; !seen {
			folders = append(folders, folder)
		}
		byFolder[folder] = append(byFolder[folder], format.File{Name: path, Data: data})
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []designFiles
	for _, folder := range folders {
		out = append(out, groupDesigns(byFolder[folder])...)
	}
	return out, nil
}

// isDesignFile reports whether a file found in a directory is a design: one of the two markdown
// documents, a Workbench model, or design-json (an object with tables, entities or patterns), so
// that a README or a package.json beside them is not read as one.
func isDesignFile(data []byte) bool {
	switch format.Recognise(data) {
	case format.KindRequirementsMD, format.KindDataModelMD, format.KindWorkbenchJSON:
		return true
	case format.KindDesignJSON:
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) != nil {
			return false
		}
		_, tables := top["tables"]
		_, entities := top["entities"]
		_, patterns := top["access_patterns"]
		return tables || entities || patterns
	}
	return false
}

// groupDesigns makes designs of files: in each folder the first requirement document and the
// first data model document are one design, and every other file is one of its own.
func groupDesigns(files []format.File) []designFiles {
	var out []designFiles
	used := make([]bool, len(files))
	for i, f := range files {
		if used[i] {
			continue
		}
		used[i] = true
		group := []format.File{f}
		if k := format.Recognise(f.Data); k == format.KindRequirementsMD || k == format.KindDataModelMD {
			partner := format.KindDataModelMD
			if k == format.KindDataModelMD {
				partner = format.KindRequirementsMD
			}
			for j := i + 1; j < len(files); j++ {
				if !used[j] && filepath.Dir(files[j].Name) == filepath.Dir(f.Name) && format.Recognise(files[j].Data) == partner {
					used[j] = true
					group = append(group, files[j])
					break
				}
			}
		}
		names := make([]string, len(group))
		for k, g := range group {
			names[k] = g.Name
		}
		slices.Sort(names)
		out = append(out, designFiles{name: strings.Join(names, " + "), files: group})
	}
	return out
}

// writeNotes prints import notes to stderr, each with its file and line where known.
func writeNotes(w io.Writer, notes []designer.ImportNote) {
	for _, n := range notes {
		if n.Line > 0 {
			fmt.Fprintf(w, "note: line %d: %s\n", n.Line, n.Message)
		} else {
			fmt.Fprintf(w, "note: %s\n", n.Message)
		}
	}
}
