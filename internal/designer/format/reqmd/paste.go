package reqmd

import (
	"strings"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/markdown"
)

// PastedPattern reads a pasted pattern row as the import reads a row of the pattern table, so
// that a cell the import understands the paste understands too: the Key Requirements cell split
// into latency, consistency, result bound and item size, an "Entities: …" last line of the
// considerations taken as the entities, and a row that names none linked to the entities of d
// its description or attributes name. cells are field texts by key; a field the row gives in a
// column of its own is kept as given.
func PastedPattern(cells map[string]string, d designer.Design) map[string]string {
	pf := designer.PatternField
	out := make(map[string]string, len(cells))
	for k, v := range cells {
		out[k] = v
	}
	if raw, ok := out[pf.KeyNotes.Key]; ok {
		var kr keyRequirements
		kr.parse(raw)
		for _, f := range []struct {
			key, value string
		}{{pf.LatencySLO.Key, kr.latency}, {pf.Consistency.Key, kr.consistency}, {pf.ResultBound.Key, kr.result}, {pf.ItemSizeBand.Key, kr.size}} {
			if f.value != "" && out[f.key] == "" {
				out[f.key] = f.value
			}
		}
		if out[pf.KeyNotes.Key] = kr.notes; kr.notes == "" {
			delete(out, pf.KeyNotes.Key)
		}
	}
	if lines := strings.Split(out[pf.Considerations.Key], "\n"); isEntitiesLine(lines[len(lines)-1]) {
		last := strings.TrimSpace(lines[len(lines)-1])
		if out[pf.Entities.Key] == "" {
			out[pf.Entities.Key] = strings.Join(markdown.ParseList(last[len("entities:"):]), ", ")
		}
		if out[pf.Considerations.Key] = strings.TrimSpace(strings.Join(lines[:len(lines)-1], "\n")); out[pf.Considerations.Key] == "" {
			delete(out, pf.Considerations.Key)
		}
	}
	if _, stated := out[pf.Entities.Key]; !stated {
		p := designer.Pattern{Description: out[pf.Description.Key], Attributes: markdown.ParseList(out[pf.Attributes.Key])}
		if linked := newEntityIndex(d.Entities).linked(p); len(linked) > 0 {
			out[pf.Entities.Key] = strings.Join(linked, ", ")
		}
	}
	return out
}
