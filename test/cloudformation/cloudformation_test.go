// Package cloudformation checks the CloudFormation exports with real tools: cfn-lint lints every
// template, and dynalite creates every table a template describes. AWS's cfn-lint (Python) is used
// where it is on PATH; otherwise the npm cfn-lint pinned in package.json
// (`npm ci --prefix test/cloudformation`), an older and weaker linter, and the test says so.
// dynalite comes from test/oracle (`npm ci --prefix test/oracle`).
package cloudformation

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/designertest"
	"dynaloom/internal/designer/format"
	"dynaloom/internal/designer/format/cloudformation"
	"dynaloom/test/dynalite"
)

// designs are the gallery examples and the export tests' designs.
func designs(t *testing.T) map[string]designer.Design {
	t.Helper()
	out := map[string]designer.Design{"orders": designertest.OrdersDesign(), "hr": designertest.HRDesign(t)}
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		out[ex.ID] = d
	}
	return out
}

// templates writes each design's JSON and YAML templates, and the YAML with the SAM transform, to
// dir and returns their paths.
func templates(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	for name, d := range designs(t) {
		for _, id := range []string{"cloudformation-json", "cloudformation-yaml"} {
			f, err := format.FindExportFormat(id)
			if err != nil {
				t.Fatal(err)
			}
			out, err := f.Write(d)
			if err != nil {
				t.Fatalf("%s %s: %v", name, id, err)
			}
			ext := map[string]string{"cloudformation-json": ".json", "cloudformation-yaml": ".yaml"}[id]
			paths = append(paths, write(t, dir, name+ext, out))
			if id == "cloudformation-yaml" {
				sam := bytes.Replace(out, []byte("AWSTemplateFormatVersion:"), []byte("Transform: AWS::Serverless-2016-10-31\nAWSTemplateFormatVersion:"), 1)
				paths = append(paths, write(t, dir, name+".sam.yaml", sam))
			}
		}
	}
	slices.Sort(paths)
	return paths
}

func write(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// linter is the cfn-lint to run: AWS's on PATH, else the npm one.
func linter(t *testing.T) (path string, aws bool) {
	t.Helper()
	if p, err := exec.LookPath("cfn-lint"); err == nil {
		return p, true
	}
	p, _ := filepath.Abs("node_modules/.bin/cfn-lint")
	if _, err := os.Stat(p); err == nil {
		t.Log("AWS's cfn-lint is not on PATH; linting with the npm cfn-lint 1.9.7, which knows fewer rules and no intrinsic functions in properties")
		return p, false
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI requires cfn-lint: install AWS's (pip install cfn-lint) or run npm ci --prefix test/cloudformation")
	}
	t.Skip("no cfn-lint: install AWS's (pip install cfn-lint) or run npm ci --prefix test/cloudformation")
	return "", false
}

// Every template, in JSON, in YAML and as part of a SAM template, lints clean: no error, warning
// or informational finding, I3011 (no DeletionPolicy) included. A template with a wrong key type
// is found wrong, so the linter is seen to read the tables.
func TestCfnLint_everyTemplateIsClean(t *testing.T) {
	lint, aws := linter(t)
	dir := t.TempDir()
	paths := templates(t, dir)
	broken := bytes.Replace(read(t, paths[0]), []byte(`"KeyType": "HASH"`), []byte(`"KeyType": "HASHED"`), -1)
	if !aws {
		broken = bytes.Replace(read(t, paths[0]), []byte(`"KeySchema"`), []byte(`"KeySchemas"`), 1)
	}
	bad := write(t, dir, "broken.json", broken)
	findings := func(paths ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if aws {
			out, _ := exec.CommandContext(ctx, lint, append([]string{"--format", "parseable"}, paths...)...).CombinedOutput()
			return strings.TrimSpace(string(out))
		}
		// The npm cfn-lint refuses intrinsic functions where CloudFormation takes them (Fn::If
		// in ProvisionedThroughput); it lints each template as the parameters' defaults resolve it.
		var all []string
		for _, p := range paths {
			src := read(t, p)
			resolved, err := cloudformation.Resolve(src, nil)
			if err != nil {
				all = append(all, p+": "+err.Error())
				continue
			}
			r := write(t, t.TempDir(), "resolved.json", stack(t, resolved))
			out, _ := exec.CommandContext(ctx, lint, "validate", r).CombinedOutput()
			if !bytes.Contains(out, []byte("Template valid!")) {
				all = append(all, p+": "+string(out))
			}
		}
		return strings.Join(all, "\n")
	}
	if got := findings(paths...); got != "" {
		t.Errorf("cfn-lint finds, in %d templates:\n%s", len(paths), got)
	}
	if findings(bad) == "" {
		t.Error("cfn-lint finds nothing wrong with a template whose key is broken")
	}
	t.Logf("cfn-lint: %d templates clean", len(paths))
}

// stack is a resolved template as the stack is made of it: the conditions worked out, and what
// Ref AWS::NoValue left null removed.
func stack(t *testing.T, resolved []byte) []byte {
	t.Helper()
	var tpl map[string]any
	if err := json.Unmarshal(resolved, &tpl); err != nil {
		t.Fatal(err)
	}
	delete(tpl, "Conditions")
	var prune func(v any)
	prune = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if x == nil {
					delete(v, k)
				} else {
					prune(x)
				}
			}
		case []any:
			for _, x := range v {
				prune(x)
			}
		}
	}
	prune(tpl)
	b, err := json.Marshal(tpl)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// createTable is what CreateTable takes of an AWS::DynamoDB::Table's properties; the rest
