//go:build unix

package load

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used: the server's, and whatever client runs in it
// (editLoop runs its client in a process of its own).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
