package designer

// ExportFormat is one of the documents a design can be written as (CONTRACT.md "Export formats").
type ExportFormat struct {
	ID        string // the name --to and /export/{format} take
	Title     string
	Filename  string // the file name a download is saved under
	MediaType string
	Markdown  bool // a document people read, which the export page previews
	Write     func(Design) ([]byte, error)
}

// exportFormats lists the formats in the order the export page shows them.
var exportFormats = []ExportFormat{
	{"requirements-md", "Requirements", "dynamodb_requirement.md", "text/markdown; charset=utf-8", true,
		func(d Design) ([]byte, error) { return ExportRequirementsMD(d), nil }},
	{"design-json", "Dynaloom design", "dynaloom-design.json", "application/json", false, MarshalJSON},
}

// ExportFormats returns every export format, in the order the export page shows them.
func ExportFormats() []ExportFormat {
	return exportFormats
}

// FindExportFormat returns the format with the given id, or an error naming the formats there are.
func FindExportFormat(id string) (ExportFormat, error) {
	ids := make([]string, len(exportFormats))
	for i, f := range exportFormats {
		if f.ID == id {
			return f, nil
		}
		ids[i] = f.ID
	}
	return ExportFormat{}, invalid("format", "there is no export format %q; use one of %s", id, listOr(ids))
}
