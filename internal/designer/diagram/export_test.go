package diagram

import "context"

// LayoutFresh is Layout without pins and without the memory of recent layouts.
func LayoutFresh(ctx context.Context, g Graph) (Drawing, error) {
	forget()
	return Layout(ctx, g, nil)
}

func forget() {
	layouts.Lock()
	clear(layouts.m)
	layouts.order = nil
	layouts.Unlock()
}
