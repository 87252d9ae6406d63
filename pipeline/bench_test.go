package pipeline

import (
	cmpkg "cmp"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"nestor/frontend"
)

var sink []byte

// BenchmarkCompile measures nestor's own time per corpus kernel: parse
// (preprocessor and system headers included), build the IR, and generate
// the optimized file. Target: under 5 ms per PolyBench kernel.
func BenchmarkCompile(b *testing.B) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	for _, k := range ks {
		src, err := os.ReadFile(k)
		if err != nil {
			b.Fatal(err)
		}
		cfg := frontend.Config{Defines: []string{"LARGE_DATASET"}}
		b.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(b *testing.B) {
			for b.Loop() {
				f, err := frontend.Parse(k, src, cfg)
				if err != nil {
					b.Fatal(err)
				}
				if sink, err = Optimize(f, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOptimize times, per corpus kernel, what `nestor opt` does with
// its default flags after parsing: dependences, the schedule, tiling,
// register tiles and the generated code (goal: under 100 ms each). It
// logs the median and the worst kernel, in wall time and in the
// process's CPU time (user + system), which a machine shared with other
// work inflates less.
func BenchmarkOptimize(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent)) // as cmd/nestor runs
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	per := map[string]time.Duration{}
	cpu := map[string]time.Duration{}
	for _, k := range ks {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"LARGE_DATASET"}})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			c0 := cpuTime()
			for b.Loop() {
				if sink, err = Optimize(f, DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
			per[name] = b.Elapsed() / time.Duration(b.N)
			cpu[name] = (cpuTime() - c0) / time.Duration(b.N)
			b.ReportMetric(float64(cpu[name].Microseconds())/1000, "cpu-ms/op")
		})
	}
	if len(per) == 0 {
		return
	}
	for _, m := range []struct {
		what string
		t    map[string]time.Duration
	}{{"wall", per}, {"cpu", cpu}} {
		names := slices.SortedFunc(maps.Keys(m.t), func(x, y string) int { return cmpkg.Compare(m.t[x], m.t[y]) })
		worst := names[len(names)-1]
		b.Logf("%d kernels, %s time: median %v, worst %v (%s)", len(names), m.what, m.t[names[len(names)/2]], m.t[worst], worst)
	}
}

// cpuTime returns the CPU time (user + system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
