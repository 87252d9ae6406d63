package assoc

import (
	"cmp"
	"fmt"
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
// iterations. The tables are indexed before the timing starts.
func BenchmarkRecognize(b *testing.B) {
	cases := loadCorpus(b)
	tables := corpusTables()
	opts := make([]MatchOptions, len(cases))
	for i, c := range cases {
		opts[i] = c.opts
		opts[i].Tables = tables
		sinkMatch, _ = Recognize(c.update, opts[i]) // index the tables
	}
	total := make([]time.Duration, len(cases))
	iters := 0
	for b.Loop() {
		for i, c := range cases {
			t0 := time.Now()
			sinkMatch, _ = Recognize(c.update, opts[i])
			total[i] += time.Since(t0)
		}
		iters++
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
