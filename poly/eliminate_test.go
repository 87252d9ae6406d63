package poly

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// ratRow is a row over the rationals, for the brute-force oracle.
type ratRow struct {
	eq   bool
	coef []*big.Rat // variables, then the constant
}

// ratFeasible decides whether rows (over the rationals) have a solution,
// by Fourier–Motzkin in big.Rat: exact, exponential, fine for a few
// variables. It is independent of the simplex.
func ratFeasible(rows []ratRow) bool {
	if len(rows) == 0 {
		return true
	}
	nv := len(rows[0].coef) - 1
	for v := range nv {
		var next, lower, upper []ratRow
		pivot := -1
		for i, r := range rows {
			if r.eq && r.coef[v].Sign() != 0 {
				pivot = i
				break
			}
		}
		// r − (r_v / e_v)·e has no x_v.
		elim := func(r, e ratRow, eq bool) ratRow {
			f := new(big.Rat).Quo(r.coef[v], e.coef[v])
			c := make([]*big.Rat, len(r.coef))
			for k := range c {
				c[k] = new(big.Rat).Sub(r.coef[k], new(big.Rat).Mul(f, e.coef[k]))
			}
			return ratRow{eq: eq, coef: c}
		}
		for i, r := range rows {
			switch {
			case pivot >= 0:
				if i != pivot {
					next = append(next, elim(r, rows[pivot], r.eq))
				}
			case r.coef[v].Sign() > 0:
				lower = append(lower, r)
			case r.coef[v].Sign() < 0:
				upper = append(upper, r)
			default:
				next = append(next, r)
			}
		}
		for _, l := range lower {
			for _, u := range upper {
				// l/l_v + u/|u_v| ≥ 0 has no x_v: that is l − (l_v/u_v)·u.
				next = append(next, elim(l, u, false))
			}
		}
		rows = next
	}
	for _, r := range rows {
		s := r.coef[nv].Sign()
		if r.eq && s != 0 || s < 0 {
			return false
		}
	}
	return true
}

// TestEliminateRationalBruteForce compares EliminateRational with the
// rational Fourier–Motzkin oracle on every integer point of a box: a point
// of the kept variables satisfies the result exactly when some rational
// values of the eliminated ones extend it to a solution of the rows.
func TestEliminateRationalBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	for range propertyCases / 4 {
		nv := 1 + rng.IntN(5)
		keep := rng.IntN(nv + 1)
		rows := slices.Concat(randRows(rng, nv), randRows(rng, nv))
		out, err := EliminateRational(rows, nv, keep)
		if errors.Is(err, ErrLimit) || errors.Is(err, ErrOverflow) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		box(keep, 3, func(y []int64) {
			sub := make([]ratRow, len(rows))
			for i, r := range rows {
				c := make([]*big.Rat, nv-keep+1)
				k := big.NewRat(r.Coef[nv], 1)
				for v := range keep {
					k.Add(k, big.NewRat(r.Coef[v]*y[v], 1))
				}
				for v := keep; v < nv; v++ {
					c[v-keep] = big.NewRat(r.Coef[v], 1)
				}
				c[nv-keep] = k
				sub[i] = ratRow{eq: r.Eq, coef: c}
			}
			want := ratFeasible(sub)
			got := true
			for _, r := range out {
				v := eval(r.Coef, y)
				if r.Eq && v != 0 || v < 0 {
					got = false
				}
			}
			if got != want {
				t.Fatalf("rows %v, keep %d: at %v the projection %v says %v, want %v", rows, keep, y, out, got, want)
			}
		})
	}
}

// TestEliminateRationalNoTightening: the eliminated variables are rational
// (Farkas multipliers), so the projection of { 2λ ≥ 1, x ≥ λ } is x ≥ 1/2,
// which over integer x is x ≥ 1, but whose row must read 2x − 1 ≥ 0 and
// not be tightened while λ is still around (ProjectOutRational, which
// tightens every row as if all variables were integers, is not the same).
func TestEliminateRationalNoTightening(t *testing.T) {
	rows := []Constraint{
		{Coef: []int64{0, 2, -1}},  // 2λ − 1 ≥ 0
		{Coef: []int64{1, -1, 0}},  // x − λ ≥ 0
		{Coef: []int64{-1, -2, 5}}, // 5 − x − 2λ ≥ 0
	}
	out, err := EliminateRational(rows, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	// x ≥ λ ≥ 1/2 and x ≤ 5 − 2λ ≤ 4: 2x − 1 ≥ 0, 4 − x ≥ 0.
	want := []Constraint{{Coef: []int64{-1, 4}}, {Coef: []int64{2, -1}}}
	if !slices.EqualFunc(out, want, func(a, b Constraint) bool { return a.Eq == b.Eq && slices.Equal(a.Coef, b.Coef) }) {
		t.Fatalf("got %v, want %v", out, want)
	}
}

// TestImpliedMatchesPrimal checks implied (the dual linear program)
// against the primal one: a system is infeasible exactly when it implies
// −1 ≥ 0, and r is implied by a feasible system exactly when its minimum
// over the system is ≥ 0.
func TestImpliedMatchesPrimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	for range propertyCases {
		nv := 1 + rng.IntN(4)
		rows := slices.Concat(randRows(rng, nv), randRows(rng, nv))
		if got, want := implied(rows, nv, falseRow(nv)[0], nil), !lpFeasible(rows, nv); got != want {
			t.Fatalf("rows %v infeasible: got %v, want %v", rows, got, want)
		} else if got {
			continue // implied needs a feasible system
		}
		r := randRows(rng, nv)[0]
		r.Eq = false
		got := implied(rows, nv, r, nil)
		want := false
		if st, _, val := lpMin(rows, nv, r.Coef[:nv]); st == lpOptimal {
			want = val.add(ri(r.Coef[nv])).sign() >= 0
		}
		if got != want {
			t.Fatalf("rows %v imply %v: got %v, want %v", rows, r, got, want)
		}
	}
}

// TestLexMatchesSequential compares the lexicographic branch and bound with
// the definition (minimize x_0, fix it, minimize x_1, ...) on sets that need
// not be bounded, where unboundedness off the minimum's path must not
// change the answer.
func TestLexMatchesSequential(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for range propertyCases {
		nd := 1 + rng.IntN(4)
		sp := randSpace(nd, 0)
		rows := slices.Concat(randRows(rng, nd), randRows(rng, nd))
		s, err := NewSet(sp, rows...)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range []int64{1, -1} {
			got, ok, err := s.lex(nil, dir, nil)
			if errors.Is(err, ErrLimit) {
				continue
			}
			want, wantOK, wantErr := sequentialLex(s, dir)
			if errors.Is(wantErr, ErrLimit) {
				continue
			}
			if !errors.Is(err, wantErr) || ok != wantOK || !slices.Equal(got, want) {
				t.Fatalf("%v dir %d: got %v %v %v, want %v %v %v", s, dir, got, ok, err, want, wantOK, wantErr)
			}
		}
	}
}

// sequentialLex is the lexicographic extremum by its definition.
func sequentialLex(s *Set, dir int64) (point []int64, ok bool, err error) {
	defer catch(&err)
	if s.empty {
		return nil, false, nil
	}
	nd := s.space.NDim()
	lat, ineqs, feasible := solveEqualities(s.rows, nd)
	if !feasible {
		return nil, false, nil
	}
	var forms [][]int64
	for i := range nd {
		f := make([]int64, lat.k)
		for j := range f {
			f[j] = dir * lat.m[i][j]
		}
		if !allZero(f) {
			forms = append(forms, f)
		}
	}
	return lexSequential(lat, ineqs, forms)
}
