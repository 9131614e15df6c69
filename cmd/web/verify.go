package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"

	"dynaloom/internal/designer/format"
	"dynaloom/internal/verify"
)

// verifyCommand runs each design's access patterns on a live endpoint (package verify). It exits
// 1 when a read answers otherwise than the evaluator or a request is refused, 2 on a usage error.
func verifyCommand(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("dynaloom verify", flag.ContinueOnError)
	fset.SetOutput(stderr)
	endpoint := fset.String("endpoint", "", "the DynamoDB endpoint, such as http://127.0.0.1:8000 for DynamoDB Local; default: the region's")
	region := fset.String("region", "", "the region to sign for; default: the AWS configuration's, else us-east-1")
	prefix := fset.String("prefix", "", "put before every table name; default: dynaloom-verify-<6 random hex digits>-")
	outFormat := fset.String("format", "text", "output format: text or json")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "Usage: dynaloom verify [--endpoint URL] [--region R] [--prefix P] [--format text|json] FILE|DIR|- ...")
	}
	names, err := parseInterleaved(fset, args)
	if err != nil {
		return flagStatus(err)
	}
	if *outFormat != "text" && *outFormat != "json" {
		fmt.Fprintf(stderr, "dynaloom verify: --format %q: use text or json\n", *outFormat)
		return 2
	}
	designs, err := gatherDesigns(names)
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom verify:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	e, err := endpointFor(ctx, *endpoint, *region)
	if err != nil {
		fmt.Fprintln(stderr, "dynaloom verify:", err)
		return 2
	}
	if *prefix == "" {
		var b [3]byte
		_, _ = rand.Read(b[:])
		*prefix = "dynaloom-verify-" + hex.EncodeToString(b[:]) + "-"
	}
	status := 0
	var reports []verify.Report
	for _, df := range designs {
		d, notes, err := format.Import(df.files)
		if err != nil {
			fmt.Fprintf(stderr, "dynaloom verify: %s: %v\n", df.name, err)
			return 2
		}
		writeNotes(stderr, notes)
		rep, err := verify.Run(ctx, e, d, *prefix)
		if !rep.Removed {
			fmt.Fprintf(stderr, "dynaloom verify: %s: %s\n", df.name, rep.Cleanup)
			status = 1
		}
		if err != nil {
			fmt.Fprintf(stderr, "dynaloom verify: %s: %v\n", df.name, err)
			return 1
		}
		reports = append(reports, rep)
		for _, r := range rep.Results {
			if r.Failed() {
				status = 1
			}
		}
	}
	if *outFormat == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(reports); err != nil {
			fmt.Fprintln(stderr, "dynaloom verify:", err)
			return 2
		}
		return status
	}
	for _, rep := range reports {
		writeVerifyText(stdout, e.URL, rep)
	}
	return status
}

// endpointFor signs with the default credential chain; on a loopback endpoint without
// credentials it signs with placeholder ones, as local emulators take any.
func endpointFor(ctx context.Context, endpoint, region string) (verify.Endpoint, error) {
	var opts []func(*awsconfig.LoadOptions) error
	if verify.Loopback(endpoint) {
		// No instance metadata serves an emulator on this machine; asking for it takes seconds.
		opts = append(opts, awsconfig.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return verify.Endpoint{}, fmt.Errorf("the AWS configuration: %w", err)
	}
	if region == "" {
		region = cfg.Region
	}
	if region == "" {
		region = "us-east-1"
	}
	if endpoint == "" {
		endpoint = "https://dynamodb." + region + ".amazonaws.com"
	}
	creds := cfg.Credentials
	if creds == nil {
		creds = aws.AnonymousCredentials{}
	}
	if _, err := creds.Retrieve(ctx); err != nil {
		if !verify.Loopback(endpoint) {
			return verify.Endpoint{}, fmt.Errorf("no AWS credentials for %s: %w", endpoint, err)
		}
		creds = credentials.NewStaticCredentialsProvider("dynaloom", "dynaloom", "")
	}
	return verify.Endpoint{URL: endpoint, Region: region, Credentials: aws.NewCredentialsCache(creds)}, nil
}

func writeVerifyText(w io.Writer, endpoint string, rep verify.Report) {
	fmt.Fprintf(w, "%s on %s, tables %s*\n", rep.Design, endpoint, rep.Prefix)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	counts := map[verify.Outcome]int{}
	for _, r := range rep.Results {
		counts[r.Outcome]++
		what := string(r.Outcome)
		if r.Outcome == verify.Agreed {
			what = fmt.Sprintf("%s: %s, as the evaluator", what, plural(r.Items, "item"))
			if r.Expected != "" {
				what += "; expected result " + r.Expected
			}
		}
		if r.Detail != "" {
			what += ": " + r.Detail
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.ID, r.Operation, what)
	}
	tw.Flush()
	var parts []string
	for _, o := range []verify.Outcome{verify.Agreed, verify.Accepted, verify.Answered, verify.Differed, verify.Refused, verify.Unsupported, verify.Skipped} {
		if counts[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[o], o))
		}
	}
	removed := "tables removed"
	if !rep.Removed {
		removed = rep.Cleanup
	}
	fmt.Fprintf(w, "  %s; %s\n", strings.Join(parts, ", "), removed)
}
