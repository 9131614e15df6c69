//go:build unix

package storage

import (
	"os"
	"syscall"
)

// removed reports whether f, opened at path, was removed: its link count is then zero.
func removed(f *os.File, _ string) bool {
	fi, err := f.Stat() // fstat, without making the descriptor blocking as f.Fd would
	if err != nil {
		return true
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink == 0
}
