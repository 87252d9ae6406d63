package sched

import (
	"fmt"
	"strconv"
	"strings"
)

// Marks are the code generation decisions of one loop group: how the
// loops the group becomes are printed. They sit on the group's Layout
// (hence on its band of the schedule tree, as layout_marks) and reach
// every loop of the group through LoopInfo.Marks, where code generation
// reads them; Decide fills them from Plan.Marks and the band's BandPlan.
// Every value is legal: a mark only asks for what the dependences allow
// (an OpenMP or SIMD loop only where LoopInfo says the loop is parallel,
// a factored reduction only where assoc proves its update).
type Marks struct {
	// Parallel marks the group's parallel loops: the outermost parallel
	// loop of a nest as an OpenMP loop, a parallel innermost one as a
	// SIMD loop.
	Parallel bool
	// NoSIMD drops those SIMD marks: the compiler's own vectorizer
	// decides.
	NoSIMD bool
	// Unroll, above 1, asks the compiler to unroll the group's innermost
	// loops that have no OpenMP mark by that factor (#pragma GCC unroll).
	Unroll int64
	// Jam is the register tile of a band: its outer point loops unrolled
	// by Jam[0] × Jam[1] and jammed into the innermost one (codegen's
	// UnrollJam); zero or one on both jams nothing.
	Jam [2]int64
	// Rfactor factors the reductions the group's loops carry, when assoc
	// proves their update associative (partial results per thread).
	Rfactor bool
	// Pack runs a matrix product whose outermost loop is the group's as
	// packed blocks (codegen.Packed).
	Pack bool
}

// String prints m as layout_marks shows it: the set flags and the
// numbers, "none" for the zero Marks.
func (m Marks) String() string {
	var fs []string
	if m.Parallel {
		fs = append(fs, "parallel")
	}
	if m.NoSIMD {
		fs = append(fs, "nosimd")
	}
	if m.Rfactor {
		fs = append(fs, "rfactor")
	}
	if m.Pack {
		fs = append(fs, "pack")
	}
	if m.Jam != [2]int64{} {
		fs = append(fs, fmt.Sprintf("jam=%dx%d", m.Jam[0], m.Jam[1]))
	}
	if m.Unroll != 0 {
		fs = append(fs, fmt.Sprintf("unroll=%d", m.Unroll))
	}
	if len(fs) == 0 {
		return "none"
	}
	return strings.Join(fs, " ")
}

// ParseMarks reads what Marks.String prints.
func ParseMarks(s string) (Marks, error) {
	var m Marks
	for _, f := range strings.Fields(s) {
		name, val, _ := strings.Cut(f, "=")
		switch name {
		case "none":
		case "parallel":
			m.Parallel = true
		case "nosimd":
			m.NoSIMD = true
		case "rfactor":
			m.Rfactor = true
		case "pack":
			m.Pack = true
		case "jam":
			r, c, ok := strings.Cut(val, "x")
			rows, err1 := strconv.ParseInt(r, 10, 64)
			cols, err2 := strconv.ParseInt(c, 10, 64)
			if !ok || err1 != nil || err2 != nil || rows < 0 || cols < 0 {
				return Marks{}, fmt.Errorf("jam=%s: want jam=ROWSxCOLS", val)
			}
			m.Jam = [2]int64{rows, cols}
		case "unroll":
			u, err := strconv.ParseInt(val, 10, 64)
			if err != nil || u < 0 {
				return Marks{}, fmt.Errorf("unroll=%s: want a factor", val)
			}
			m.Unroll = u
		default:
			return Marks{}, fmt.Errorf("unknown mark %q (the marks are parallel, nosimd, rfactor, pack, jam=RxC, unroll=N)", f)
		}
	}
	return m, nil
}

// marks returns the marks of a group of band b (0: a loop alone): the
// plan's, with the band's overrides.
func (plan Plan) marks(b int) Marks {
	m := plan.Marks
	if b == 0 {
		return m
	}
	bp := plan.band(b)
	m.Parallel = bp.Parallel.Or(m.Parallel)
	m.NoSIMD = !bp.SIMD.Or(!m.NoSIMD)
	m.Rfactor = bp.Rfactor.Or(m.Rfactor)
	m.Pack = bp.Pack.Or(m.Pack)
	if bp.Jam[0] > 0 && bp.Jam[1] > 0 {
		m.Jam = bp.Jam
	}
	if bp.Unroll > 0 {
		m.Unroll = bp.Unroll
	}
	return m
}
