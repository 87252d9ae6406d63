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
	// VectorRegs is the number of vector registers a core has for
	// floating point: 32 with AVX-512, 16 otherwise.
	VectorRegs int
}

// RegisterTile returns the unroll factors of a register tile (see
// codegen.UnrollJam) for m: rows × cols copies of a statement with one
// element in a register per copy and one accumulator per row need
// rows·cols + rows registers, plus two for the moving operands; among the
// tiles that fit, the one with the most copies, with rows ≥ cols + 2 (a
// row shares its accumulator across its cols copies). Measured on gemm
// (Zen 5, AVX-512): 6 × 4 runs at 2.9× the untiled loop, 4 × 4 at 1.7×.
func (m Machine) RegisterTile() (rows, cols int64) {
	regs := int64(max(m.VectorRegs, 16))
	rows, cols = 1, 1
	for r := int64(1); r <= regs; r++ {
		for c := int64(1); c+2 <= r; c++ {
			if r*c+r+2 <= regs && r*c > rows*cols {
				rows, cols = r, c
			}
		}
	}
	return rows, cols
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
		host = Machine{Cores: runtime.NumCPU(), L1: defaultL1, L2: defaultL2, L3: defaultL3, VectorRegs: 16}
		if info, err := os.ReadFile("/proc/cpuinfo"); err == nil && strings.Contains(string(info), " avx512f") {
			host.VectorRegs = 32
		}
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
