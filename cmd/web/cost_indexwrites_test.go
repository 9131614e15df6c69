package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// dynaloom cost lists each index write with its figures, where they came from and why.
func TestCost_listsEachIndexWriteWithItsReason(t *testing.T) {
	cli := dynaloomCLI(t)
	file := filepath.Join("..", "..", "internal", "designer", "examples", "hr-employees.json")
	code, out, errOut := cli("cost", file)
	if code != 0 {
		t.Fatalf("cost: exit %d\n%s", code, errOut)
	}
	var line string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(l, "#14 EmployeesByDepartment ") {
			line = strings.TrimRight(l, " ")
			break
		}
	}
	// Pattern 14 moves an employee's EmployeesByDepartment entry: a delete and a put, 1 KB each.
	if f := strings.Fields(line); len(f) < 7 || f[2] != "TransactWriteItems" || f[4] != "2" || f[5] != "2" ||
		!strings.HasSuffix(line, "sample items  dept_no, the partition key of EmployeesByDepartment, changes: a delete and a put") {
		t.Errorf("pattern 14's index write: %q\n%s", line, out)
	}
}
