// Package cdk synthesizes the cdk-ts export with the real AWS CDK and compares the template with
// the cloudformation-json export. aws-cdk-lib, constructs, aws-cdk (the cdk CLI), typescript and
// ts-node are pinned in package.json; install them with `npm ci --prefix test/cdk`.
package cdk

import (
	"context"
	"encoding/json"
	"fmt"
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
	"dynaloom/internal/designer/format/cdkts"
	"dynaloom/internal/designer/format/cloudformation"
)

// table is what both templates must agree on, written the same way for both.
type table struct {
	Keys       []string // "name HASH", "name RANGE"
	Attributes []string // "name S", sorted
	GSIs       []index
	LSIs       []index
	TTL        string
	Billing    string
	Read       int64
	Write      int64
	Class      string
}

type index struct {
	Name       string
	Keys       []string
	Projection string
	NonKey     []string
	Read       int64
	Write      int64
}

type keyElem struct{ AttributeName, KeyType string }

type attrDef struct{ AttributeName, AttributeType string }

func keys(ks []keyElem) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.AttributeName+" "+k.KeyType)
	}
	return out
}

func attrs(as []attrDef) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.AttributeName+" "+a.AttributeType)
	}
	slices.Sort(out)
	return out
}

type projection struct {
	ProjectionType   string
	NonKeyAttributes []string
}

type ttlSpec struct {
	AttributeName string
	Enabled       bool
}

// cfnTables reads the cloudformation-json export's AWS::DynamoDB::Table resources by table name.
func cfnTables(t *testing.T, d designer.Design) map[string]table {
	t.Helper()
	f, err := format.FindExportFormat("cloudformation-json")
	if err != nil {
		t.Fatal(err)
	}
	src, err := f.Write(d)
	if err != nil {
		t.Fatal(err)
	}
	// The template as a stack created with the parameters' defaults has it: the table names,
	// billing modes and units worked out of their intrinsic functions by goformation.
	if src, err = cloudformation.Resolve(src, nil); err != nil {
		t.Fatal(err)
	}
	var tpl struct {
		Resources map[string]struct {
			Type       string
			Properties struct {
				TableName               string
				KeySchema               []keyElem
				AttributeDefinitions    []attrDef
				BillingMode             string
				TableClass              string
				ProvisionedThroughput   *struct{ ReadCapacityUnits, WriteCapacityUnits int64 }
				TimeToLiveSpecification *ttlSpec
				GlobalSecondaryIndexes  []struct {
					IndexName             string
					KeySchema             []keyElem
					Projection            projection
					ProvisionedThroughput *struct{ ReadCapacityUnits, WriteCapacityUnits int64 }
				}
				LocalSecondaryIndexes []struct {
					IndexName  string
					KeySchema  []keyElem
					Projection projection
				}
			}
		}
	}
	if err := json.Unmarshal(src, &tpl); err != nil {
		t.Fatalf("the CloudFormation export is not the template this test reads: %v", err)
	}
	out := map[string]table{}
	for _, r := range tpl.Resources {
		if r.Type != "AWS::DynamoDB::Table" {
			continue
		}
		p := r.Properties
		tb := table{Keys: keys(p.KeySchema), Attributes: attrs(p.AttributeDefinitions), Billing: p.BillingMode, Class: p.TableClass}
		if p.ProvisionedThroughput != nil {
			tb.Read, tb.Write = p.ProvisionedThroughput.ReadCapacityUnits, p.ProvisionedThroughput.WriteCapacityUnits
		}
		if p.TimeToLiveSpecification != nil && p.TimeToLiveSpecification.Enabled {
			tb.TTL = p.TimeToLiveSpecification.AttributeName
		}
		for _, g := range p.GlobalSecondaryIndexes {
			ix := index{Name: g.IndexName, Keys: keys(g.KeySchema), Projection: g.Projection.ProjectionType, NonKey: g.Projection.NonKeyAttributes}
			if g.ProvisionedThroughput != nil {
				ix.Read, ix.Write = g.ProvisionedThroughput.ReadCapacityUnits, g.ProvisionedThroughput.WriteCapacityUnits
			}
			tb.GSIs = append(tb.GSIs, ix)
		}
		for _, l := range p.LocalSecondaryIndexes {
			tb.LSIs = append(tb.LSIs, index{Name: l.IndexName, Keys: keys(l.KeySchema), Projection: l.Projection.ProjectionType, NonKey: l.Projection.NonKeyAttributes})
		}
		out[p.TableName] = tb
	}
	return out
}

