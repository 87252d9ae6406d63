package model

import (
	"context"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// needCC skips the test when the C compiler Measure would use is not
// found.
func needCC(t *testing.T) {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(strings.Fields(cc + " x")[0]); err != nil {
		t.Skipf("no C compiler (%s): %v", cc, err)
	}
}

// TestMeasure runs every benchmark with tiny repetition counts and checks
// that each number is positive and that the numbers are ordered as the
// hardware orders them; nothing depends on how fast this machine is.
func TestMeasure(t *testing.T) {
	needCC(t)
	var progress strings.Builder
	m, err := Measure(context.Background(), MeasureOptions{Reps: 3, Sample: 4 * time.Millisecond, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("progress:\n%s", progress.String())
	var table strings.Builder
	m.WriteTable(&table)
	t.Logf("load average %.2f\n%s", m.LoadAvg, table.String())
	if !m.Measured || m.MeasuredAt.IsZero() || m.Compiler == "" || m.Format != Format {
		t.Errorf("Measured %v at %v by %q, format %d: want true, a time, a compiler and format %d", m.Measured, m.MeasuredAt, m.Compiler, m.Format, Format)
	}
	if err := m.validate(); err != nil {
		t.Errorf("measured machine: %v", err)
	}
	if got := strings.Count(progress.String(), "\n"); got != len(steps) {
		t.Errorf("%d progress lines, want one per step (%d)", got, len(steps))
	}
	h := Host()
	if m.Fingerprint != h.Fingerprint || m.L1 != h.L1 || m.Cores != h.Cores || m.VectorRegs != h.VectorRegs {
		t.Errorf("Measure changed the static part: %s %d %d %d, Host %s %d %d %d",
			m.Fingerprint, m.L1, m.Cores, m.VectorRegs, h.Fingerprint, h.L1, h.Cores, h.VectorRegs)
	}
	// Physically plausible: between 100 Mflop/s and 10 Tflop/s a core, an
	// FMA latency between 0.1 ns and 1 µs.
	if m.FMAPeak < 1e8 || m.FMAPeak > 1e13 {
		t.Errorf("FMA peak %g flop/s per core: implausible", m.FMAPeak)
	}
	if m.FMALatency < 1e-10 || m.FMALatency > 1e-6 {
		t.Errorf("FMA latency %g s: implausible", m.FMALatency)
	}
	// Independent chains: the peak beats one dependent chain (2 flops per
	// lane per latency), with a wide margin for a loaded machine.
	if chain := 2 * float64(m.VectorBytes/8) / m.FMALatency; m.FMAPeak < chain {
		t.Errorf("FMA peak %g flop/s below one dependent chain's %g", m.FMAPeak, chain)
	}
	if m.VectorBytes >= 32 && m.VectorLoad <= m.ScalarLoad {
		t.Errorf("vector loads %g B/s no faster than scalar ones %g B/s", m.VectorLoad, m.ScalarLoad)
	}
	l1, dram := m.Read[LevelL1], m.Read[LevelDRAM]
	if l1.PerCore <= dram.PerCore || l1.All <= dram.All {
		t.Errorf("L1 read %g / %g B/s not above DRAM's %g / %g", l1.PerCore, l1.All, dram.PerCore, dram.All)
	}
	if dram.PerCore > 1e12 || l1.PerCore < 1e9 {
		t.Errorf("DRAM at %g B/s or L1 at %g B/s per core: implausible", dram.PerCore, l1.PerCore)
	}
	if len(m.ForkJoin) != m.Cores || len(m.Barrier) != m.Cores || len(m.Wake) != m.Cores {
		t.Errorf("%d fork, %d barrier and %d wake costs, want one per thread count 1..%d", len(m.ForkJoin), len(m.Barrier), len(m.Wake), m.Cores)
	}
	for _, o := range slices.Concat(m.ForkJoin, m.Barrier, m.Wake) {
		if o.Min > o.Median || o.Median > 0.1 {
			t.Errorf("OpenMP cost %+v: min above median, or above 0.1 s", o)
		}
	}
	if len(m.Sweep) < 10 {
		t.Errorf("sweep of %d points", len(m.Sweep))
	}
	for i := 1; i < len(m.Sweep); i++ {
		if m.Sweep[i].Bytes <= m.Sweep[i-1].Bytes {
			t.Errorf("sweep sizes not increasing: %v", m.Sweep)
		}
	}
	for k := 1; k < 3; k++ {
		if m.Knees[k] != 0 && m.Knees[k] <= m.Knees[k-1] {
			t.Errorf("knees %v not increasing", m.Knees)
		}
	}
	if math.IsNaN(m.LoadAvg) || m.LoadAvg < 0 {
		t.Errorf("load average %g", m.LoadAvg)
	}
}

// TestMeasureErrors: a compiler that is missing or fails, and a cancelled
// context, are errors, not machines.
func TestMeasureErrors(t *testing.T) {
	if _, err := Measure(context.Background(), MeasureOptions{CC: "/no/such/cc"}); err == nil || !strings.Contains(err.Error(), "/no/such/cc") {
		t.Errorf("missing compiler: %v", err)
	}
	if _, err := Measure(context.Background(), MeasureOptions{CC: "false"}); err == nil {
		t.Error("failing compiler: no error")
	}
	needCC(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m, err := Measure(ctx, MeasureOptions{}); err == nil || m.Measured {
		t.Errorf("cancelled: measured %v, %v", m.Measured, err)
	}
}
