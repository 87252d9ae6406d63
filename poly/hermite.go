package poly

// lattice is the integer solution set of a system of equalities, written as
// x = X0 + M·z for z ∈ Z^k: every integer x satisfying the equalities has
// exactly one such z, and every z gives one.
type lattice struct {
	m  [][]int64 // n×k
	x0 []int64   // n
	k  int
}

// apply returns X0 + M·z.
func (l *lattice) apply(z []int64) []int64 {
	x := make([]int64, len(l.x0))
	for i := range x {
		x[i] = l.x0[i]
		for j, v := range z {
			x[i] = add(x[i], mul(l.m[i][j], v))
		}
	}
	return x
}

// solveEqualities computes the integer solutions of the equalities among rows
// (over nv variables) and rewrites the inequalities in terms of z. ok is false
// when the equalities have no integer solution or an inequality becomes false.
//
// Column-style Hermite reduction: with U = I, apply unimodular column
// operations (swaps and col_j -= q·col_p) to the equality matrix A, tracking
// them in U, until A·U is in column echelon form: each row r either has a
// pivot column p_r with zeros to its right, or is zero from the next pivot on.
// The reduction of a row is Euclid's algorithm over its entries. With x = U·y,
// A·x + c = 0 becomes A·U·y + c = 0, solved for the pivot y's one row at a
// time by exact division (a non-integer quotient means no integer solution)
// and a consistency check on rows without a pivot. The non-pivot y's are free:
// they are z. Since U is unimodular, x ↦ y is a bijection of Z^n.
func solveEqualities(rows []Constraint, nv int) (lat *lattice, ineqs []Constraint, ok bool) {
	var eqs [][]int64
	for _, r := range rows {
		if r.Eq {
			eqs = append(eqs, append([]int64(nil), r.Coef...))
		}
	}
	u := make([][]int64, nv)
	for i := range u {
		u[i] = make([]int64, nv)
		u[i][i] = 1
	}
	colOp := func(j, p int, q int64) { // col_j -= q·col_p, in A and U
		for _, e := range eqs {
			e[j] = sub(e[j], mul(q, e[p]))
		}
		for _, ur := range u {
			ur[j] = sub(ur[j], mul(q, ur[p]))
		}
	}
	swap := func(j, p int) {
		for _, e := range eqs {
			e[j], e[p] = e[p], e[j]
		}
		for _, ur := range u {
			ur[j], ur[p] = ur[p], ur[j]
		}
	}
	piv := 0
	pivotOf := make([]int, len(eqs)) // pivot column of each row, or -1
	for r, e := range eqs {
		pivotOf[r] = -1
		for {
			best := -1
			for j := piv; j < nv; j++ {
				if e[j] != 0 && (best < 0 || abs(e[j]) < abs(e[best])) {
					best = j
				}
			}
			if best < 0 {
				break
			}
			if best != piv {
				swap(best, piv)
			}
			done := true
			for j := piv + 1; j < nv; j++ {
				if e[j] != 0 {
					colOp(j, piv, e[j]/e[piv])
					done = done && e[j] == 0
				}
			}
			if done {
				pivotOf[r] = piv
				piv++
				break
			}
		}
	}
	// Solve for the pivot y's in order.
	y := make([]int64, piv)
	for r, e := range eqs {
		s := e[nv]
		for j := 0; j < piv && j < nv; j++ {
			if j != pivotOf[r] && e[j] != 0 {
				s = add(s, mul(e[j], y[j]))
			}
		}
		p := pivotOf[r]
		if p < 0 {
			if s != 0 {
				return nil, nil, false
			}
			continue
		}
		if s%e[p] != 0 {
			return nil, nil, false
		}
		y[p] = neg(s) / e[p]
	}
	// x = U[:, :piv]·y + U[:, piv:]·z.
	k := nv - piv
	lat = &lattice{m: make([][]int64, nv), x0: make([]int64, nv), k: k}
	for i := range nv {
		for j := range piv {
			lat.x0[i] = add(lat.x0[i], mul(u[i][j], y[j]))
		}
		lat.m[i] = append([]int64(nil), u[i][piv:]...)
	}
	for _, r := range rows {
		if r.Eq {
			continue
		}
		c := make([]int64, k+1)
		c[k] = eval(r.Coef, lat.x0)
		for i, a := range r.Coef[:nv] { // rows and M are sparse
			if a == 0 {
				continue
			}
			for j, m := range lat.m[i] {
				if m != 0 {
					c[j] = add(c[j], mul(a, m))
				}
			}
		}
		row := Constraint{Coef: c}
		switch normalize(&row) {
		case rowFalse:
			return nil, nil, false
		case rowTrue:
			continue
		}
		ineqs = append(ineqs, row)
	}
	return lat, ineqs, true
}
