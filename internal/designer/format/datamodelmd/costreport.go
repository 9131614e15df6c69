package datamodelmd

import (
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// The AWS DynamoDB MCP server's cost calculator writes its report into the data model as a block
// from a "## Cost Report" heading to a "<!-- end-cost-report -->" line, and on its next run
// replaces the text between the two. The block's own headings ("### Storage Costs",
// "#### Orders Table") are not the design's, so the import takes the block out before anything
// else reads the document, keeps it as written (prose.cost_report), and the export writes it back
// at the end of the document, where the calculator appends it. A block without its end marker runs
// to the next "## " heading; the export then closes it with the marker, so the calculator finds it.

// costReportEnd is the calculator's end marker.
const costReportEnd = "<!-- end-cost-report -->"

// cutCostReport returns the cost report block of text (its lines, as written) and text with the
// block's lines left empty, so that what follows keeps its line numbers; and a note saying where
// the block was. Headings inside fenced code are not headings.
func cutCostReport(text string) (string, string, []designer.ImportNote) {
	lines := strings.Split(text, "\n")
	start, end := -1, -1
	var fence string
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		if len(l)-len(trimmed) <= 3 {
			if f := fenceOf(trimmed); f != "" {
				switch {
				case fence == "":
					fence = f
				case strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "":
					fence = ""
				}
				continue
			}
		}
		if fence != "" {
			continue
		}
		switch {
		case start < 0 && len(l)-len(trimmed) <= 3 && isCostReportHeading(trimmed):
			start = i
		case start < 0 && len(l)-len(trimmed) <= 3 && i+1 < len(lines) && strings.EqualFold(strings.TrimSpace(l), "Cost Report") &&
			(setextLevel2(lines[i+1]) || setextLevel1(lines[i+1])):
			start = i // the same heading written setext style, underlined with "-" (or "=")
		case start >= 0 && strings.TrimSpace(l) == costReportEnd:
			end = i
		case start >= 0 && len(l)-len(trimmed) <= 3 && level2Heading(trimmed):
			end = i - 1
		}
		if end >= 0 {
			break
		}
	}
	if start < 0 {
		return "", text, nil
	}
	if end < 0 {
		end = len(lines) - 1
	}
	for end > start && strings.TrimSpace(lines[end]) == "" {
		end--
	}
	report := strings.Join(lines[start:end+1], "\n")
	for i := start; i <= end; i++ {
		lines[i] = ""
	}
	note := designer.ImportNote{Line: start + 1, Message: "the Cost Report (lines " + strconv.Itoa(start+1) + "–" + strconv.Itoa(end+1) +
		") is kept as written and written back at the end of the data model, for the MCP cost calculator to replace"}
	return report, strings.Join(lines, "\n"), []designer.ImportNote{note}
}

// fenceOf is the fence a line opens or closes (``` or ~~~, three or more), or "".
func fenceOf(l string) string {
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(l, c) {
			n := len(l) - len(strings.TrimLeft(l, c[:1]))
			return l[:n]
		}
	}
	return ""
}

// isCostReportHeading reports whether l is the ATX heading "## Cost Report", in any case, with
// optional closing hashes; or the same heading at level 1, "# Cost Report", which nothing else of
// the template uses, so that it is not kept as a section the export would write at level 2.
func isCostReportHeading(l string) bool {
	var rest string
	switch {
	case level2Heading(l):
		rest = l[2:]
	case strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "#\t"):
		rest = l[1:]
	default:
		return false
	}
	title := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(rest), "#"))
	return strings.EqualFold(title, "Cost Report")
}

// setextLevel1 reports whether l underlines the line above as a level-1 heading.
func setextLevel1(l string) bool {
	t := strings.TrimSpace(l)
	return len(l)-len(strings.TrimLeft(l, " ")) <= 3 && t != "" && strings.Trim(t, "=") == ""
}

// setextLevel2 reports whether l underlines the line above as a level-2 heading.
func setextLevel2(l string) bool {
	t := strings.TrimRight(l, " \t")
	return len(l)-len(strings.TrimLeft(l, " ")) <= 3 && strings.Trim(strings.TrimSpace(t), "-") == "" && strings.TrimSpace(t) != ""
}

func level2Heading(l string) bool {
	return strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "##\t") || l == "##"
}

// costReport writes the kept block at the end of the document, closed by the end marker.
func (w *writer) costReport(report string) {
	if report == "" {
		return
	}
	w.line("")
	for _, l := range strings.Split(report, "\n") {
		w.line(l)
	}
	if last := report[strings.LastIndexByte(report, '\n')+1:]; strings.TrimSpace(last) != costReportEnd {
		w.line(costReportEnd)
	}
}
