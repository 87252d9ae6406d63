package sched

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"nestor/codegen"
	"nestor/deps"
	"nestor/frontend"
)

// BenchmarkScheduleAndGenerate times, per corpus kernel, what --schedule
// adds to nestor's compile time: dependence analysis, the scheduler,
// schedule application and code generation (goal: under 100 ms each). The
// slow kernels run only with -sched.all.
func BenchmarkScheduleAndGenerate(b *testing.B) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	for _, k := range ks {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		b.Run(name, func(b *testing.B) {
			if slow[name] && !*all {
				b.Skip("slow to schedule; run with -sched.all")
			}
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
}
