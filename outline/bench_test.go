package outline

import (
	"testing"
)

// arxRounds is the number of SHA-256 rounds that makes ARX just over
// 10,000 nodes (10,044).
const arxRounds = 137

var sinkReport *Report

// BenchmarkOutline10k runs the whole pass on ARX(137), 10,044 nodes:
// greedy and exact choice under Nodes, and greedy under Area (where
// SHA-256's rounds do not pay).
func BenchmarkOutline10k(b *testing.B) {
	for _, opt := range []struct {
		name string
		opt  Options
	}{{"nodes", Options{}}, {"exact", Options{Exact: true}}, {"area", Options{Objective: Area}}} {
		b.Run(opt.name, func(b *testing.B) {
			p := ARX(arxRounds)
			if n := len(p.Funcs[0].Nodes); n < 10000 {
				b.Fatalf("ARX(%d) has %d nodes", arxRounds, n)
			}
			for b.Loop() {
				b.StopTimer()
				q := clonePackage(p)
				b.StartTimer()
				r, err := Outline(q, "sha", opt.opt)
				if err != nil {
					b.Fatal(err)
				}
				sinkReport = r
			}
			b.ReportMetric(float64(len(sinkReport.Funcs)), "funcs")
			b.ReportMetric(float64(sinkReport.CostBefore-sinkReport.CostAfter), "saved")
		})
	}
}

// BenchmarkOutlinePlanted100k runs the whole pass on a planted-motif
// graph of about 100,000 nodes (issue 18: at most 10 s and 2 GB; the
// command in ../cmd/nestor reports the same with /usr/bin/time -v).
func BenchmarkOutlinePlanted100k(b *testing.B) {
	p, _ := Planted(PlantSpec{Seed: 1, Size: 12, Copies: 50, Nodes: 100000, FanOut: true})
	for b.Loop() {
		b.StopTimer()
		q := clonePackage(p)
		b.StartTimer()
		r, err := Outline(q, "planted", Options{})
		if err != nil {
			b.Fatal(err)
		}
		sinkReport = r
	}
	b.ReportMetric(float64(len(sinkReport.Funcs)), "funcs")
	b.ReportMetric(float64(sinkReport.CostBefore-sinkReport.CostAfter), "saved")
}
