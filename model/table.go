package model

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// WriteTable writes m as a short table for people: what the system
// reports, then each measured number with its unit.
func (m Machine) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	state := "nominal (not measured: run nestor machine)"
	if m.Measured {
		state = fmt.Sprintf("measured %s, load average %.2f", m.MeasuredAt.Format("2006-01-02 15:04 MST"), m.LoadAvg)
	}
	fmt.Fprintf(tw, "cpu\t%s\n", m.CPU)
	fmt.Fprintf(tw, "fingerprint\t%s\n", m.Fingerprint)
	fmt.Fprintf(tw, "values\t%s\n", state)
	if m.Compiler != "" {
		fmt.Fprintf(tw, "compiler\t%s\n", m.Compiler)
	}
	fmt.Fprintf(tw, "cores\t%d (logical %d, physical %d)\n", m.Cores, m.LogicalCores, m.PhysicalCores)
	fmt.Fprintf(tw, "vector\t%d bytes, %d registers\n", m.VectorBytes, m.VectorRegs)
	fmt.Fprintf(tw, "caches\tL1 %s, L2 %s, L3 %s\n", siBytes(m.L1), siBytes(m.L2), siBytes(m.L3))
	if m.Knees != [3]int64{} {
		fmt.Fprintf(tw, "knees\tL1 %s, L2 %s, L3 %s (bandwidth sweep; 0: none seen)\n", siBytes(m.Knees[0]), siBytes(m.Knees[1]), siBytes(m.Knees[2]))
	}
	fmt.Fprintf(tw, "FMA peak\t%s per core\n", siUnit(m.FMAPeak, "flop/s"))
	fmt.Fprintf(tw, "FMA latency\t%s\n", siUnit(m.FMALatency, "s"))
	fmt.Fprintf(tw, "L1 load/store\tvector %s / %s, scalar %s / %s per core\n",
		siUnit(m.VectorLoad, "B/s"), siUnit(m.VectorStore, "B/s"), siUnit(m.ScalarLoad, "B/s"), siUnit(m.ScalarStore, "B/s"))
	fmt.Fprintf(tw, "\nread\tworking set\t1 core\t%d cores\n", m.Cores)
	for _, b := range m.Read {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Level, siBytes(b.Bytes), siUnit(b.PerCore, "B/s"), siUnit(b.All, "B/s"))
	}
	fmt.Fprintf(tw, "\nOpenMP\tthreads\tfastest\tmedian\n")
	for i, f := range m.ForkJoin {
		fmt.Fprintf(tw, "fork+join\t%d\t%s\t%s\n", f.Threads, siUnit(f.Min, "s"), siUnit(f.Median, "s"))
		if i < len(m.Barrier) {
			b := m.Barrier[i]
			fmt.Fprintf(tw, "barrier\t%d\t%s\t%s\n", b.Threads, siUnit(b.Min, "s"), siUnit(b.Median, "s"))
		}
		if i < len(m.Wake) {
			w := m.Wake[i]
			fmt.Fprintf(tw, "wake\t%d\t%s\t%s\n", w.Threads, siUnit(w.Min, "s"), siUnit(w.Median, "s"))
		}
	}
	return tw.Flush()
}

// siUnit writes x with three significant digits and an SI prefix.
func siUnit(x float64, unit string) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprintf("%g %s", x, unit)
	}
	prefixes := []string{"p", "n", "µ", "m", "", "k", "M", "G", "T", "P"}
	e := int(math.Floor(math.Log10(math.Abs(x)) / 3))
	e = min(max(e, -4), 5)
	v := x / math.Pow(1000, float64(e))
	return strings.TrimSpace(fmt.Sprintf("%.3g %s%s", v, prefixes[e+4], unit))
}

// siBytes writes a size in bytes with a binary prefix.
func siBytes(b int64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", b>>30)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}
