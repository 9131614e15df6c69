// Package dynalite starts dynalite, a Node.js implementation of DynamoDB that is tested against the
// live service, on a loopback port for a test, and loads a design's tables and sample items into it.
// The oracle test compares the evaluator's answers with its answers; the load test times it as the
// anchor of edit → verdict. dynalite is pinned in test/oracle/package.json; install it with
// `npm ci --prefix test/oracle`.
package dynalite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynaloom/internal/designer"
)

// Find looks for node on PATH and for dynalite's command-line entry point at cli, a path relative
// to the test's directory; why says what is missing.
func Find(cli string) (node, abs, why string) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", "", "node is not on PATH"
	}
	abs, err = filepath.Abs(cli)
	if err != nil {
		return "", "", err.Error()
	}
	if _, err := os.Stat(abs); err != nil {
		return "", "", abs + " is missing"
	}
	return node, abs, ""
}

// Dynalite is a running dynalite: its URL, an SDK client for setting it up and an HTTP client for
// sending raw read requests.
type Dynalite struct {
	URL  string
	SDK  *dynamodb.Client
	HTTP *http.Client
}

// Start starts dynalite on a free 127.0.0.1 port with in-memory storage, waits until it
// answers and stops it when the test ends. A port taken between choosing and binding it is retried.
func Start(ctx context.Context, t testing.TB, node, cli string) *Dynalite {
	t.Helper()
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatalf("choosing a port: %v", err)
		}
		logPath := filepath.Join(t.TempDir(), "dynalite.log")
		logFile, err := os.Create(logPath)
		if err != nil {
			t.Fatal(err)
		}
		// No --path: dynalite keeps everything in memory. Tables become ACTIVE at once.
		cmd := exec.CommandContext(ctx, node, cli, "--host", "127.0.0.1", "--port", strconv.Itoa(port),
			"--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0")
		cmd.Stdout, cmd.Stderr = logFile, logFile
		cmd.WaitDelay = 5 * time.Second
		if err := cmd.Start(); err != nil {
			logFile.Close()
			t.Fatalf("starting dynalite: %v", err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); logFile.Close(); close(exited) }()
		stop := func() {
			_ = cmd.Process.Kill()
			<-exited
		}
		d := newDynalite(fmt.Sprintf("http://127.0.0.1:%d", port))
		if err := d.waitReady(ctx, exited); err != nil {
			stop()
			out, _ := os.ReadFile(logPath)
			lastErr = fmt.Errorf("%v; dynalite said: %s", err, out)
			continue
		}
		t.Cleanup(stop)
		return d
	}
	t.Fatalf("dynalite did not start: %v", lastErr)
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func newDynalite(url string) *Dynalite {
	cfg := aws.Config{
		Region: "us-east-1",
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "oracle", SecretAccessKey: "oracle", Source: "oracle"}, nil
		}),
		RetryMaxAttempts: 1,
	}
	return &Dynalite{
		URL:  url,
		SDK:  dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(url) }),
		HTTP: &http.Client{Timeout: 30 * time.Second},
	}
}

func (d *Dynalite) waitReady(ctx context.Context, exited <-chan struct{}) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, _, err := d.Call(ctx, "ListTables", []byte(`{}`))
		if err == nil && status == http.StatusOK {
			return nil
		}
		select {
		case <-exited:
			return errors.New("dynalite exited")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("dynalite did not answer within 20s (last: %d %v)", status, err)
		}
	}
}

// Call sends one raw DynamoDB JSON request. dynalite wants a SigV4-shaped Authorization header and
// a date but does not check the signature.
func (d *Dynalite) Call(ctx context.Context, op string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL+"/", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	now := time.Now().UTC()
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	req.Header.Set("X-Amz-Date", now.Format("20060102T150405Z"))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=oracle/"+now.Format("20060102")+
		"/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0")
	resp, err := d.HTTP.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// Load creates the design's tables in dynalite through the SDK and puts every sample item.
func Load(ctx context.Context, t testing.TB, d *Dynalite, des designer.Design) {
	t.Helper()
	for _, tbl := range des.Tables {
		in, err := CreateTableInput(tbl)
		if err != nil {
			t.Fatalf("table %s: %v", tbl.Name, err)
		}
		if _, err := d.SDK.CreateTable(ctx, in); err != nil {
			t.Fatalf("CreateTable %s: %v", tbl.Name, err)
		}
		// Even with --createTableMs 0 a table is CREATING until dynalite's next tick.
		for {
			out, err := d.SDK.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(tbl.Name)})
			if err != nil {
				t.Fatalf("DescribeTable %s: %v", tbl.Name, err)
			}
			if out.Table.TableStatus == types.TableStatusActive {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		for _, it := range tbl.Items {
			item := make(map[string]types.AttributeValue, len(it.Item))
			for name, v := range it.Item {
				item[name] = AttributeValue(v)
			}
			if _, err := d.SDK.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tbl.Name), Item: item}); err != nil {
				t.Fatalf("PutItem %s %s: %v", tbl.Name, it.ID, err)
			}
		}
	}
}

