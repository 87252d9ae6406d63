package assoc

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

var sinkMatch *Match

// BenchmarkRecognize times Recognize on every reduction of the corpus
// (testdata/reductions.txt, the rejected ones included) and reports the
// median and the worst time per reduction: each b.Loop iteration runs the
// whole corpus once, and a reduction's time is its mean over the
// iterations. The tables are indexed before the timing starts. Where the
// thread's CPU clock is available (Linux) it reports the same figures in
// CPU time too (µs-cpu-…), which other processes' load does not inflate
// the way it inflates wall time.
func BenchmarkRecognize(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cases := loadCorpus(b)
	tables := corpusTables()
	opts := make([]MatchOptions, len(cases))
	for i, c := range cases {
		opts[i] = c.opts
		opts[i].Tables = tables
		sinkMatch, _ = Recognize(c.update, opts[i]) // index the tables
	}
	total := make([]time.Duration, len(cases))
	cpu := make([]int64, len(cases))
	_, haveCPU := threadCPU()
	iters := 0
	for b.Loop() {
		for i, c := range cases {
			c0, _ := threadCPU()
			t0 := time.Now()
			sinkMatch, _ = Recognize(c.update, opts[i])
			total[i] += time.Since(t0)
			c1, _ := threadCPU()
			cpu[i] += c1 - c0
		}
		iters++
	}
	if haveCPU {
		per := make([]float64, len(cases))
		worst := 0
		for i, d := range cpu {
			per[i] = float64(d) / float64(iters)
			if per[i] > per[worst] {
				worst = i
			}
		}
		sorted := slices.Clone(per)
		slices.Sort(sorted)
		b.ReportMetric(sorted[len(sorted)/2]/1e3, "µs-cpu-median/reduction")
		b.ReportMetric(per[worst]/1e3, "µs-cpu-worst/reduction")
		b.Logf("CPU time: worst %s (%.1f µs)", cases[worst].name, per[worst]/1e3)
	}
	per := make([]float64, len(cases))
	worst := 0
	for i, d := range total {
		per[i] = float64(d.Nanoseconds()) / float64(iters)
		if per[i] > per[worst] {
			worst = i
		}
	}
	sorted := slices.Clone(per)
	slices.Sort(sorted)
	b.ReportMetric(sorted[len(sorted)/2]/1e3, "µs-median/reduction")
	b.ReportMetric(per[worst]/1e3, "µs-worst/reduction")
	b.ReportMetric(0, "ns/op")
	order := make([]int, len(cases))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(per[j], per[i]) })
	var slow []string
	for _, i := range order[:min(5, len(order))] {
		slow = append(slow, fmt.Sprintf("%s %.1f µs", cases[i].name, per[i]/1e3))
	}
	b.Logf("%d reductions; slowest: %s", len(cases), strings.Join(slow, ", "))
}
