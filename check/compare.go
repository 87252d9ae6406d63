package check

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"nestor/ir"
)

// Tolerances of the floating-point comparison. An element passes when
//
//	|orig - opt| / max(|orig|, |opt|, floor) <= rtol
//
// where floor = max(absFloor, relFloorFrac * the largest |orig| of the
// array). Reordering a sum of n terms changes it by about n·ε times the
// magnitude of its terms, not of the result; the floor keeps elements that
// cancel to nearly zero from failing on that noise.
const (
	// RTolDouble is the default tolerance for double and long double: well
	// above reassociation noise (n·2⁻⁵³ for sums of a few thousand terms),
	// well below any wrong statement.
	RTolDouble = 1e-9
	// RTolFloat is the default tolerance for float (2⁻²⁴ ≈ 6e-8 per
	// rounding).
	RTolFloat = 1e-4
	// relFloorFrac: elements smaller than this fraction of the array's
	// largest magnitude are judged relative to that fraction.
	relFloorFrac = 1e-3
	// absFloor keeps the denominator positive when an array is all zeros.
	absFloor = 1e-30
)

// compareData compares the outputs of the original (a) and the optimized
// (b) harness, array by array.
func compareData(h *harness, a, b *Data, opt Options) ([]ArrayResult, bool, error) {
	match := true
	var out []ArrayResult
	for _, x := range a.Arrays {
		y := b.Array(x.Name)
		if y == nil {
			return nil, false, fmt.Errorf("check: optimized harness did not write array %s", x.Name)
		}
		if !equalDims(x.Dims, y.Dims) {
			return nil, false, fmt.Errorf("check: array %s has sizes %v in the original and %v in the optimized program", x.Name, x.Dims, y.Dims)
		}
		r := compareArray(x, y, opt.RTol, opt.Exact)
		v := h.value(x.Name)
		if v == nil {
			v = h.local(x.Name)
		}
		r.Written = v != nil && v.written
		match = match && r.Mismatches == 0
		out = append(out, r)
	}
	return out, match, nil
}

func equalDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// compareArray compares x (original) with y (optimized); rtol > 0
// overrides the default tolerance, exact makes it 0 (values must be equal).
func compareArray(x, y *ArrayData, rtol float64, exact bool) ArrayResult {
	n := x.Len()
	r := ArrayResult{Name: x.Name, Elem: x.Elem, Dims: x.Dims, Count: n, Exact: !x.Elem.IsFloat()}
	worst := -1
	if r.Exact {
		for k := range n {
			if a, b := x.At(k), y.At(k); a.I != b.I {
				r.Mismatches++
				if worst < 0 {
					worst = k
				}
			}
		}
	} else {
		r.RTol = rtol
		switch {
		case exact:
			r.RTol = 0
		case r.RTol <= 0:
			r.RTol = RTolDouble
			if x.Elem == ir.Float {
				r.RTol = RTolFloat
			}
		}
		floor := absFloor
		for k := range n {
			if v := math.Abs(x.At(k).F); !math.IsInf(v, 0) && !math.IsNaN(v) {
				floor = max(floor, relFloorFrac*v)
			}
		}
		for k := range n {
			e := relErr(x.At(k).F, y.At(k).F, floor)
			if e > r.RTol {
				r.Mismatches++
			}
			if e > 0 && (worst < 0 || e > r.RelErr) {
				worst, r.RelErr = k, e
			}
		}
	}
	if worst >= 0 {
		r.Worst, r.Orig, r.Opt = x.Index(worst), x.At(worst), y.At(worst)
	}
	return r
}

// relErr is the relative difference of a and b (see RTolDouble): 0 when
// they are equal, NaN and NaN included; +Inf when only one is NaN, or they
// differ and one is infinite.
func relErr(a, b, floor float64) float64 {
	switch {
	case math.IsNaN(a) || math.IsNaN(b):
		if math.IsNaN(a) && math.IsNaN(b) {
			return 0
		}
		return math.Inf(1)
	case a == b:
		return 0
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return math.Inf(1)
	}
	return math.Abs(a-b) / max(math.Abs(a), math.Abs(b), floor)
}

// Format writes a compact report: one line per written array (and per
// read-only array that changed), then the times.
func (r *Result) Format(w io.Writer) {
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", s)
	}
	width := 0
	for _, a := range r.Arrays {
		width = max(width, len(a.Name))
	}
	for _, a := range r.Arrays {
		if !a.Written && a.Mismatches == 0 {
			continue
		}
		shape := a.Elem.String() + dimString(a.Dims)
		var status string
		switch {
		case a.Mismatches > 0 && a.Exact:
			status = fmt.Sprintf("MISMATCH %d of %d, first at %s: original %v, nestor %v", a.Mismatches, a.Count, a.at(), a.Orig, a.Opt)
		case a.Mismatches > 0 && a.Reference != nil && a.Reference.Explained:
			status = fmt.Sprintf("ok, %d of %d beyond rel err %.2g of each other (worst %.2g at %s), but against the long double reference original %.2g, nestor %.2g: %s closer",
				a.Mismatches, a.Count, a.RTol, a.RelErr, a.at(), a.Reference.OrigErr, a.Reference.OptErr, a.Reference.Closer())
		case a.Mismatches > 0:
			status = fmt.Sprintf("MISMATCH %d of %d, worst at %s: original %v, nestor %v, rel err %.2g > %.2g", a.Mismatches, a.Count, a.at(), a.Orig, a.Opt, a.RelErr, a.RTol)
			if r := a.Reference; r != nil {
				status += fmt.Sprintf("; against the long double reference original %.2g, nestor %.2g", r.OrigErr, r.OptErr)
			}
		case a.Exact || a.Worst == nil:
			status = "equal"
		default:
			status = fmt.Sprintf("ok, max rel err %.2g at %s", a.RelErr, a.at())
		}
		if !a.Written {
			status += " (read-only)"
		}
		fmt.Fprintf(w, "%-*s  %-20s %s\n", width, a.Name, shape, status)
	}
	timings := r.Timings
	if len(timings) == 0 {
		timings = []Timing{{Threads: 0, Orig: r.Orig, Opt: r.Opt, Speedup: r.Speedup, Runs: r.Runs}}
	}
	for _, t := range timings {
		threads := "default threads"
		switch {
		case t.Threads == 1:
			threads = "1 thread"
		case t.Threads > 1:
			threads = fmt.Sprintf("%d threads", t.Threads)
		}
		fmt.Fprintf(w, "%s: original %s, nestor %s, speedup %.2fx (median of %d)\n", threads, ms(t.Orig), ms(t.Opt), t.Speedup, t.Runs)
	}
	if !r.Match {
		fmt.Fprint(w, "FAIL: results differ")
		if r.Dir != "" {
			fmt.Fprintf(w, " (harness kept in %s)", r.Dir)
		}
		fmt.Fprintln(w)
	}
}

func (a *ArrayResult) at() string {
	if len(a.Worst) == 0 {
		return a.Name
	}
	return a.Name + dimString(a.Worst)
}

func dimString(ds []int64) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "[%d]", d)
	}
	return b.String()
}

// ms prints d with three significant digits in µs, ms or s.
func ms(d time.Duration) string {
	x := float64(d)
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.3g µs", x/float64(time.Microsecond))
	case d < 10*time.Second:
		return strings.TrimSuffix(fmt.Sprintf("%.4g", x/float64(time.Millisecond)), ".") + " ms"
	}
	return fmt.Sprintf("%.3g s", x/float64(time.Second))
}