// CreateTableInput turns a designer table into CreateTable: attribute definitions for key
// attributes only, on-demand billing. dynalite has no multi-attribute GSI keys, so the designs loaded
// into it have none and such an index is refused here.
func CreateTableInput(tbl designer.Table) (*dynamodb.CreateTableInput, error) {
	defs := map[string]types.ScalarAttributeType{}
	var order []string
	define := func(k designer.KeyAttribute) error {
		if prev, ok := defs[k.Name]; ok {
			if string(prev) != string(k.Type) {
				return fmt.Errorf("key attribute %s is both %s and %s", k.Name, prev, k.Type)
			}
			return nil
		}
		defs[k.Name] = types.ScalarAttributeType(k.Type)
		order = append(order, k.Name)
		return nil
	}
	schema := func(pk designer.KeyAttribute, sk *designer.KeyAttribute) ([]types.KeySchemaElement, error) {
		if err := define(pk); err != nil {
			return nil, err
		}
		ks := []types.KeySchemaElement{{AttributeName: aws.String(pk.Name), KeyType: types.KeyTypeHash}}
		if sk != nil {
			if err := define(*sk); err != nil {
				return nil, err
			}
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk.Name), KeyType: types.KeyTypeRange})
		}
		return ks, nil
	}
	in := &dynamodb.CreateTableInput{TableName: aws.String(tbl.Name), BillingMode: types.BillingModePayPerRequest}
	ks, err := schema(tbl.PartitionKey, tbl.SortKey)
	if err != nil {
		return nil, err
	}
	in.KeySchema = ks
	indexKeys := func(ix designer.Index) ([]types.KeySchemaElement, *types.Projection, error) {
		if len(ix.PartitionKey) != 1 || len(ix.SortKey) > 1 {
			return nil, nil, fmt.Errorf("index %s: dynalite supports only single-attribute index keys", ix.Name)
		}
		var sk *designer.KeyAttribute
		if len(ix.SortKey) == 1 {
			sk = &ix.SortKey[0]
		}
		ks, err := schema(ix.PartitionKey[0], sk)
		if err != nil {
			return nil, nil, err
		}
		p := &types.Projection{ProjectionType: types.ProjectionType(ix.Projection.Type)}
		if ix.Projection.Type == designer.Include {
			p.NonKeyAttributes = ix.Projection.Attributes
		}
		return ks, p, nil
	}
	for _, ix := range tbl.GSIs {
		ks, p, err := indexKeys(ix)
		if err != nil {
			return nil, err
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.Name), KeySchema: ks, Projection: p})
	}
	for _, ix := range tbl.LSIs {
		ks, p, err := indexKeys(ix)
		if err != nil {
			return nil, err
		}
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(ix.Name), KeySchema: ks, Projection: p})
	}
	for _, name := range order {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(name), AttributeType: defs[name]})
	}
	return in, nil
}

// AttributeValue is v as the SDK writes it.
func AttributeValue(v designer.Value) types.AttributeValue {
	switch v.Type {
	case designer.S:
		return &types.AttributeValueMemberS{Value: v.S}
	case designer.N:
		return &types.AttributeValueMemberN{Value: v.S}
	case designer.B:
		return &types.AttributeValueMemberB{Value: v.B}
	case designer.BOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Bool}
	case designer.NULL:
		return &types.AttributeValueMemberNULL{Value: true}
	case designer.M:
		m := make(map[string]types.AttributeValue, len(v.M))
		for k, e := range v.M {
			m[k] = AttributeValue(e)
		}
		return &types.AttributeValueMemberM{Value: m}
	case designer.L:
		l := make([]types.AttributeValue, len(v.L))
		for i, e := range v.L {
			l[i] = AttributeValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case designer.SS:
		return &types.AttributeValueMemberSS{Value: v.SS}
	case designer.NS:
		return &types.AttributeValueMemberNS{Value: v.SS}
	case designer.BS:
		return &types.AttributeValueMemberBS{Value: v.BS}
	}
	panic("attribute value without a type")
}
