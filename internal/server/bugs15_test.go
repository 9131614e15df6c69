package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A structural edit draws its step again in place of the workspace only, so the element holding
// the page's event stream (and the tab in its address) is never swapped; when the page is on
// another step, the answer is a visit of that step.
func TestStructuralEdit_reloadsTheWorkspaceNotThePage(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	c := a.createJSON(`{"name": "Shop", "tables": [{"name": "Orders", "partition_key": {"name": "order_id", "type": "S"}}]}`)
	base := "/d/" + c.EditToken
	post := func(field, value, current string) *http.Response {
		rec := a.request(http.MethodPost, base+"/tables/field", formType,
			strings.NewReader(form("table", strings.Split(field, ":")[0], "field", strings.Split(field, ":")[1], "value", value)),
			"HX-Request", "true", "HX-Current-URL", "http://example.com"+current)
		if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
			t.Fatalf("%s = %s: %d %.200s", field, value, rec.Code, rec.Body)
		}
		return rec.Result()
	}

	res := post("Orders:sk_name", "placed_at", base+"/tables?table=Orders")
	var loc struct{ Path, Target, Select, Swap string }
	if err := json.Unmarshal([]byte(res.Header.Get("HX-Location")), &loc); err != nil {
		t.Fatalf("HX-Location %q: %v", res.Header.Get("HX-Location"), err)
	}
	if loc.Path != base+"/tables?table=Orders" || loc.Target != "#workspace" || loc.Select != "#workspace" || loc.Swap != "outerHTML" {
		t.Fatalf("a sort key added on the Tables step reloads with %+v; want the step's workspace swapped in place", loc)
	}

	res = post("Orders:name", "Purchases", base+"/mapping")
	if got := res.Header.Get("HX-Redirect"); got != base+"/tables?table=Purchases" || res.Header.Get("HX-Location") != "" {
		t.Fatalf("a rename sent from the Mapping step answers HX-Redirect %q, HX-Location %q; want a visit of the Tables step",
			got, res.Header.Get("HX-Location"))
	}
}
