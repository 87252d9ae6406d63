package bench

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// ds returns milliseconds as durations.
func ds(ms ...float64) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, m := range ms {
		out[i] = time.Duration(m * float64(time.Millisecond))
	}
	return out
}

// sample is a report with the cases the table must show: versions that
// agree, one whose results differ, a timeout at one thread count, a build
// failure at every thread count, a kernel that failed entirely, and gemm
// with OpenBLAS.
func sample() *Report {
	ms := func(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }
	ok := func(peer string, threads int, t float64) *Result {
		return &Result{Peer: peer, Threads: threads, Time: ms(t), Runs: 3, Match: true}
	}
	return &Report{
		Size: "LARGE", Runs: 3, Threads: []int{1, 2},
		Peers: []string{GCC, Nestor, Polly, OpenBLAS},
		Kernels: []*Kernel{
			{Name: "gemm", Params: map[string]int64{"ni": 1000, "nj": 1100, "nk": 1200}, Flops: 2.64e9, Results: []*Result{
				ok(GCC, 1, 400), ok(Nestor, 1, 100), ok(Nestor, 2, 50), ok(Polly, 1, 200), ok(OpenBLAS, 1, 50), ok(OpenBLAS, 2, 25),
			}},
			{Name: "lu", Results: []*Result{
				ok(GCC, 1, 2000),
				{Peer: Nestor, Threads: 1, Time: ms(1000), Runs: 3, Diff: "A: 3 of 4000000 differ, rel err 0.5"},
				{Peer: Nestor, Threads: 2, Err: "timeout (5m0s)"},
				ok(Polly, 1, 4000),
			}},
			{Name: "adi", Results: []*Result{
				ok(GCC, 1, 0.5),
				{Peer: Nestor, Threads: 1, Err: "build: harness_nestor.c:3: error"},
				{Peer: Nestor, Threads: 2, Err: "build: harness_nestor.c:3: error"},
				ok(Polly, 1, 0.25),
			}},
			{Name: "deriche", Err: "parse: deriche.c:1:1: oops"},
		},
		Notes: []string{"Polly columns skipped: none"},
	}
}

