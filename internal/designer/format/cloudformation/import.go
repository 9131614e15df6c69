package cloudformation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/awslabs/goformation/v7/intrinsics"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/format/tabledef"
)

// The resource types a template's tables are.
const (
	tableType       = "AWS::DynamoDB::Table"
	globalTableType = "AWS::DynamoDB::GlobalTable"
)

// Looks reports whether text is a CloudFormation (or SAM) template with a DynamoDB table: JSON or
// YAML that names AWSTemplateFormatVersion, or a Resources section with such a table.
func Looks(text []byte) bool {
	if !bytes.Contains(text, []byte("AWSTemplateFormatVersion")) && !bytes.Contains(text, []byte("AWS::DynamoDB::")) {
		return false
	}
	top, err := process(text)
	if err != nil {
		return false
	}
	if _, ok := top["AWSTemplateFormatVersion"]; ok {
		return true
	}
	var res map[string]struct{ Type string }
	if json.Unmarshal(top["Resources"], &res) != nil {
		return false
	}
	for _, r := range res {
		if r.Type == tableType || r.Type == globalTableType {
			return true
		}
	}
	return false
}

// process reads a template through goformation's intrinsics processor, which is how goformation
// parses one: YAML (short tags such as !Sub included) becomes JSON, and Ref, Fn::Sub, Fn::If and
// the conditions are worked out from the parameters' defaults, as a stack created with the
// defaults has them.
func process(text []byte) (top map[string]json.RawMessage, err error) {
	// goformation's processor assumes a well-formed template and panics on some others (a
	// resource without Properties); such a file is not a template it can read.
	defer func() {
		if r := recover(); r != nil {
			top, err = nil, fmt.Errorf("goformation cannot process it: %v", r)
		}
	}()
	out, err := Resolve(text, nil)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(out, &top); err != nil {
		return nil, err
	}
	if top == nil {
		return nil, fmt.Errorf("the template is not an object")
	}
	return top, nil
}

// resolving serializes goformation's processor: ProcessYAML registers its tag resolvers in a
// package map on every call, so two imports at once race on it.
var resolving sync.Mutex

// Resolve runs a template, JSON or YAML, through goformation's intrinsics processor with its
// conditions evaluated, from the parameters' defaults and the overrides, and returns it as JSON.
func Resolve(text []byte, overrides map[string]any) ([]byte, error) {
	text = bytes.TrimSpace(bytes.TrimPrefix(text, []byte("\xef\xbb\xbf")))
	run := intrinsics.ProcessYAML
	if bytes.HasPrefix(text, []byte("{")) {
		run = intrinsics.ProcessJSON
	}
	resolving.Lock()
	defer resolving.Unlock()
	return run(text, &intrinsics.ProcessorOptions{ParameterOverrides: overrides, EvaluateConditions: true})
}

// Import reads the DynamoDB tables of a CloudFormation template (JSON or YAML) as a design: each
// AWS::DynamoDB::Table and AWS::DynamoDB::GlobalTable with its keys, attribute types, indexes
// and projections, TTL, billing mode, units and table class. Notes list what the design does not
// hold: other resources, and each table property it has no field for.
func Import(data []byte) (designer.Design, []designer.ImportNote, error) {
	top, err := process(data)
	if err != nil {
		return designer.Design{}, nil, designer.Invalid("file", "is not a CloudFormation template goformation can read: %v", err)
	}
	var notes []designer.ImportNote
	note := func(format string, args ...any) {
		notes = append(notes, designer.ImportNote{Message: fmt.Sprintf(format, args...)})
	}
	var resources map[string]struct {
		Type       string
		Properties map[string]json.RawMessage
	}
	if err := json.Unmarshal(top["Resources"], &resources); err != nil || len(resources) == 0 {
		return designer.Design{}, nil, designer.Invalid("Resources", "the template has no resources to read tables from")
	}
	ids := make([]string, 0, len(resources))
	for id := range resources {
		ids = append(ids, id)
	}
	slices.Sort(ids) // a template's resources have no order; the design's tables are sorted by id
	d := designer.Design{Name: designName(top["Description"])}
	others := map[string]int{}
	for _, id := range ids {
		r := resources[id]
		if r.Type != tableType && r.Type != globalTableType {
			others[r.Type]++
			continue
		}
		t, tnotes, err := table("Resources/"+id+"/Properties", id, r.Type, r.Properties)
		if err != nil {
			return designer.Design{}, nil, err
		}
		for _, n := range tnotes {
			note("%s", n)
		}
		d.Tables = append(d.Tables, t)
	}
	if len(d.Tables) == 0 {
		return designer.Design{}, nil, designer.Invalid("Resources", "the template has no %s or %s resource", tableType, globalTableType)
	}
	types := make([]string, 0, len(others))
	for typ := range others {
		types = append(types, typ)
	}
	slices.Sort(types)
	for _, typ := range types {
		note("%d %s %s left out: a design holds DynamoDB tables only", others[typ], typ, map[bool]string{true: "resource was", false: "resources were"}[others[typ] == 1])
	}
	d = designer.Normalize(d)
	if err := designer.Check(d); err != nil {
		return designer.Design{}, nil, fmt.Errorf("import CloudFormation template: %w", err)
	}
	return d, notes, nil
}