// (TimeToLiveSpecification, PointInTimeRecoverySpecification, TableClass) are set by other calls.
type createTable struct {
	TableName              string
	AttributeDefinitions   []json.RawMessage
	KeySchema              []keyElem
	BillingMode            string
	ProvisionedThroughput  *units           `json:",omitempty"`
	GlobalSecondaryIndexes []index          `json:",omitempty"`
	LocalSecondaryIndexes  []index          `json:",omitempty"`
	TimeToLive             *json.RawMessage `json:"TimeToLiveSpecification,omitempty"`
}

type keyElem struct{ AttributeName, KeyType string }

type units struct{ ReadCapacityUnits, WriteCapacityUnits int64 }

type index struct {
	IndexName  string
	KeySchema  []keyElem
	Projection struct {
		ProjectionType   string
		NonKeyAttributes []string `json:",omitempty"`
	}
	ProvisionedThroughput *units `json:",omitempty"`
}

// Every table of every template, as a stack with the parameters' defaults would create it, is
// created by dynalite through CreateTable, and DescribeTable gives back its keys, indexes,
// projections and billing. dynalite 4.0.0 has no multi-attribute GSI keys (DynamoDB added them
// in November 2025): such a table is logged and not created.
func TestDynalite_createsEveryTemplatesTables(t *testing.T) {
	node, cli, why := dynalite.Find("../oracle/node_modules/dynalite/cli.js")
	if why != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI requires dynalite (%s): run npm ci --prefix test/oracle", why)
		}
		t.Skipf("dynalite not available (%s); run npm ci --prefix test/oracle", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	dyn := dynalite.Start(ctx, t, node, cli)
	f, err := format.FindExportFormat("cloudformation-yaml")
	if err != nil {
		t.Fatal(err)
	}
	created := 0
	for name, d := range designs(t) {
		out, err := f.Write(d)
		if err != nil {
			t.Fatal(err)
		}
		resolved, err := cloudformation.Resolve(out, map[string]any{"NamePrefix": name + "-"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var tpl struct {
			Resources map[string]struct {
				Type       string
				Properties createTable
			}
		}
		if err := json.Unmarshal(resolved, &tpl); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for id, r := range tpl.Resources {
			want := r.Properties
			if !strings.HasPrefix(want.TableName, name+"-") {
				t.Errorf("%s %s: table name %q has no NamePrefix", name, id, want.TableName)
			}
			if multiAttribute(want) {
				t.Logf("%s: %s has a multi-attribute GSI key, which dynalite 4.0.0 cannot create; not sent", name, want.TableName)
				continue
			}
			ttl := want.TimeToLive
			want.TimeToLive = nil
			body, _ := json.Marshal(want)
			if status, resp, err := dyn.Call(ctx, "CreateTable", body); err != nil || status != http.StatusOK {
				t.Errorf("%s: CreateTable %s: %d %v %s\n%s", name, want.TableName, status, err, resp, body)
				continue
			}
			created++
			_, resp, err := dyn.Call(ctx, "DescribeTable", []byte(`{"TableName":`+quote(want.TableName)+`}`))
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ Table described }
			if err := json.Unmarshal(resp, &got); err != nil {
				t.Fatal(err)
			}
			if g, w := got.Table.shape(), describedOf(want).shape(); !reflect.DeepEqual(g, w) {
				t.Errorf("%s: dynalite describes %s as\n%+v\nthe template says\n%+v", name, want.TableName, g, w)
			}
			if ttl != nil {
				body := `{"TableName":` + quote(want.TableName) + `,"TimeToLiveSpecification":` + string(*ttl) + `}`
				if status, resp, err := dyn.Call(ctx, "UpdateTimeToLive", []byte(body)); err != nil || status != http.StatusOK {
					t.Logf("%s: UpdateTimeToLive %s: %d %s (dynalite 4.0.0 has no TTL; the template's is checked by cfn-lint)", name, want.TableName, status, resp)
				}
			}
		}
	}
	if created == 0 {
		t.Fatal("no table was created")
	}
	t.Logf("dynalite created %d tables", created)
}

func multiAttribute(c createTable) bool {
	for _, g := range c.GlobalSecondaryIndexes {
		hash := 0
		for _, k := range g.KeySchema {
			if k.KeyType == "HASH" {
				hash++
			}
		}
		if hash > 1 || len(g.KeySchema)-hash > 1 {
			return true
		}
	}
	return false
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// described is what DescribeTable gives of what the template set.
type described struct {
	KeySchema              []keyElem
	BillingModeSummary     *struct{ BillingMode string }
	ProvisionedThroughput  *units
	GlobalSecondaryIndexes []index
	LocalSecondaryIndexes  []index
}

func describedOf(c createTable) described {
	d := described{KeySchema: c.KeySchema, GlobalSecondaryIndexes: c.GlobalSecondaryIndexes, LocalSecondaryIndexes: c.LocalSecondaryIndexes,
		ProvisionedThroughput: c.ProvisionedThroughput}
	d.BillingModeSummary = &struct{ BillingMode string }{c.BillingMode}
	return d
}

// shape is the table as both sides write it: on-demand has no units, index lists sorted by name.
func (d described) shape() described {
	if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode == "" {
		d.BillingModeSummary = &struct{ BillingMode string }{"PROVISIONED"}
	}
	if d.BillingModeSummary.BillingMode == "PAY_PER_REQUEST" {
		d.ProvisionedThroughput = nil
	}
	onDemand := d.BillingModeSummary.BillingMode == "PAY_PER_REQUEST"
	for _, ixs := range []*[]index{&d.GlobalSecondaryIndexes, &d.LocalSecondaryIndexes} {
		*ixs = slices.Clone(*ixs)
		for i := range *ixs {
			if onDemand || ixs == &d.LocalSecondaryIndexes {
				(*ixs)[i].ProvisionedThroughput = nil
			}
		}
		slices.SortFunc(*ixs, func(a, b index) int { return strings.Compare(a.IndexName, b.IndexName) })
		if len(*ixs) == 0 {
			*ixs = nil
		}
	}
	return d
}
