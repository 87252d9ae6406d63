package model

import (
	"math"
	"testing"
)

// TestForkWork: the count repays the wake-up at the time IterSeconds
// gives (within the rounding to a power of two), grows with the wake-up
// and shrinks with the team; streams whose footprint leaves the caches
// come slower, so fewer iterations pay.
func TestForkWork(t *testing.T) {
	m := Nominal()
	compute := Body{Ops: 4, Load: 16, Store: 8}
	n := m.ForkWork(compute, 2)
	if n&(n-1) != 0 {
		t.Errorf("count %d is not a power of two", n)
	}
	// (1 − 1/2)·n·t reaches the wake-up, within a factor √2 either way.
	paid := 0.5 * float64(n) * m.IterSeconds(compute, 0) / m.WakeCost(2)
	if paid < 1/math.Sqrt2 || paid > math.Sqrt2 {
		t.Errorf("count %d repays %.2f of the wake-up, want 1 within √2", n, paid)
	}
	dear := m
	dear.Wake = []Overhead{{Threads: 1, Min: 1e-7, Median: 1e-7}, {Threads: 2, Min: 1e-4, Median: 4 * m.WakeCost(2)}}
	if d := dear.ForkWork(compute, 2); d <= n {
		t.Errorf("4× the wake-up: count %d, want more than %d", d, n)
	}
	// A stream of 16 bytes an iteration: at the count for L1's rates its
	// footprint is far beyond L1, and the count is lower than that.
	stream := compute
	stream.Stream = 16
	s := m.ForkWork(stream, 2)
	inL1 := m.WakeCost(2) / 0.5 / m.IterSeconds(stream, 0)
	if float64(s) >= inL1 || float64(s)*stream.Stream <= float64(m.L1) {
		t.Errorf("stream: count %d, want below L1's %g and with a footprint past L1", s, inL1)
	}
	// At the count, the time per iteration is the one of the level that
	// holds its footprint: it repays the wake-up within the rounding.
	paid = 0.5 * float64(s) * m.IterSeconds(stream, float64(s)*stream.Stream) / m.WakeCost(2)
	if paid < 1/math.Sqrt2/2 || paid > 2*math.Sqrt2 {
		t.Errorf("stream: count %d repays %.2f of the wake-up", s, paid)
	}
}

// TestIterSecondsGather: bytes loaded or stored an element at a time take
// the scalar rates, which share the ports with the vector ones: a body
// of gathered loads takes longer than the same bytes at unit stride, and
// its fork pays with fewer iterations.
func TestIterSecondsGather(t *testing.T) {
	m := Nominal()
	unit := Body{Ops: 1, Load: 32, Store: 8}
	gather := Body{Ops: 1, Load: 16, Gather: 16, Store: 8}
	scatter := Body{Ops: 1, Load: 32, Scatter: 8}
	tu, tg, ts := m.IterSeconds(unit, 0), m.IterSeconds(gather, 0), m.IterSeconds(scatter, 0)
	if want := 16/m.VectorLoad + 16/m.ScalarLoad; math.Abs(tg-max(want, 8/m.VectorStore)) > 1e-9*tg {
		t.Errorf("gather: %g s, want the loads' %g s", tg, want)
	}
	if tg <= tu || ts <= tu {
		t.Errorf("gather %g s, scatter %g s: want both above unit stride's %g s", tg, ts, tu)
	}
	if g, u := m.ForkWork(gather, 2), m.ForkWork(unit, 2); g >= u {
		t.Errorf("gather: count %d, want below unit stride's %d", g, u)
	}
}

// TestWakeCost: the median of the team's size, clamped to the sizes
// measured, and nominalWake where nothing was measured.
func TestWakeCost(t *testing.T) {
	m := Machine{Wake: []Overhead{{Threads: 1, Min: 1e-7, Median: 2e-7}, {Threads: 2, Min: 1e-5, Median: 3e-5}}}
	if got := m.WakeCost(2); got != 3e-5 {
		t.Errorf("WakeCost(2) = %g, want the median 3e-5", got)
	}
	if got := m.WakeCost(8); got != 3e-5 {
		t.Errorf("WakeCost(8) = %g, want the largest team's 3e-5", got)
	}
	if got := (Machine{}).WakeCost(2); got != nominalWake {
		t.Errorf("unmeasured WakeCost = %g, want %g", got, nominalWake)
	}
}