// known are the table properties a design holds, read by table; each other property is noted.
var known = map[string]bool{"TableName": true, "AttributeDefinitions": true, "KeySchema": true, "BillingMode": true,
	"ProvisionedThroughput": true, "GlobalSecondaryIndexes": true, "LocalSecondaryIndexes": true,
	"TimeToLiveSpecification": true, "TableClass": true}

// table reads one table resource's properties at p; id names the table when the template leaves
// its name to CloudFormation.
func table(p, id, typ string, props map[string]json.RawMessage) (designer.Table, []string, error) {
	var notes []string
	if props == nil {
		return designer.Table{}, nil, designer.Invalid(p, "is missing; a table needs its KeySchema and AttributeDefinitions")
	}
	var name string
	if raw, ok := props["TableName"]; ok && json.Unmarshal(raw, &name) != nil {
		return designer.Table{}, nil, designer.Invalid(p+"/TableName", "is not a name this template's parameters' defaults resolve: %s", raw)
	}
	if name == "" {
		name = id
		notes = append(notes, fmt.Sprintf("table %s has no TableName, so CloudFormation names it; the design calls it by its logical id", id))
	}
	props["TableName"], _ = json.Marshal(name)
	if typ == globalTableType {
		notes = append(notes, globalTable(name, props)...)
	}
	raw, _ := json.Marshal(pick(props, known))
	var def tabledef.Table
	if err := json.Unmarshal(raw, &def); err != nil {
		return designer.Table{}, nil, designer.Invalid(p, "is not a table definition Dynaloom reads: %v", err)
	}
	t, tnotes, err := tabledef.DesignTable(p, def)
	if err != nil {
		return designer.Table{}, nil, err
	}
	notes = append(notes, tnotes...)
	var rest []string
	for k := range props {
		if !known[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	if len(rest) > 0 {
		notes = append(notes, fmt.Sprintf("table %s: %s left out; the design has no place for %s", name, strings.Join(rest, ", "),
			map[bool]string{true: "it", false: "them"}[len(rest) == 1]))
	}
	return t, notes, nil
}

// globalTable turns a global table's properties into a table's: its write units, and each GSI's,
// are under WriteProvisionedThroughputSettings, and its read units per replica.
func globalTable(name string, props map[string]json.RawMessage) []string {
	var notes []string
	var replicas []json.RawMessage
	if json.Unmarshal(props["Replicas"], &replicas) == nil && len(replicas) > 0 {
		notes = append(notes, fmt.Sprintf("global table %s: %d replicas left out; the design is of one table", name, len(replicas)))
	}
	delete(props, "Replicas")
	if _, ok := props["WriteProvisionedThroughputSettings"]; ok {
		notes = append(notes, fmt.Sprintf("global table %s: its provisioned write autoscaling is left out; set the table's units on the Capacity step", name))
		delete(props, "WriteProvisionedThroughputSettings")
	}
	var gsis []map[string]json.RawMessage
	if json.Unmarshal(props["GlobalSecondaryIndexes"], &gsis) == nil {
		for _, g := range gsis {
			delete(g, "WriteProvisionedThroughputSettings")
		}
		props["GlobalSecondaryIndexes"], _ = json.Marshal(gsis)
	}
	return notes
}

func pick(m map[string]json.RawMessage, keys map[string]bool) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range m {
		if keys[k] {
			out[k] = v
		}
	}
	return out
}

// designName is the name the export put in the description (“Orders”), or the description's
// first line, or a name saying where the design came from.
func designName(raw json.RawMessage) string {
	var desc string
	_ = json.Unmarshal(raw, &desc) // no description, or not text: no name from it
	if i := strings.Index(desc, "“"); i >= 0 && strings.HasSuffix(desc, "”") && strings.HasPrefix(desc, "Amazon DynamoDB tables of the Dynaloom design") {
		desc = strings.TrimSuffix(desc[i+len("“"):], "”")
	}
	desc, _, _ = strings.Cut(strings.TrimSpace(desc), "\n")
	if n, err := designer.CleanName("name", desc); err == nil {
		return n
	}
	if utf8.RuneCountInString(desc) > designer.MaxNameLen {
		return string([]rune(desc)[:designer.MaxNameLen-1]) + "…"
	}
	return "Imported CloudFormation template"
}
