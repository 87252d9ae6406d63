package codegen

import (
	"fmt"

	"nestor/ir"
	"nestor/model"
)

// forkLeast returns the fewest innermost iterations, estimated as fork.go
// does, for which a fork of OpenMP loop l pays on the machine the code is
// laid out for: model.Machine.ForkWork of what one iteration of the
// innermost body under l does (iterBody), with the machine's cores as the
// team. Every fork here may wake a sleeping team (OpenMP's passive wait,
// which nestor check and bench run with and a shared machine wants), so
// the cost to repay is WakeCost, not the active-wait ForkJoin: on the
// 2-vCPU KVM guest nestor is measured on, 36–72 µs against 1 µs. A
// stencil's update there (five loads, a store and five operations a
// point, a stream of 16 bytes: 0.19 ns at the measured rates) needs 2^19
// points, gemm's inner loop (three operations, 16 bytes loaded) 2^20.
func (pr *printer) forkLeast(l *Loop) int64 {
	m := pr.machine
	return m.ForkWork(pr.iterBody(l), m.Cores)
}

// iterBody returns what one iteration of the innermost loop under l does:
// the loop reached from l by following widestLoop, as the work estimate
// does (below it, loops of one iteration only), and the statement
// instances of its body (through guards and blocks, not nested loops).
// Each instance counts its arithmetic operations (casts are free, a call
// counts one: a lower bound), the bytes of the distinct elements it reads
// that move with the innermost counter (one that does not is read once,
// before the loop, by the compiler or by scalar replacement) and those of
// the element it writes when that moves too, as unit-stride bytes or, for
// an access the counter moves by more than one element, as gathered or
// scattered ones (unitStride). Stream counts the bytes of
// the accesses that name a new element at every iteration of the whole
// nest (streams): their footprint grows with the work, and past a cache's
// size they come from the level below. A stream both read and written
// counts twice (its lines come in and go back out).
func (pr *printer) iterBody(l *Loop) model.Body {
	inner, levels := l, []int{l.Level}
	for next := pr.widestLoop(inner.Body, l.Level, nil); next != nil; next = pr.widestLoop(next.Body, l.Level, nil) {
		inner = next
		if c, expr, ok := pr.tripCount(next, l.Level); !ok || expr != "" || c > 1 {
			levels = append(levels, next.Level) // not a loop of one iteration, which code generation elides
		}
	}
	var b model.Body
	seen := map[string]bool{}
	var walk func(ns []Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Instance:
				pr.addInstance(&b, n, levels, seen)
			case *If:
				walk(n.Body)
			case *Block:
				walk(n.Body)
			}
		}
	}
	walk(inner.Body)
	return b
}

// addInstance adds instance in's work to b; levels are the counters of the
// nest's loops, the innermost last, and seen the elements and streams
// already counted.
func (pr *printer) addInstance(b *model.Body, in *Instance, levels []int, seen map[string]bool) {
	s := pr.p.Stmts[in.Stmt]
	weight := func(t ir.Type) float64 {
		if sz := t.Size(); sz > 0 && sz < 8 {
			return float64(sz) / 8
		}
		return 1
	}
	var ops func(e ir.Expr)
	ops = func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.Unary:
			b.Ops += weight(e.Type())
			ops(e.X)
		case *ir.Binary:
			b.Ops += weight(e.Type())
			ops(e.X)
			ops(e.Y)
		case *ir.Cond:
			b.Ops += weight(e.Type())
			ops(e.C)
			ops(e.X)
			ops(e.Y)
		case *ir.Call:
			b.Ops += weight(e.Type())
			for _, a := range e.Args {
				ops(a)
			}
		case *ir.Cast:
			ops(e.X)
		}
	}
	ops(s.Value(pr.p))
	innermost := levels[len(levels)-1]
	for k, a := range s.Accesses {
		index := make([]ir.Aff, len(a.Index))
		moves := false
		for d, x := range a.Index {
			index[d] = compose(x, in.Iters)
			moves = moves || coef(index[d], innermost) != 0
		}
		if !moves {
			continue
		}
		bytes := float64(pr.p.Arrays[a.Array].Elem.Size())
		if key := fmt.Sprint("element ", a.Array, k == 0, index); !seen[key] {
			seen[key] = true
			unit := unitStride(index, innermost)
			switch {
			case k == 0 && unit:
				b.Store += bytes
			case k == 0:
				b.Scatter += bytes
			case unit:
				b.Load += bytes
			default:
				b.Gather += bytes
			}
		}
		if key, ok := streamKey(a.Array, index, levels); ok && !seen[fmt.Sprint(key, k == 0)] {
			// A written stream moves its bytes twice: in, and back out.
			seen[fmt.Sprint(key, k == 0)] = true
			b.Stream += bytes
		}
	}
}

// streamKey reports whether an access with subscripts index (over the
// loops' counters) names a new element at every iteration of the nest
// whose counters are levels: each subscript reads at most one of them and
// each is read by one (A[i][j], A[j][i - 1]; not A[i + j] nor A[i]). The key
// names the stream, the same for accesses that differ in constants only
// (a stencil's neighbours share one footprint).
func streamKey(array int, index []ir.Aff, levels []int) (string, bool) {
	read := map[int]bool{}
	key := fmt.Sprint("stream ", array)
	for _, x := range index {
		n := 0
		for _, lv := range levels {
			if c := coef(x, lv); c != 0 {
				n++
				read[lv] = true
				key += fmt.Sprintf(" %d:%d", lv, c)
			}
		}
		if n > 1 {
			return "", false
		}
		key += ";"
	}
	return key, len(read) == len(levels)
}

// unitStride reports whether the innermost counter moves an access with
// subscripts index by one element at a time (forwards or backwards): it
// reads the counter in the last subscript only, with coefficient ±1.
// Any other access that moves (A[j][i] under loop j, A[2*i]) loads or
// stores an element at a time.
func unitStride(index []ir.Aff, innermost int) bool {
	for d, x := range index {
		c := coef(x, innermost)
		if d < len(index)-1 && c != 0 || d == len(index)-1 && c != 1 && c != -1 {
			return false
		}
	}
	return len(index) > 0
}

// coef returns the coefficient of the counter at level in x.
func coef(x ir.Aff, level int) int64 {
	if level < len(x.Iter) {
		return x.Iter[level]
	}
	return 0
}