type autoscaled struct {
	WriteCapacityAutoScalingSettings *struct{ MinCapacity, MaxCapacity int64 }
}

// pinned reads write units that TableV2 writes as autoscaling between the same minimum and
// maximum; anything else is -1, which no design's units equal.
func pinned(a *autoscaled) int64 {
	if a == nil || a.WriteCapacityAutoScalingSettings == nil {
		return 0
	}
	if s := a.WriteCapacityAutoScalingSettings; s.MinCapacity == s.MaxCapacity {
		return s.MinCapacity
	}
	return -1
}

// globalTables reads a synthesized template's AWS::DynamoDB::GlobalTable resources by table
// name, mapping the single replica's read units, class and the write autoscaling back.
func globalTables(t *testing.T, path string) map[string]table {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type read struct{ ReadCapacityUnits int64 }
	var tpl struct {
		Resources map[string]struct {
			Type           string
			DeletionPolicy string
			Properties     struct {
				TableName                          string
				KeySchema                          []keyElem
				AttributeDefinitions               []attrDef
				BillingMode                        string
				TimeToLiveSpecification            *ttlSpec
				WriteProvisionedThroughputSettings *autoscaled
				GlobalSecondaryIndexes             []struct {
					IndexName                          string
					KeySchema                          []keyElem
					Projection                         projection
					WriteProvisionedThroughputSettings *autoscaled
				}
				LocalSecondaryIndexes []struct {
					IndexName  string
					KeySchema  []keyElem
					Projection projection
				}
				Replicas []struct {
					TableClass                        string
					ReadProvisionedThroughputSettings *read
					GlobalSecondaryIndexes            []struct {
						IndexName                         string
						ReadProvisionedThroughputSettings *read
					}
				}
			}
		}
	}
	if err := json.Unmarshal(src, &tpl); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]table{}
	for id, r := range tpl.Resources {
		if r.Type != "AWS::DynamoDB::GlobalTable" {
			continue
		}
		if r.DeletionPolicy != "Retain" {
			t.Errorf("%s: DeletionPolicy %q, want Retain", id, r.DeletionPolicy)
		}
		p := r.Properties
		if len(p.Replicas) != 1 {
			t.Fatalf("%s has %d replicas, want the stack's region alone", id, len(p.Replicas))
		}
		rep := p.Replicas[0]
		tb := table{Keys: keys(p.KeySchema), Attributes: attrs(p.AttributeDefinitions), Billing: p.BillingMode, Write: pinned(p.WriteProvisionedThroughputSettings)}
		tb.Class = rep.TableClass
		if rep.ReadProvisionedThroughputSettings != nil {
			tb.Read = rep.ReadProvisionedThroughputSettings.ReadCapacityUnits
		}
		if p.TimeToLiveSpecification != nil && p.TimeToLiveSpecification.Enabled {
			tb.TTL = p.TimeToLiveSpecification.AttributeName
		}
		for _, g := range p.GlobalSecondaryIndexes {
			ix := index{Name: g.IndexName, Keys: keys(g.KeySchema), Projection: g.Projection.ProjectionType, NonKey: g.Projection.NonKeyAttributes, Write: pinned(g.WriteProvisionedThroughputSettings)}
			for _, rg := range rep.GlobalSecondaryIndexes {
				if rg.IndexName == g.IndexName && rg.ReadProvisionedThroughputSettings != nil {
					ix.Read = rg.ReadProvisionedThroughputSettings.ReadCapacityUnits
				}
			}
			tb.GSIs = append(tb.GSIs, ix)
		}
		for _, l := range p.LocalSecondaryIndexes {
			tb.LSIs = append(tb.LSIs, index{Name: l.IndexName, Keys: keys(l.KeySchema), Projection: l.Projection.ProjectionType, NonKey: l.Projection.NonKeyAttributes})
		}
		out[p.TableName] = tb
	}
	return out
}

