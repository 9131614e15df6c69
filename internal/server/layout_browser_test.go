package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// No step of the HR example scrolls the page sideways at the projector and laptop sizes: wide
// grids scroll inside their own frame. (An absolutely placed, visually hidden label in a wide
// grid once pushed the Tables step 1,400 pixels past the window.)
func TestBrowser_noStepScrollsThePageSideways(t *testing.T) {
	base := startBrowserApp(t)
	ctx, _ := newBrowser(t)
	resp, err := http.Post(base+"/api/designs", "application/json", strings.NewReader(`{"example": "hr-employees"}`))
	if err != nil {
		t.Fatal(err)
	}
	var created createdDesign
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	openAndJoin(t, ctx, base+"/d/"+created.EditToken, "Ada")
	for _, size := range [][2]int64{{1280, 720}, {1400, 900}, {1920, 1080}} {
		for _, st := range steps {
			what := fmt.Sprintf("%s at %d×%d", st.label, size[0], size[1])
			do(t, ctx, "open "+what,
				chromedp.EmulateViewport(size[0], size[1]),
				chromedp.Navigate(base+"/d/"+created.EditToken+st.path),
				chromedp.WaitVisible(chromedp.CSS("#workspace")),
			)
			wide := get(t, ctx, "measure "+what, chromedp.Evaluate[int](
				`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
			if wide > 0 {
				t.Errorf("%s: the page scrolls %d pixels sideways", what, wide)
			}
		}
	}
}
