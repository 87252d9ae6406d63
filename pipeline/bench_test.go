package pipeline

import (
	cmpkg "cmp"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
// logs the median and the worst kernel.
func BenchmarkOptimize(b *testing.B) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	per := map[string]time.Duration{}
	for _, k := range ks {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"LARGE_DATASET"}})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if sink, err = Optimize(f, DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
			per[name] = b.Elapsed() / time.Duration(b.N)
		})
	}
	if len(per) == 0 {
		return
	}
	names := slices.SortedFunc(maps.Keys(per), func(x, y string) int { return cmpkg.Compare(per[x], per[y]) })
	worst := names[len(names)-1]
	b.Logf("%d kernels: median %v, worst %v (%s)", len(names), per[names[len(names)/2]], per[worst], worst)
}