func TestCDK_synthesizedTablesAreTheCloudFormationExport(t *testing.T) {
	dir, _ := filepath.Abs("node_modules")
	cli := filepath.Join(dir, ".bin", "cdk")
	if _, err := exec.LookPath("node"); err != nil {
		cli = ""
	}
	if _, err := os.Stat(cli); cli == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI requires node and the CDK (%s): run npm ci --prefix test/cdk", cli)
		}
		t.Skipf("node or the CDK is not installed (%s): run npm ci --prefix test/cdk", cli)
	}

	type named struct {
		stack  string
		design designer.Design
	}
	var designs []named
	for _, ex := range designer.Examples() {
		d, err := designer.ExampleDesign(ex.ID)
		if err != nil {
			t.Fatal(err)
		}
		stack := "Example"
		for _, w := range strings.Split(ex.ID, "-") {
			stack += strings.ToUpper(w[:1]) + w[1:]
		}
		designs = append(designs, named{stack, d})
	}
	ia := designertest.OrdersDesign()
	ia.Tables[1].TableClass = designer.StandardIAClass
	designs = append(designs, named{"Orders", ia}, named{"HR", designertest.HRDesign(t)})

	// One app holds every stack, so cdk synth (and its TypeScript check) runs once.
	app := t.TempDir()
	if err := os.Symlink(dir, filepath.Join(app, "node_modules")); err != nil {
		t.Fatal(err)
	}
	main := []string{"import * as cdk from 'aws-cdk-lib';"}
	body := []string{"const app = new cdk.App();"}
	for i, n := range designs {
		src, err := cdkts.Export(n.design)
		if err != nil {
			t.Fatalf("%s: %v", n.stack, err)
		}
		if err := os.MkdirAll(filepath.Join(app, "stacks", n.stack), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(app, "stacks", n.stack, "dynamodb-stack.ts"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		main = append(main, fmt.Sprintf("import { %s as S%d } from './stacks/%s/dynamodb-stack';", cdkts.StackClass, i, n.stack))
		body = append(body, fmt.Sprintf("new S%d(app, '%s');", i, n.stack))
	}
	files := map[string]string{
		"app.ts":   strings.Join(append(main, body...), "\n") + "\n",
		"cdk.json": `{"app": "node_modules/.bin/ts-node app.ts"}`,
		// ts-node type-checks the app: a property TableV2 does not have fails here, not silently.
		"tsconfig.json": `{"compilerOptions": {"target": "ES2022", "module": "commonjs", "strict": true, "noEmit": true, "skipLibCheck": true, "types": []}}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(app, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, "synth", "--no-notices", "--no-version-reporting", "-q", "-o", "cdk.out")
	cmd.Dir = app
	cmd.Env = append(os.Environ(), "CDK_DISABLE_CLI_TELEMETRY=true")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cdk synth: %v\n%s", err, out)
	}
	t.Logf("cdk synth of %d stacks took %v", len(designs), time.Since(start).Round(time.Second))

	compared := 0
	for _, n := range designs {
		got := globalTables(t, filepath.Join(app, "cdk.out", n.stack+".template.json"))
		want := cfnTables(t, n.design)
		for name, w := range want {
			g, ok := got[name]
			if !ok {
				t.Errorf("%s: no GlobalTable for table %s", n.stack, name)
				continue
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s: table %s synthesizes as\n%+v\nthe CloudFormation export has\n%+v", n.stack, name, g, w)
			}
			compared++
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d GlobalTables for %d tables", n.stack, len(got), len(want))
		}
	}
	t.Logf("compared %d tables of %d designs", compared, len(designs))
}
