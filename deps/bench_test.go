package deps

import (
	"path/filepath"
	"strings"
	"testing"

	"nestor/internal/isloracle"
)

var sinkGraph *Graph

// BenchmarkAnalyze times nestor's dependence analysis per corpus kernel and
// reports, in the same run, isl's time for the same memory-based relations
// (isl-ns/op, measured inside the oracle around the computation only) and
// the ratio nestor/isl (goal: at most 1).
func BenchmarkAnalyze(b *testing.B) {
	o := oracle(b)
	for _, k := range corpus(b) {
		b.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(b *testing.B) {
			p := parse(b, k)
			rel, err := o.DepsN(isloracle.Describe(p), 5)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if sinkGraph, err = Analyze(p); err != nil {
					b.Fatal(err)
				}
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(float64(rel.Nanos), "isl-ns/op")
			b.ReportMetric(ns/float64(rel.Nanos), "nestor/isl")
		})
	}
}