func TestTable(t *testing.T) {
	var b strings.Builder
	writeAligned(&b, sample().table())
	want := `kernel      gcc  nestor 1t  nestor 2t  polly  check
gemm     400 ms      4.00x      8.00x  2.00x  ok
lu       2.00 s    (2.00x)          —  0.50x  nestor 1t: differs, nestor 2t: timeout
adi      500 µs          —          —  2.00x  nestor: build failed
deriche       —          —          —      —  error
geomean          4.00x (1)  8.00x (1)  1.26x
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestGeomeanColumns(t *testing.T) {
	r := sample()
	g, n := r.Geomean(Column{Polly, 1})
	if want := 1.2599210498948732; n != 3 || abs(g-want) > 1e-12 { // (2 · 0.5 · 2)^(1/3): lu's polly is slower
		t.Errorf("polly geomean %v over %d, want %v over 3", g, n, want)
	}
	if g, n := r.Geomean(Column{Nestor, 1}); n != 1 || g != 4 { // lu differs, adi failed
		t.Errorf("nestor geomean %v over %d", g, n)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestMarkdown(t *testing.T) {
	r := sample()
	r.Command = "go run ./cmd/nestor bench --runs=3"
	r.Machine = Machine{CPU: "AMD EPYC", Cores: "2 CPUs", GCC: "gcc (Debian 12.2.0-14) 12.2.0"}
	var b strings.Builder
	r.Markdown(&b)
	md := b.String()
	for _, want := range []string{
		"# Benchmarks\n",
		"```sh\ngo run ./cmd/nestor bench --runs=3\n```",
		"- CPU: AMD EPYC\n",
		"| kernel | gcc | nestor 1t | nestor 2t | polly | check |\n|---|---:|---:|---:|---:|---|\n",
		"| gemm | 400 ms | 4.00x | 8.00x | 2.00x | ok |\n",
		"| **geomean** |  | **4.00x (1)** | **8.00x (1)** | **1.26x** |  |\n",
		"| nestor | 1 | 100 ms | 26.4 | 50% | ok |\n", // nestor at one thread: 2.64e9 flop / 0.1 s, half of OpenBLAS's speed
		"nestor's gemm at 1 thread runs at 50% of the speed of OpenBLAS's dgemm.",
		"- lu, nestor 1t: A: 3 of 4000000 differ, rel err 0.5\n",
		"- adi, nestor: build: harness\\_nestor.c:3: error\n",
		"- deriche: parse: deriche.c:1:1: oops\n",
		"- Polly columns skipped: none\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestProgressLine(t *testing.T) {
	k := sample().Kernels[1]
	k.Elapsed = 12 * time.Second
	want := "lu: gcc 2.00 s, nestor 1t (2.00x), nestor 2t —, polly 0.50x; nestor 1t: differs, nestor 2t: timeout (12s)"
	if got := progressLine(k); got != want {
		t.Errorf("progress line\n%q, want\n%q", got, want)
	}
}

func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{432 * time.Nanosecond, "0.432 µs"},
		{11600 * time.Nanosecond, "11.6 µs"},
		{512 * time.Millisecond, "512 ms"},
		{12345 * time.Millisecond, "12.3 s"},
		{2 * time.Second, "2.00 s"},
		{9999 * time.Microsecond, "10.0 ms"}, // rounds up to the next decade
		{500 * time.Microsecond, "500 µs"},
	} {
		if got := formatDuration(tc.d); got != tc.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestFormatElapsed(t *testing.T) {
	for d, want := range map[time.Duration]string{
		20 * time.Second:                "under a minute",
		10*time.Minute + 20*time.Second: "10 min",
		81 * time.Minute:                "1 h 21 min",
	} {
		if got := formatElapsed(d); got != want {
			t.Errorf("formatElapsed(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestProducts: a matrix product's GFLOP/s (its flops from its sizes)
// and its share of nestor's gemm at the same thread count.
func TestProducts(t *testing.T) {
	ms := func(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }
	ok := func(peer string, threads int, t float64) *Result {
		return &Result{Peer: peer, Threads: threads, Time: ms(t), Runs: 3, Match: true}
	}
	syrk := map[string]int64{"n": 1199, "m": 1000}
	r := &Report{Size: "LARGE", Runs: 3, Threads: []int{1, 2}, Peers: []string{GCC, Nestor},
		Kernels: []*Kernel{
			{Name: "gemm", Flops: flops("gemm", map[string]int64{"ni": 1000, "nj": 1000, "nk": 1000}), Results: []*Result{
				ok(GCC, 1, 400), ok(Nestor, 1, 40), ok(Nestor, 2, 20)}},
			{Name: "syrk", Params: syrk, Flops: flops("syrk", syrk), Results: []*Result{
				ok(GCC, 1, 400), ok(Nestor, 1, 30), {Peer: Nestor, Threads: 2, Err: "timeout"}}},
			{Name: "lu", Results: []*Result{ok(GCC, 1, 400), ok(Nestor, 1, 30)}},
		}}
	if got := flops("syrk", syrk); got != 1199*1200*1000 {
		t.Fatalf("syrk's flops %g, want n(n+1)·m", got)
	}
	var b strings.Builder
	r.products(&b, false)
	// gemm: 2e9 flops in 40 ms = 50 GFLOP/s; syrk: 1.4388e9 in 30 ms = 48.0, 96% of it.
	for _, want := range [][]string{{"gemm", "50.0", "100%", "100.0", "100%"}, {"syrk", "48.0", "96%", "—", "—"}} {
		if !slices.ContainsFunc(strings.Split(b.String(), "\n"), func(l string) bool { return slices.Equal(strings.Fields(l), want) }) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "lu") {
		t.Errorf("a kernel without flops is listed:\n%s", b.String())
	}
}
