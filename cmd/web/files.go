package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/derive"
	"dynaloom/internal/designer/format"
)

// readDesign reads one design from the named files (docs/contract.md "Inputs"), printing import notes
// to stderr. An error means the input is unreadable or unrecognised: exit status 2.
func readDesign(names []string, stderr io.Writer) (designer.Design, error) {
	if len(names) == 0 {
		return designer.Design{}, errors.New("give the design's file or files")
	}
	files := make([]format.File, len(names))
	for i, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return designer.Design{}, err
		}
		files[i] = format.File{Name: name, Data: data}
	}
	d, notes, err := format.Import(files)
	if err != nil {
		return designer.Design{}, err
	}
	for _, n := range notes {
		if n.Line > 0 {
			fmt.Fprintf(stderr, "note: line %d: %s\n", n.Line, n.Message)
		} else {
			fmt.Fprintf(stderr, "note: %s\n", n.Message)
		}
	}
	return d, nil
}

func plural(n int, noun string) string {
	if n == 1 || noun == "advice" {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// export writes one design in the format --to names to stdout.
func export(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dynaloom export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", "", "the format to write")
	diagrams := fs.String("diagrams", "", "mermaid: add the design's diagrams to the markdown documents as Mermaid code blocks")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: dynaloom export --to FORMAT [--diagrams mermaid] FILE...")
		fmt.Fprintln(stderr, "Formats:")
		for _, f := range format.ExportFormats() {
			fmt.Fprintf(stderr, "  %-20s %s (%s)\n", f.ID, f.Title, f.Filename)
		}
	}
	if err := fs.Parse(args); err != nil {
		return flagStatus(err)
	}
	if *to == "" {
		fmt.Fprintln(stderr, "dynaloom export: --to is required")
		fs.Usage()
		return 2
	}
	f, err := format.FindExportFormat(*to)
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom export: --to:", strings.TrimPrefix(err.Error(), "format: "))
		return 2
	}
	o, err := format.ParseOptions(*diagrams)
	if err == nil && o.Diagrams != "" && !f.Markdown {
		err = designer.Invalid("diagrams", "the %s export carries no diagrams; only the two markdown documents do", f.ID)
	}
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom export: --"+err.Error())
		return 2
	}
	d, err := readDesign(fs.Args(), stderr)
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom export:", err)
		return 2
	}
	var out []byte
	if !f.Markdown {
		out, err = f.Write(d)
	} else {
		// The documents read the design's checklists, capacity and index views, worked out
		// once here as the server does for a revision, of the design normalized as a stored
		// revision is. A file has no stored dates, which no markdown document records anyway.
		out, err = f.WriteFrom(derive.New(designer.Normalize(d), nil), time.Time{}, time.Time{}, o)
	}
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom export:", err)
		return 2
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintln(stderr, "dynaloom export:", err)
		return 2
	}
	if left := f.LeftOutOf(d); len(left) > 0 {
		fmt.Fprintf(stderr, "dynaloom export: the %s export leaves out:\n", f.ID)
		for _, l := range left {
			fmt.Fprintln(stderr, "  - "+l)
		}
	}
	return 0
}

// flagStatus is the exit status for a flag parse error: 0 for -h, else 2.
func flagStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
