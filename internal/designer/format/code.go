package format

import (
	"fmt"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/mcpmodel"
	"dynaloom/internal/designer/format/sdkcode"
)

// codeRequests are the design's requests, as the mcp-model-json export makes them, for the code
// writers.
func codeRequests(d designer.Design) []sdkcode.Request {
	return asCodeRequests(d, mcpmodel.Requests(d))
}

func asCodeRequests(d designer.Design, reqs []mcpmodel.Request) []sdkcode.Request {
	descriptions := map[int]string{}
	for _, p := range d.Patterns {
		descriptions[p.Number] = p.Description
	}
	out := make([]sdkcode.Request, len(reqs))
	for i, r := range reqs {
		out[i] = sdkcode.Request{Pattern: r.Pattern, ID: r.ID, Description: descriptions[r.Pattern],
			Operation: r.Operation, Tables: r.Tables, Index: r.Index, Body: r.Body, Reason: r.Reason}
	}
	return out
}

// PatternCode is the code of the requests of the design's i-th pattern in each SDK, with the AWS
// CLI command ("cli") beside them: what its Mapping card shows.
func PatternCode(d designer.Design, i int) []sdkcode.Snippet {
	reqs := mcpmodel.PatternRequests(d, i)
	snippets := sdkcode.Snippets(asCodeRequests(d, reqs))
	for k := range snippets {
		if snippets[k].Code != nil {
			snippets[k].Code["cli"] = reqs[k].Command
		}
	}
	return snippets
}

// codeLeftOut names the patterns a code file has no function for: those with no operation
// mapped, and requests that cannot be made.
func codeLeftOut(d designer.Design) []string {
	unmapped := 0
	for _, p := range d.Patterns {
		if len(p.Mapping.Operations) == 0 {
			unmapped++
		}
	}
	var out []string
	if unmapped > 0 {
		out = append(out, fmt.Sprintf("%d access %s with no operation mapped", unmapped, plural(unmapped, "pattern", "patterns")))
	}
	return append(out, sdkcode.LeftOut(codeRequests(d))...)
}

func codeWriter(write func(string, []sdkcode.Request) ([]byte, error)) func(designer.Design) ([]byte, error) {
	return func(d designer.Design) ([]byte, error) { return write(d.Name, codeRequests(d)) }
}
