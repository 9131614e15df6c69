// Package static owns the browser assets Dynaloom serves: our CSS and JavaScript and the vendored
// htmx files, embedded in the binary and addressed by URLs that carry a content hash so they can be
// cached for a year.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"sync"
)

//go:embed app.css app.js favicon.svg vendor
var FS embed.FS

// Prefix is where the assets are served.
const Prefix = "/static/"

// versions hashes the assets on first use, not at start-up: hashing them is most of the package's
// share of a cold start, and /healthz needs none of them.
var versions = sync.OnceValue(func() map[string]string {
	v := map[string]string{}
	err := fs.WalkDir(FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := FS.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		v[path] = hex.EncodeToString(sum[:6])
		return nil
	})
	if err != nil {
		panic("static: " + err.Error())
	}
	return v
})

// URL returns the cache-busting URL of an embedded asset. It panics on a name that is not embedded,
// so a typo fails the first test that renders the page.
func URL(name string) string {
	v, ok := versions()[name]
	if !ok {
		panic("static: no asset " + name)
	}
	return Prefix + name + "?v=" + v
}
