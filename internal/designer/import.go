package designer

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// File is one uploaded or named input document.
type File struct {
	Name string
	Data []byte
}

// Import reads one design from the given files, recognising each file's kind from its content, not
// its name. Notes say what could not be placed; the text itself is kept as prose.
func Import(files []File) (Design, []ImportNote, error) {
	if len(files) == 0 {
		return Design{}, nil, invalid("file", "give at least one file")
	}
	if len(files) > 1 {
		return Design{}, nil, invalid("file", "one file makes one design here; %d were given", len(files))
	}
	f := files[0]
	kind := Recognise(f.Data)
	switch kind {
	case KindDesignJSON:
		d, err := ParseJSON(f.Data)
		if err != nil {
			return Design{}, nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		return d, nil, nil
	case KindRequirementsMD:
		d, notes, err := ImportRequirementsMD(f.Data)
		if err != nil {
			return Design{}, nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		return d, notes, nil
	}
	return Design{}, nil, invalid("file", "%q is not a document Dynaloom reads: give a dynamodb_requirement.md or a Dynaloom design-json file", f.Name)
}

// Input kinds Recognise tells apart.
const (
	KindUnknown        = ""
	KindDesignJSON     = "design-json"
	KindRequirementsMD = "requirements-md"
)

// Recognise says what kind of document data is, from its content.
func Recognise(data []byte) string {
	text := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if !utf8.Valid(text) || bytes.IndexByte(text, 0) >= 0 {
		return KindUnknown
	}
	if bytes.HasPrefix(text, []byte("{")) {
		return KindDesignJSON
	}
	lower := bytes.ToLower(text)
	for _, marker := range []string{"access patterns analysis", "dynamodb modeling session", "| pattern #", "application overview"} {
		if bytes.Contains(lower, []byte(marker)) {
			return KindRequirementsMD
		}
	}
	return KindUnknown
}
