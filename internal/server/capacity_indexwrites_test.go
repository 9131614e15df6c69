package server

import (
	"net/http"
	"strings"
	"testing"
)

func TestCapacity_eachIndexWriteSaysWhy(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"example": "hr-employees"}`)
	body := a.request(http.MethodGet, "/d/"+c.EditToken+"/capacity", "", nil).Body.String()
	// Pattern 14 moves an employee to another department: the EmployeesByDepartment entry moves.
	for _, want := range []string{
		"EmployeesByDepartment: 2 = 2 WRU (key change: delete + put)",
		"dept_no, the partition key of EmployeesByDepartment, changes: a delete and a put",
		"counts as DynamoDB bills it, a delete and a put (2 writes; the MCP calculator counts 1)",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the Capacity step does not show %q", want)
		}
	}
}
