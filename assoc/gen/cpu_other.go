//go:build !unix

package gen

import "time"

// processCPU is unknown here (GenStats.CPU stays zero).
func processCPU() time.Duration { return 0 }
