// Package verify runs `dynaloom verify` on the gallery examples against dynalite: every read must
// answer as the in-process evaluator does, every write must be taken, and no table may be left.
package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"dynaloom/internal/designer"
	"dynaloom/internal/verify"
	"dynaloom/test/dynalite"
)

const dynaliteCLI = "../oracle/node_modules/dynalite/cli.js"

// need fails under CI and skips elsewhere when a tool is missing.
func need(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI requires it: %s", why)
	}
	t.Skipf("skipped: %s", why)
}

func startDynalite(t *testing.T, ctx context.Context) *dynalite.Dynalite {
	t.Helper()
	node, cli, why := dynalite.Find(dynaliteCLI)
	if why != "" {
		need(t, why+": run npm ci --prefix test/oracle")
	}
	return dynalite.Start(ctx, t, node, cli)
}

func TestVerify_galleryExamplesOnDynalite(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	dyn := startDynalite(t, ctx)
	e := verify.Endpoint{URL: dyn.URL, Region: "us-east-1", Credentials: dyn.SDK.Options().Credentials}
	for _, ex := range designer.Examples() {
		t.Run(ex.ID, func(t *testing.T) {
			d, err := designer.ExampleDesign(ex.ID)
			if err != nil {
				t.Fatal(err)
			}
			prefix := "t-" + ex.ID + "-"
			rep, err := verify.Run(ctx, e, d, prefix)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Removed {
				t.Errorf("cleanup: %s", rep.Cleanup)
			}
			if len(rep.Tables) != len(d.Tables) {
				t.Errorf("created %d tables, the design has %d", len(rep.Tables), len(d.Tables))
			}
			agreed := 0
			for _, r := range rep.Results {
				switch {
				case r.Operation == "TransactWriteItems":
					// dynalite has no transactions; a real endpoint takes them.
					if r.Outcome != verify.Unsupported {
						t.Errorf("%s TransactWriteItems: %s %s, want unsupported on dynalite", r.ID, r.Outcome, r.Detail)
					}
				case r.Operation == "TransactGetItems":
					if r.Outcome != verify.Answered && r.Outcome != verify.Unsupported {
						t.Errorf("%s TransactGetItems: %s %s", r.ID, r.Outcome, r.Detail)
					}
				case isRead(r.Operation):
					if r.Outcome != verify.Agreed {
						t.Errorf("%s %s: %s %s", r.ID, r.Operation, r.Outcome, r.Detail)
					}
					if r.Expected == "not met" {
						t.Errorf("%s %s: expected result not met: %s", r.ID, r.Operation, r.Detail)
					}
					agreed++
				default:
					if r.Outcome != verify.Accepted {
						t.Errorf("%s %s: %s %s", r.ID, r.Operation, r.Outcome, r.Detail)
					}
				}
			}
			if agreed == 0 {
				t.Error("no read was compared")
			}
			left := tablesWithPrefix(t, ctx, dyn, prefix)
			if len(left) > 0 {
				t.Errorf("tables left behind: %v", left)
			}
		})
	}
}

// The command as a user runs it: a gallery design's file, the endpoint, and a report in JSON.
func TestVerify_commandReportsAndExitsZero(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	dyn := startDynalite(t, ctx)
	bin := filepath.Join(t.TempDir(), "dynaloom")
	build := exec.Command("go", "build", "-o", bin, "./cmd/web")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, bin, "verify", "../../internal/designer/examples/hiking-community.json", "--endpoint", dyn.URL, "--format", "json")
	// No credentials in the environment: on loopback the command signs with placeholder ones.
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dynaloom verify: %v\n%s", err, stderr.String())
	}
	var reports []verify.Report
	if err := json.Unmarshal(stdout.Bytes(), &reports); err != nil {
		t.Fatalf("the JSON report: %v\n%s", err, stdout.String())
	}
	if len(reports) != 1 || !reports[0].Removed || len(reports[0].Results) == 0 {
		t.Fatalf("report: %s", stdout.String())
	}
	if !strings.HasPrefix(reports[0].Prefix, "dynaloom-verify-") {
		t.Errorf("default prefix %q", reports[0].Prefix)
	}
	if left := tablesWithPrefix(t, ctx, dyn, "dynaloom-verify-"); len(left) > 0 {
		t.Errorf("tables left behind: %v", left)
	}
}

// A design whose sample items do not return what a pattern expects fails the run: exit 1.
func TestVerify_commandFailsOnAnUnmetExpectation(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	dyn := startDynalite(t, ctx)
	d, err := designer.ExampleDesign("hiking-community")
	if err != nil {
		t.Fatal(err)
	}
	e := verify.Endpoint{URL: dyn.URL, Region: "us-east-1", Credentials: dyn.SDK.Options().Credentials}
	rep, err := verify.Run(ctx, e, d, "before-")
	if err != nil {
		t.Fatal(err)
	}
	met := ""
	for _, r := range rep.Results {
		if r.Expected == "met" {
			met = r.ID
			break
		}
	}
	if met == "" {
		t.Fatal("no read with a met expectation to break")
	}
	// Drop every sample item: the reads still agree with the evaluator (both answer nothing),
	// but the expected items are no longer there.
	for i := range d.Tables {
		d.Tables[i].Items = nil
	}
	rep, err = verify.Run(ctx, e, d, "after-")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.ID == met {
			if !r.Failed() || r.Expected != "not met" {
				t.Errorf("%s without its items: outcome %s, expected %q; want a failure", met, r.Outcome, r.Expected)
			}
			return
		}
	}
	t.Errorf("%s is missing from the second run", met)
}

func isRead(op string) bool {
	switch op {
	case "GetItem", "Query", "Scan", "BatchGetItem":
		return true
	}
	return false
}

func tablesWithPrefix(t *testing.T, ctx context.Context, dyn *dynalite.Dynalite, prefix string) []string {
	t.Helper()
	out, err := dyn.SDK.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, name := range out.TableNames {
		if strings.HasPrefix(name, prefix) {
			left = append(left, name)
		}
	}
	return left
}
