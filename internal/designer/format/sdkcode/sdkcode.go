package sdkcode

import (
	"fmt"
	"strings"
)

// Language is one SDK the requests are written for.
type Language struct {
	ID, Name string
}

// Languages are the SDKs, in the order the Mapping card shows them.
var Languages = []Language{
	{ID: "js", Name: "JavaScript (lib-dynamodb)"},
	{ID: "python", Name: "Python (boto3)"},
	{ID: "go", Name: "Go (aws-sdk-go-v2)"},
}

// Snippet is one request's code in each language, ready to paste.
type Snippet struct {
	ID   string            // the request's: "3", "3a"
	Code map[string]string // by Language.ID
	// Reason, set when there is no code, says why.
	Reason string
}

// Snippets writes each request as a function per language. The JavaScript starts with the import
// it needs; the Go and Python need only their SDK's client.
func Snippets(reqs []Request) []Snippet {
	out := make([]Snippet, 0, len(reqs))
	for _, r := range reqs {
		s := Snippet{ID: r.ID, Reason: r.Reason}
		n, err := requestNode(r)
		if err != nil {
			s.Reason = err.Error()
		}
		if s.Reason == "" {
			js, imports := jsFunction(r, n)
			s.Code = map[string]string{
				"js":     "import { " + strings.Join(imports, ", ") + " } from \"@aws-sdk/lib-dynamodb\";\n\n" + js,
				"python": pyFunction(r, n),
				"go":     goFunction(r, n),
			}
		}
		out = append(out, s)
	}
	return out
}

func requestNode(r Request) (*node, error) {
	if r.Reason != "" {
		return nil, nil
	}
	if _, ok := jsCommands[r.Operation]; !ok {
		return nil, fmt.Errorf("%s is not an operation the SDKs' code is written for", r.Operation)
	}
	return parse(r.Operation, r.Body)
}

// JavaScript writes the ES module of every request's function, for @aws-sdk/lib-dynamodb.
func JavaScript(design string, reqs []Request) ([]byte, error) {
	var fns, imports, table []string
	err := each(reqs, func(r Request, n *node) {
		f, im := jsFunction(r, n)
		fns = append(fns, f)
		imports = append(imports, im...)
		table = append(table, r.ID, jsName(r))
	})
	if err != nil {
		return nil, err
	}
	return jsFile(design, fns, imports, table), nil
}

// Python writes the module of every request's function, for boto3's client.
func Python(design string, reqs []Request) ([]byte, error) {
	var fns, table []string
	err := each(reqs, func(r Request, n *node) {
		fns = append(fns, pyFunction(r, n))
		table = append(table, r.ID, pyName(r))
	})
	if err != nil {
		return nil, err
	}
	return pyFile(design, fns, table), nil
}

// Go writes the package of every request's function, for the AWS SDK for Go v2.
func Go(design string, reqs []Request) ([]byte, error) {
	var fns, table []string
	err := each(reqs, func(r Request, n *node) {
		fns = append(fns, goFunction(r, n))
		table = append(table, r.ID, goName(r))
	})
	if err != nil {
		return nil, err
	}
	return goFile(design, fns, table)
}

// each calls write for every request that can be made, in order.
func each(reqs []Request, write func(Request, *node)) error {
	for _, r := range reqs {
		if r.Reason != "" {
			continue
		}
		n, err := requestNode(r)
		if err != nil {
			return err
		}
		write(r, n)
	}
	return nil
}

// LeftOut names the requests the files have no code for, with why.
func LeftOut(reqs []Request) []string {
	var out []string
	for _, r := range reqs {
		if r.Reason != "" {
			out = append(out, "pattern "+r.ID+": "+oneLineText(r.Reason))
		}
	}
	return out
}
