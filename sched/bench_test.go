package sched

import (
	"cmp"
	"errors"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"nestor/codegen"
	"nestor/deps"
	"nestor/frontend"
)

// BenchmarkScheduleAndGenerate times, per corpus kernel, what --schedule
// adds to nestor's compile time: dependence analysis, the scheduler,
// schedule application and code generation (goal: under 100 ms each). It
// logs the median and the worst kernel.
func BenchmarkScheduleAndGenerate(b *testing.B) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	per := map[string]time.Duration{}
	for _, k := range ks {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		b.Run(name, func(b *testing.B) {
			defer func() {
				if b.N > 0 && !b.Skipped() && !b.Failed() {
					per[name] = b.Elapsed() / time.Duration(b.N)
				}
			}()
			f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"LARGE_DATASET"}})
			if err != nil {
				b.Fatal(err)
			}
			p := f.Scops[0].Prog
			for b.Loop() {
				g, err := deps.Analyze(p)
				if err != nil {
					b.Fatal(err)
				}
				sc, err := Compute(p, g, Options{})
				if errors.Is(err, ErrNoSchedule) {
					b.Skip("falls back to the original order")
				}
				if err != nil {
					b.Fatal(err)
				}
				q, err := Apply(p, sc)
				if err != nil {
					b.Fatal(err)
				}
				tree, err := codegen.Build(q)
				if err != nil {
					b.Fatal(err)
				}
				if err := codegen.PrintC(io.Discard, q, tree, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	if len(per) == 0 {
		return
	}
	names := slices.SortedFunc(maps.Keys(per), func(x, y string) int { return cmp.Compare(per[x], per[y]) })
	worst := names[len(names)-1]
	b.Logf("%d kernels: median %v, worst %v (%s)", len(names), per[names[len(names)/2]], per[worst], worst)
}
