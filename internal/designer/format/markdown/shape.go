package markdown

import (
	"strings"

	"dynaloom/internal/designer"
)

// The shapes goldmark reads in time that grows faster than the document: each container a line
// opens or continues costs goldmark a pass over the line's start (a line of 100,000 ">" takes
// minutes), and each backtick run that opens a code span and never closes it costs a pass over
// the rest of its paragraph. CheckShape bounds both before a document is parsed; no document a
// team writes comes near either limit.

// MaxNesting is how many block quotes and list items a line may sit in.
const MaxNesting = 32

// MaxContainerLines is the work budget of a document's containers: its lines counted once for
// each block quote and list item they sit in. goldmark's work grows with that count.
const MaxContainerLines = 1_000_000

// MaxOpenCodeSpans is how many backtick runs of a paragraph may open a code span that never closes.
const MaxOpenCodeSpans = 32

// CheckShape refuses a document nested deeper than MaxNesting, past MaxContainerLines, or with a
// paragraph holding more than MaxOpenCodeSpans unclosed backtick runs, naming the line and the
// limit. Its work is linear in the document.
func CheckShape(text string) error {
	var (
		lists  []int // the content columns of the list items open, innermost last
		fence  string
		para   paragraphTicks
		lineNo int
		work   int // container lines so far
	)
	for start := 0; start <= len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		lineNo++
		start = end + 1
		switch {
		case fence != "":
			work += len(lists)
			if ClosesFence(line, fence) {
				fence = ""
			}
		case isBlank(line):
			work += len(lists)
			if err := para.end(); err != nil {
				return err
			}
		default:
			depth := nesting(line, &lists)
			if depth > MaxNesting {
				return designer.Invalid("file", "line %d sits in more than %d block quotes and list items; Dynaloom reads a document nested at most %d deep", lineNo, MaxNesting, MaxNesting)
			}
			work += depth
			if f := FenceMarker(line); f != "" {
				// A fence this far left closes the list items indented deeper.
				for len(lists) > 0 && lists[len(lists)-1] > IndentOf(line) {
					lists = lists[:len(lists)-1]
				}
				if err := para.end(); err != nil {
					return err
				}
				fence = f
			} else if err := para.add(line, lineNo); err != nil {
				return err
			}
		}
		if work > MaxContainerLines {
			return designer.Invalid("file", "by line %d the document's lines sit in block quotes and list items more than %d times (each line counted once for each it sits in); Dynaloom reads at most %d", lineNo, MaxContainerLines, MaxContainerLines)
		}
	}
	return para.end()
}

// nesting estimates how many containers line sits in, never fewer than goldmark opens: the list
// items open before it that its indentation continues, and the quote and list markers it starts
// with. It keeps lists up to date: a list marker closes the items indented deeper than it and
// opens its own. A line without a marker may be a paragraph's lazy continuation, which keeps every
// container open, so it closes none.
func nesting(line string, lists *[]int) int {
	col, i := 0, 0
	for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		col = advanceCol(col, line[i])
	}
	if thematicBreak(line[i:]) {
		return len(*lists)
	}
	quotes, first := 0, true
	for i < len(line) {
		c := line[i]
		width := 0
		switch {
		case c == '>':
			width = 1
		case c == '-' || c == '*' || c == '+':
			if i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
				return quotes + len(*lists)
			}
			width = 1
		case '0' <= c && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && '0' <= line[j] && line[j] <= '9' {
				j++
			}
			if j == len(line) || line[j] != '.' && line[j] != ')' || j+1 < len(line) && line[j+1] != ' ' && line[j+1] != '\t' {
				return quotes + len(*lists)
			}
			width = j + 1 - i
		default:
			return quotes + len(*lists)
		}
		if first {
			// The first marker: the items it is not indented into are closed.
			first = false
			for len(*lists) > 0 && (*lists)[len(*lists)-1] > col {
				*lists = (*lists)[:len(*lists)-1]
			}
		}
		i += width
		col += width
		if c == '>' {
			quotes++
		} else {
			*lists = append(*lists, col+1)
		}
		for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
			col = advanceCol(col, line[i])
		}
		if quotes+len(*lists) > MaxNesting {
			break // past the limit: the rest of the line is not looked at
		}
	}
	return quotes + len(*lists)
}

func advanceCol(col int, c byte) int {
	if c == '\t' {
		return col + 4 - col%4
	}
	return col + 1
}

// thematicBreak reports whether s is a thematic break ("- - -", "***"), which opens no list.
func thematicBreak(s string) bool {
	var mark byte
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
		case (c == '-' || c == '*' || c == '_') && (mark == 0 || c == mark):
			mark = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// paragraphTicks follows the backtick runs of one paragraph as goldmark's code span parser reads
// them: a run opens a code span that the next run of the same length closes; a run that no later
// run closes is read as text, after a pass over the rest of the paragraph.
type paragraphTicks struct {
	runs  []tickRun
	first int // the paragraph's first line
}

type tickRun struct{ length, line int }

func (p *paragraphTicks) add(line string, lineNo int) error {
	if len(p.runs) == 0 {
		p.first = lineNo
	}
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] == '`' {
			j++
		}
		p.runs = append(p.runs, tickRun{length: j - i, line: lineNo})
		i = j
	}
	return nil
}

// end closes the paragraph: its runs are paired as goldmark pairs them, and it is refused when
// more than MaxOpenCodeSpans never close.
func (p *paragraphTicks) end() error {
	runs := p.runs
	p.runs = p.runs[:0]
	if len(runs) <= MaxOpenCodeSpans {
		return nil
	}
	// next[i] is the next run after i of the same length, or -1.
	next := make([]int, len(runs))
	last := map[int]int{}
	for i := len(runs) - 1; i >= 0; i-- {
		next[i] = -1
		if j, ok := last[runs[i].length]; ok {
			next[i] = j
		}
		last[runs[i].length] = i
	}
	open := 0
	for i := 0; i < len(runs); {
		if next[i] >= 0 {
			i = next[i] + 1
			continue
		}
		if open++; open > MaxOpenCodeSpans {
			return designer.Invalid("file", "the paragraph from line %d holds more than %d runs of backticks that open a code span and never close it (line %d); Dynaloom reads at most %d in a paragraph", p.first, MaxOpenCodeSpans, runs[i].line, MaxOpenCodeSpans)
		}
		i++
	}
	return nil
}
