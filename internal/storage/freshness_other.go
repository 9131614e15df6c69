//go:build !unix

package storage

import "os"

// removed reports whether f, opened at path, is no longer the file at path.
func removed(f *os.File, path string) bool {
	opened, err := f.Stat()
	if err != nil {
		return true
	}
	now, err := os.Stat(path)
	return err != nil || !os.SameFile(opened, now)
}
