package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
)

// Machine describes where a report was measured.
type Machine struct {
	CPU    string // model, family and model numbers, hypervisor
	Cores  string // CPUs, cores, threads per core
	Caches string
	OS     string
	// Compilers and libraries, as they name themselves; empty when not used.
	GCC, Clang, OpenBLAS, Go string
}

// describeMachine reads lscpu (or /proc/cpuinfo) and asks the tools that
// the run uses for their versions.
func describeMachine(ctx context.Context, cfg Config, peers []string, blasConfig string) Machine {
	m := Machine{Go: runtime.Version(), OpenBLAS: blasConfig}
	cpu := lscpu(ctx)
	m.CPU = cpu["Model name"]
	if m.CPU == "" {
		m.CPU = cpuinfoModel()
	}
	if f, mod := cpu["CPU family"], cpu["Model"]; f != "" && mod != "" {
		m.CPU += fmt.Sprintf(" (family %s, model %s)", f, mod)
	}
	if h := cpu["Hypervisor vendor"]; h != "" {
		m.CPU += ", " + h + " guest"
	}
	m.Cores = fmt.Sprintf("%d CPUs", runtime.NumCPU())
	if c, s, t := cpu["Core(s) per socket"], cpu["Socket(s)"], cpu["Thread(s) per core"]; c != "" && s != "" && t != "" {
		m.Cores += fmt.Sprintf(": %s × %s × %s (sockets × cores per socket × threads per core)", s, c, t)
	}
	var caches []string
	for _, c := range []string{"L1d", "L2", "L3"} {
		if v := cpu[c+" cache"]; v != "" {
			caches = append(caches, c+" "+v)
		}
	}
	m.Caches = strings.Join(caches, ", ")
	m.OS = firstLine(output(ctx, "uname", "-srm"))
	if v, err := os.ReadFile("/etc/debian_version"); err == nil {
		m.OS += ", Debian " + strings.TrimSpace(string(v))
	}
	cc := strings.Fields(cfg.CC)
	m.GCC = firstLine(output(ctx, cc[0], append(cc[1:], "--version")...))
	if slices.Contains(peers, Polly) || slices.Contains(peers, PollyPar) {
		m.Clang = firstLine(output(ctx, cfg.Clang, "--version"))
	}
	return m
}

// output is the standard output of a command, empty when it fails.
func output(ctx context.Context, name string, args ...string) string {
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// lscpu returns lscpu's fields by name, or nothing without lscpu.
func lscpu(ctx context.Context) map[string]string {
	fields := map[string]string{}
	for _, line := range strings.Split(output(ctx, "lscpu"), "\n") {
		name, val, ok := strings.Cut(line, ":")
		if ok {
			fields[strings.TrimSpace(name)] = strings.TrimSpace(val)
		}
	}
	return fields
}

func cpuinfoModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if name, val, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "model name" {
			return strings.TrimSpace(val)
		}
	}
	return runtime.GOARCH
}
