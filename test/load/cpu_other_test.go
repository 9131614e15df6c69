//go:build !unix

package load

import "time"

// cpuTime is not measured where there is no getrusage: the CPU rows show zero.
func cpuTime() time.Duration { return 0 }
