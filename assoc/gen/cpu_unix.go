//go:build unix

package gen

import (
	"syscall"
	"time"
)

// processCPU returns the processor time (user and system) of this
// process and of its children that have ended: the z3 processes of the
// provers closed so far.
func processCPU() time.Duration {
	var d time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			d += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return d
}
