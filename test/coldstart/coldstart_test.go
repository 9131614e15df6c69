// Package coldstart measures how long dynaloom takes from its start to its first 200 from
// /healthz, beside the anchor (./anchor): a bare Go server that opens the same SQLite file with
// the same driver, on an empty database and on one of 1,000 designs. Both are built once and
// started as processes in turns; the benchmark reports each one's median and their ratio:
//
//	go test ./test/coldstart -run '^$' -bench ColdStart -benchtime 20x
package coldstart

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

// build compiles pkg into dir and returns the binary's path.
func build(b *testing.B, dir, pkg, name string) string {
	b.Helper()
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = "../.."
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out
}

func freeAddr(b *testing.B) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// firstOK starts bin with args and the database db on a free port and returns the time from the
// start to the first 200 from /healthz. It stops the process before returning.
func firstOK(b *testing.B, bin string, args ...string) time.Duration {
	b.Helper()
	addr := freeAddr(b)
	cmd := exec.Command(bin, append(args, "--addr", addr)...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	client := &http.Client{Timeout: time.Second}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	for deadline := start.Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		resp, err := client.Get("http://" + addr + "/healthz")
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return time.Since(start)
		}
	}
	b.Fatalf("%s gave no 200 from /healthz in 30 s", bin)
	return 0
}

// thousandDesigns makes a database of 1,000 designs, the HR example each.
func thousandDesigns(b *testing.B, path string) {
	store, err := storage.OpenWith(context.Background(), path, storage.Options{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	d, err := designer.ExampleDesign("hr-employees")
	if err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		d.Name = fmt.Sprintf("Design %d", i)
		if _, _, err := store.Create(context.Background(), d, "load"); err != nil {
			b.Fatal(err)
		}
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func BenchmarkColdStart(b *testing.B) {
	dir := b.TempDir()
	dynaloom := build(b, dir, "./cmd/web", "dynaloom")
	anchor := build(b, dir, "./test/coldstart/anchor", "anchor")
	for _, size := range []struct {
		name string
		fill func(*testing.B, string)
	}{{"empty", nil}, {"1000-designs", thousandDesigns}} {
		b.Run(size.name, func(b *testing.B) {
			// Each server has its own file (the schemas differ), filled alike.
			ours, bare := filepath.Join(b.TempDir(), "ours.db"), filepath.Join(b.TempDir(), "bare.db")
			if size.fill != nil {
				size.fill(b, ours)
				size.fill(b, bare)
			}
			var dt, at []time.Duration
			for b.Loop() {
				dt = append(dt, firstOK(b, dynaloom, "serve", "--db", ours))
				at = append(at, firstOK(b, anchor, "--db", bare))
			}
			b.ReportMetric(float64(median(dt).Microseconds())/1000, "dynaloom-ms")
			b.ReportMetric(float64(median(at).Microseconds())/1000, "anchor-ms")
			b.ReportMetric(float64(median(dt))/float64(median(at)), "ratio")
		})
	}
}
