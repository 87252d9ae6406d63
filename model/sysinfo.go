package model

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cpuInfo is what /proc/cpuinfo says about the CPU.
type cpuInfo struct {
	model    string          // "model name" (x86) or "Model"/"Hardware" (Arm), of the first processor
	logical  int             // processor entries
	physical int             // distinct (physical id, core id) pairs; 0 where not listed
	flags    map[string]bool // "flags" (x86) or "Features" (Arm) of the first processor
}

// parseCPUInfo reads the text of /proc/cpuinfo: blocks of "key : value"
// lines, one block per logical processor.
func parseCPUInfo(s string) cpuInfo {
	ci := cpuInfo{flags: map[string]bool{}}
	cores := map[[2]string]bool{}
	var phys, core string
	flagsSeen := false
	flush := func() {
		if core != "" {
			cores[[2]string{phys, core}] = true
		}
		phys, core = "", ""
	}
	for line := range strings.Lines(s) {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "processor":
			flush()
			ci.logical++
		case "model name", "Model", "Hardware":
			if ci.model == "" {
				ci.model = val
			}
		case "physical id":
			phys = val
		case "core id":
			core = val
		case "flags", "Features":
			if !flagsSeen {
				flagsSeen = true
				for _, f := range strings.Fields(val) {
					ci.flags[f] = true
				}
			}
		}
	}
	flush()
	ci.physical = len(cores)
	return ci
}

// vectorBytes returns the width of the widest vector register the flags
// announce, in bytes.
func (ci cpuInfo) vectorBytes() int {
	switch f := ci.flags; {
	case f["avx512f"]:
		return 64
	case f["avx2"], f["avx"]:
		return 32
	case f["sse2"], f["asimd"]:
		return 16
	}
	return 8
}

// caches are the data-cache sizes in bytes of one core.
type caches struct{ l1, l2, l3 int64 }

// readCaches reads the sysfs cache folder of one CPU (index0, index1, …,
// each with level, type and size); a level it does not report keeps its
// default.
func readCaches(dir string) caches {
	c := caches{defaultL1, defaultL2, defaultL3}
	dirs, _ := filepath.Glob(filepath.Join(dir, "index*"))
	for _, d := range dirs {
		level := readSys(filepath.Join(d, "level"))
		kind := readSys(filepath.Join(d, "type"))
		size, ok := parseSize(readSys(filepath.Join(d, "size")))
		if !ok || kind == "Instruction" {
			continue
		}
		switch level {
		case "1":
			c.l1 = size
		case "2":
			c.l2 = size
		case "3":
			c.l3 = size
		}
	}
	return c
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

// loadAvg returns the one-minute load average, 0 where unknown.
func loadAvg() float64 {
	f := strings.Fields(readSys("/proc/loadavg"))
	if len(f) == 0 {
		return 0
	}
	x, _ := strconv.ParseFloat(f[0], 64)
	return x
}
