package mcpmodel

import (
	"encoding/json"
	"strconv"
	"strings"

	"dynaloom/internal/designer"
)

// Request is one DynamoDB API request a pattern's mapping makes: what the model's "aws dynamodb"
// command sends, for the code that sends it itself (code per pattern, live verification).
type Request struct {
	Pattern   int    // the pattern's number
	ID        string // the model's entry: "3", or "3a", "3b", … when the pattern makes several
	Operation string // the API action: GetItem, Query, BatchWriteItem, …
	Tables    []string
	Index     string
	// Body is the request as DynamoDB's JSON API takes it, values in DynamoDB JSON; nil when
	// Reason says why no request can be made.
	Body   json.RawMessage
	Reason string
	// Command is the same request as the model's "aws dynamodb" command line; empty with Body.
	Command string
}

// Requests lists every pattern's requests in the order of the model's access patterns; a pattern
// with no operation mapped makes none.
func Requests(d designer.Design) []Request {
	var out []Request
	for i := range d.Patterns {
		out = append(out, PatternRequests(d, i)...)
	}
	return out
}

// PatternRequests are the requests of the design's i-th pattern alone, as Requests lists them.
func PatternRequests(d designer.Design, i int) []Request {
	p := d.Patterns[i]
	cmds := patternCommands(d, "access_patterns/"+strconv.Itoa(i), p.Mapping.Operations)
	out := make([]Request, 0, len(cmds))
	for k, c := range cmds {
		r := Request{Pattern: p.Number, ID: strconv.Itoa(p.Number), Operation: c.op, Tables: c.tables,
			Index: c.index, Reason: c.reason}
		if len(cmds) > 1 {
			r.ID += letterSuffix(k)
		}
		if c.reason == "" {
			r.Body = c.words.request()
			r.Command = c.words.String()
		}
		out = append(out, r)
	}
	return out
}

// jsonFlags are the flags whose value the AWS CLI reads as a JSON structure.
var jsonFlags = map[string]bool{"--key": true, "--item": true, "--expression-attribute-names": true,
	"--expression-attribute-values": true, "--request-items": true, "--transact-items": true}

// request is the body the AWS CLI sends for the command: each --flag-name is the member
// FlagName; the flags above are JSON, --limit a number, and the two switches booleans.
func (c cliCommand) request() json.RawMessage {
	body := map[string]any{}
	for i := 3; i < len(c); i++ {
		switch w := c[i]; w {
		case "--no-scan-index-forward":
			body["ScanIndexForward"] = false
		case "--consistent-read":
			body["ConsistentRead"] = true
		default:
			i++
			member := memberName(w)
			switch {
			case jsonFlags[w]:
				body[member] = json.RawMessage(c[i])
			case w == "--limit":
				n, _ := strconv.Atoi(c[i]) // written from an int
				body[member] = n
			default:
				body[member] = c[i]
			}
		}
	}
	b, _ := json.Marshal(body) // strings, ints and JSON this package encoded
	return b
}

// memberName turns a CLI flag (--table-name) into its API member (TableName).
func memberName(flag string) string {
	var b strings.Builder
	for _, part := range strings.Split(strings.TrimPrefix(flag, "--"), "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}
