package format

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"unicode/utf8"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/cloudformation"
	"dynaloom/internal/designer/format/datamodelmd"
	"dynaloom/internal/designer/format/freeform"
	"dynaloom/internal/designer/format/markdown"
	"dynaloom/internal/designer/format/mcpmodel"
	"dynaloom/internal/designer/format/reqmd"
	"dynaloom/internal/designer/format/workbench"
)

// ImportNote reports something an imported document held that could not be placed in the design
// as written; every reader gives them.
type ImportNote = designer.ImportNote

// File is one uploaded or named input document.
type File struct {
	Name string
	Data []byte
}

// Import reads one design from the given files, recognising each file's kind from its content, not
// its name. A requirement document and a data model document together make one design: its
// requirements from the first, its tables, prose and mapping text from the second, patterns matched
// by number. Notes say what could not be placed; the text itself is kept as prose.
func Import(files []File) (designer.Design, []ImportNote, error) {
	return ImportContext(context.Background(), files)
}

// ImportContext is Import for a request: between the stages of its work, each bounded by the size
// of a file, it stops with ctx's error once ctx is done, so that the work stops when the client
// goes or the import's budget of time runs out.
func ImportContext(ctx context.Context, files []File) (designer.Design, []ImportNote, error) {
	for _, f := range files {
		if err := checkShape(f); err != nil {
			return designer.Design{}, nil, err
		}
	}
	switch len(files) {
	case 0:
		return designer.Design{}, nil, designer.Invalid("file", "give at least one file")
	case 1:
		d, notes, k, err := importOne(ctx, files[0])
		if err == nil && (k == KindRequirementsMD || k == KindDataModelMD) && empty(d) {
			return designer.Design{}, nil, designer.Invalid("file", "%q holds no design: Dynaloom read it as a %s but found no table, entity, access pattern or overview in it", files[0].Name, kindWords[k])
		}
		return d, notes, err
	case 2:
	default:
		return designer.Design{}, nil, designer.Invalid("file", "one design is read from one file, or from a requirement document and a data model document; %d files were given", len(files))
	}
	var kinds [2]string
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return designer.Design{}, nil, err
		}
		kinds[i] = Recognise(f.Data)
	}
	req, model := -1, -1
	for i, k := range kinds {
		switch k {
		case KindRequirementsMD:
			req = i
		case KindDataModelMD:
			model = i
		}
	}
	if req < 0 || model < 0 || req == model {
		return designer.Design{}, nil, designer.Invalid("file", "two files make one design only as a dynamodb_requirement.md and a dynamodb_data_model.md; %q and %q are not such a pair", files[0].Name, files[1].Name)
	}
	rd, rnotes, _, err := importOne(ctx, files[req])
	if err != nil {
		return designer.Design{}, nil, err
	}
	md, mnotes, _, err := importOne(ctx, files[model])
	if err != nil {
		return designer.Design{}, nil, err
	}
	if err := ctx.Err(); err != nil {
		return designer.Design{}, nil, err
	}
	d, merged := datamodelmd.Merge(rd, md)
	// An entity the requirement added bare may have its attributes from the data model now.
	rnotes = slices.DeleteFunc(slices.Clone(rnotes), func(n ImportNote) bool {
		return slices.ContainsFunc(d.Entities, func(e designer.Entity) bool {
			return len(e.Attributes) > 0 && n.Message == reqmd.AddedWithoutAttributes(e.Name)
		})
	})
	notes := append(prefixNotes(files[req].Name, rnotes), prefixNotes(files[model].Name, mnotes)...)
	notes = append(notes, prefixNotes(files[model].Name, merged)...)
	if err := designer.Check(d); err != nil {
		return designer.Design{}, nil, fmt.Errorf("import %s and %s: %w", files[req].Name, files[model].Name, err)
	}
	return d, notes, nil
}

// checkShape refuses a markdown file nested deeper than goldmark reads in linear time, before
// Recognise asks each format about it (markdown.CheckShape).
func checkShape(f File) error {
	text := bytes.TrimPrefix(f.Data, []byte("\xef\xbb\xbf"))
	if bytes.HasPrefix(bytes.TrimSpace(text), []byte("{")) {
		return nil
	}
	if err := markdown.CheckShape(string(text)); err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	return nil
}

