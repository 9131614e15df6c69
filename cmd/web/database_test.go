package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dynaloom/internal/designer"
	"dynaloom/internal/storage"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestBackupAndCheck_whileTheDatabaseIsOpen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	s, err := storage.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 40 {
		d, err := designer.New(fmt.Sprint("Design ", i))
		if err != nil {
			t.Fatal(err)
		}
		d.Overview.Notes = strings.Repeat("Notes that take room. ", 50)
		if _, _, err := s.Create(ctx, d, "alice"); err != nil {
			t.Fatal(err)
		}
	}

	dest := filepath.Join(dir, "backup.db")
	if code, out, errOut := runCmd("backup", "--db", db, dest); code != 0 || !strings.Contains(out, "backed up to") {
		t.Fatalf("backup: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := runCmd("backup", "--db", db, dest); code != 1 || !strings.Contains(errOut, "exists") {
		t.Fatalf("backup over an existing file: %d %q", code, errOut)
	}
	if code, out, _ := runCmd("check", "--db", dest); code != 0 || !strings.Contains(out, "ok. The integrity check found no problems") {
		t.Fatalf("check of the backup: %d %q", code, out)
	}
	if code, out, _ := runCmd("check", "--db", db); code != 0 {
		t.Fatalf("check of the open database: %d %q", code, out)
	}

	// Damage the backup's last page, which holds designs.
	b, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := int(binary.BigEndian.Uint16(b[16:]))
	copy(b[len(b)-pageSize:], bytes.Repeat([]byte{0xff}, pageSize))
	damaged := filepath.Join(dir, "damaged.db")
	if err := os.WriteFile(damaged, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCmd("check", "--db", damaged); code != 1 || !strings.Contains(out, "damaged.") || !strings.Contains(out, "restore the newest backup") {
		t.Fatalf("check of a damaged database: %d %q", code, out)
	}

	text := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(text, []byte(fmt.Sprintf("%4096s", "not a database")), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCmd("check", "--db", text); code != 1 || !strings.Contains(out, "cannot be read as a database") {
		t.Fatalf("check of a text file: %d %q", code, out)
	}
	if code, _, errOut := runCmd("check", "--db", filepath.Join(dir, "missing.db")); code != 1 || !strings.Contains(errOut, "no database at") {
		t.Fatalf("check of a missing file: %d %q", code, errOut)
	}
	if code, _, _ := runCmd("check", "--db", db, "extra"); code != 2 {
		t.Fatalf("check with an extra argument: %d", code)
	}
	if code, _, _ := runCmd("backup", "--db", db); code != 2 {
		t.Fatalf("backup without FILE: %d", code)
	}
}

func TestCheck_namesADamagedLogSetAside(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db.db")
	s, err := storage.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	aside := db + "-wal.damaged-20250101T000000.000000000Z"
	if err := os.WriteFile(aside, []byte("a log SQLite could not replay"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCmd("check", "--db", db); code != 1 || !strings.Contains(out, aside) || !strings.Contains(out, "changes are missing") {
		t.Fatalf("check: %d %q", code, out)
	}
}
