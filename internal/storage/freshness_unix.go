//go:build unix

package storage

import (
	"os"
	"syscall"
)

// removed reports whether f, opened at path, was removed: its link count is then zero.
func removed(f *os.File, _ string) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return true
	}
	return st.Nlink == 0
}
