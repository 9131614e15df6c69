package designer

// Summary counts what a design holds, for the workspace's at-a-glance panel.
type Summary struct {
	Entities, Patterns, Tables, GSIs, LSIs, Items int
}

// Summarize counts the parts of d.
func Summarize(d Design) Summary {
	s := Summary{Entities: len(d.Entities), Patterns: len(d.Patterns), Tables: len(d.Tables)}
	for _, t := range d.Tables {
		s.GSIs += len(t.GSIs)
		s.LSIs += len(t.LSIs)
		s.Items += len(t.Items)
	}
	return s
}
