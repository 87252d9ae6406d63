// Package model describes the machine nestor generates code for: the
// numbers its decisions (tile sizes now; a lower bound on run time later)
// depend on.
//
// # Invariants
//
// Every size is positive: where the system does not say, a documented
// default stands in.
package model

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Machine is what the code generator knows about the target.
type Machine struct {
	Cores int
	// L1, L2, L3 are the data-cache sizes in bytes of one core's view
	// (L3 is usually shared).
	L1, L2, L3 int64
}

// Defaults used when the system does not report a cache: common sizes of
// current x86 server cores.
const (
	defaultL1 = 32 << 10
	defaultL2 = 1 << 20
	defaultL3 = 32 << 20
)

var (
	hostOnce sync.Once
	host     Machine
)

// Host returns the machine nestor runs on, read once from
// /sys/devices/system/cpu/cpu0/cache (Linux); sizes the system does not
// report take the defaults.
func Host() Machine {
	hostOnce.Do(func() {
		host = Machine{Cores: runtime.NumCPU(), L1: defaultL1, L2: defaultL2, L3: defaultL3}
		dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
		for _, d := range dirs {
			level := readSys(filepath.Join(d, "level"))
			kind := readSys(filepath.Join(d, "type"))
			size, ok := parseSize(readSys(filepath.Join(d, "size")))
			if !ok || kind == "Instruction" {
				continue
			}
			switch level {
			case "1":
				host.L1 = size
			case "2":
				host.L2 = size
			case "3":
				host.L3 = size
			}
		}
	})
	return host
}

func readSys(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// parseSize reads sysfs cache sizes: "48K", "1024K", "32M", or bytes.
func parseSize(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n * mult, true
}