// importOne reads one file, and says what kind of document it read it as.
func importOne(ctx context.Context, f File) (designer.Design, []ImportNote, string, error) {
	var (
		d     designer.Design
		notes []ImportNote
		err   error
	)
	if err := ctx.Err(); err != nil {
		return designer.Design{}, nil, "", err
	}
	kind := Recognise(f.Data)
	if err := ctx.Err(); err != nil {
		return designer.Design{}, nil, "", err
	}
	switch kind {
	case KindDesignJSON:
		d, err = designer.ParseJSON(f.Data)
	case KindRequirementsMD:
		d, notes, err = reqmd.Import(f.Data)
	case KindDataModelMD:
		d, notes, err = datamodelmd.Import(f.Data)
	case KindWorkbenchJSON:
		d, notes, err = workbench.Import(f.Data)
	case KindCloudFormation:
		d, notes, err = cloudformation.Import(f.Data)
	case KindMCPModel:
		d, notes, err = mcpmodel.Import(f.Data)
	case KindFreeformMD:
		d, notes, err = freeform.Import(f.Data)
	default:
		return designer.Design{}, nil, "", designer.Invalid("file", "%q is not a document Dynaloom reads: give a dynamodb_requirement.md, a dynamodb_data_model.md, a design document that states its tables' keys (\"PK: USER#{user_id}\"), a NoSQL Workbench model, a CloudFormation template, an MCP validator model or a Dynaloom design-json file", f.Name)
	}
	if err != nil {
		return designer.Design{}, nil, "", fmt.Errorf("%s: %w", f.Name, err)
	}
	return d, notes, kind, nil
}

// empty reports whether nothing of a design was read from a markdown document, which an import of
// that document alone refuses rather than passing as a design with nothing to find fault with. (A
// design-json or Workbench file states an empty design on purpose; half of a pair may be empty.)
func empty(d designer.Design) bool {
	return len(d.Tables) == 0 && len(d.Entities) == 0 && len(d.Patterns) == 0 && len(d.Relationships) == 0 &&
		len(d.Aggregates) == 0 && len(d.Consolidations) == 0 && d.Overview == designer.Overview{}
}

var kindWords = map[string]string{
	KindRequirementsMD: "requirement document",
	KindDataModelMD:    "data model document",
}

// prefixNotes names the file each note is about, since two files share one list of notes.
func prefixNotes(name string, notes []ImportNote) []ImportNote {
	out := make([]ImportNote, len(notes))
	for i, n := range notes {
		out[i] = ImportNote{Line: n.Line, Message: name + ": " + n.Message}
	}
	return out
}

// Input kinds Recognise tells apart.
const (
	KindUnknown        = ""
	KindDesignJSON     = "design-json"
	KindRequirementsMD = "requirements-md"
	KindDataModelMD    = "data-model-md"
	KindWorkbenchJSON  = "workbench-json"
	KindFreeformMD     = "freeform-md"
	KindCloudFormation = "cloudformation"
	KindMCPModel       = "mcp-model-json"
)

// Recognise says what kind of document data is, from its content: a JSON object is a Workbench
// model, a CloudFormation template or an MCP validator model when its members say so, and
// design-json otherwise; YAML is a CloudFormation template when it is one; markdown is asked of each format in turn,
// surest first — a free-form design document's key structure in a document without the
// templates' headings, a data model's own headings, then a requirement document's markers, then
// the weaker signs of a data model.
func Recognise(data []byte) string {
	text := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return KindUnknown
	}
	if bytes.HasPrefix(text, []byte("{")) {
		switch {
		case workbench.Looks(text):
			return KindWorkbenchJSON
		case cloudformation.Looks(text):
			return KindCloudFormation
		case mcpmodel.Looks(text):
			return KindMCPModel
		}
		return KindDesignJSON
	}
	if cloudformation.Looks(text) {
		return KindCloudFormation
	}
	switch s := string(text); {
	case freeform.Looks(s):
		return KindFreeformMD
	case datamodelmd.Looks(s):
		return KindDataModelMD
	case reqmd.Looks(s):
		return KindRequirementsMD
	case datamodelmd.LooksLoosely(s):
		return KindDataModelMD
	}
	return KindUnknown
}
