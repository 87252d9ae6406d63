package poly

// lpStatus is the outcome of a linear program.
type lpStatus int

const (
	lpInfeasible lpStatus = iota
	lpOptimal
	lpUnbounded
)

// lpMin minimizes obj·x over the rational points x ∈ Q^nv satisfying rows
// (each Coef has nv+1 entries, the last the constant). It returns the status
// and, when optimal, an optimal vertex x and the optimal value.
//
// Standard form: each free x_j is split as x_j = xp_j - xn_j with xp, xn >= 0;
// an inequality a·x + c >= 0 gets a surplus s >= 0 with a·x - s = -c; an
// equality becomes a·x = -c. Rows with a negative right-hand side are negated,
// so b >= 0, and an artificial variable per row gives the starting basis.
// Phase 1 minimizes the sum of artificials (the problem is feasible iff the
// minimum is 0); phase 2 minimizes obj with artificials barred from entering.
// Both phases use Bland's rule (smallest entering index with negative reduced
// cost; among tied ratios, the smallest basic index leaves), which cannot
// cycle, so the method terminates. All arithmetic is exact rational.
func lpMin(rows []Constraint, nv int, obj []int64) (lpStatus, []rat, rat) {
	m := len(rows)
	nSlack := 0
	for _, r := range rows {
		if !r.Eq {
			nSlack++
		}
	}
	nReal := 2*nv + nSlack // columns that are not artificial
	nCol := nReal + m
	t := &tableau{m: m, n: nCol, a: make([][]rat, m), b: make([]rat, m), basis: make([]int, m)}
	slack := 2 * nv
	for i, r := range rows {
		row := make([]rat, nCol)
		for j := range nCol {
			row[j] = rat{0, 1}
		}
		for j := range nv {
			row[j] = ri(r.Coef[j])
			row[nv+j] = ri(neg(r.Coef[j]))
		}
		if !r.Eq {
			row[slack] = ri(-1)
			slack++
		}
		rhs := ri(neg(r.Coef[nv]))
		if rhs.sign() < 0 {
			for j := range row {
				row[j] = row[j].neg()
			}
			rhs = rhs.neg()
		}
		row[nReal+i] = ri(1)
		t.a[i], t.b[i], t.basis[i] = row, rhs, nReal+i
	}

	// Phase 1: cost 1 on every artificial.
	c1 := make([]rat, nCol)
	for j := range nCol {
		c1[j] = rat{0, 1}
		if j >= nReal {
			c1[j] = ri(1)
		}
	}
	if t.run(c1, nCol) == lpUnbounded {
		panic("poly: internal error: phase 1 unbounded")
	}
	if t.value(c1).sign() != 0 {
		return lpInfeasible, nil, rat{}
	}
	t.evictArtificials(nReal)

	// Phase 2.
	c2 := make([]rat, nCol)
	for j := range nCol {
		c2[j] = rat{0, 1}
	}
	for j := range nv {
		c2[j] = ri(obj[j])
		c2[nv+j] = ri(neg(obj[j]))
	}
	if t.run(c2, nReal) == lpUnbounded {
		return lpUnbounded, nil, rat{}
	}
	val := make([]rat, nCol)
	for j := range val {
		val[j] = rat{0, 1}
	}
	for i, bv := range t.basis {
		val[bv] = t.b[i]
	}
	x := make([]rat, nv)
	for j := range nv {
		x[j] = val[j].sub(val[nv+j])
	}
	return lpOptimal, x, t.value(c2)
}

// tableau is a dense simplex tableau: row i reads
// x_basis[i] + Σ_{j nonbasic} a[i][j] x_j = b[i], with b >= 0.
type tableau struct {
	m, n  int
	a     [][]rat
	b     []rat
	basis []int
}

// value returns c·x at the current basic solution.
func (t *tableau) value(c []rat) rat {
	v := rat{0, 1}
	for i, bv := range t.basis {
		v = v.add(c[bv].mul(t.b[i]))
	}
	return v
}

// reduced returns the reduced cost of column j: c_j - Σ_i c_basis[i] a[i][j].
func (t *tableau) reduced(c []rat, j int) rat {
	d := c[j]
	for i, bv := range t.basis {
		if t.a[i][j].sign() != 0 {
			d = d.sub(c[bv].mul(t.a[i][j]))
		}
	}
	return d
}

// run minimizes c with Bland's rule, letting only columns < enter enter.
func (t *tableau) run(c []rat, enter int) lpStatus {
	for {
		col := -1
		for j := range enter {
			if t.isBasic(j) {
				continue
			}
			if t.reduced(c, j).sign() < 0 {
				col = j
				break
			}
		}
		if col < 0 {
			return lpOptimal
		}
		row := -1
		var best rat
		for i := range t.m {
			if t.a[i][col].sign() <= 0 {
				continue
			}
			q := t.b[i].div(t.a[i][col])
			if row < 0 {
				row, best = i, q
				continue
			}
			if d := q.cmp(best); d < 0 || (d == 0 && t.basis[i] < t.basis[row]) {
				row, best = i, q
			}
		}
		if row < 0 {
			return lpUnbounded
		}
		t.pivot(row, col)
	}
}

func (t *tableau) isBasic(j int) bool {
	for _, bv := range t.basis {
		if bv == j {
			return true
		}
	}
	return false
}

// pivot makes column col basic in row r: divide row r by the pivot p, then
// subtract a[i][col] times row r from every other row i.
func (t *tableau) pivot(r, col int) {
	p := t.a[r][col]
	inv := p.inv()
	for j := range t.n {
		if t.a[r][j].sign() != 0 {
			t.a[r][j] = t.a[r][j].mul(inv)
		}
	}
	t.b[r] = t.b[r].mul(inv)
	for i := range t.m {
		f := t.a[i][col]
		if i == r || f.sign() == 0 {
			continue
		}
		for j := range t.n {
			if t.a[r][j].sign() != 0 {
				t.a[i][j] = t.a[i][j].sub(f.mul(t.a[r][j]))
			}
		}
		t.b[i] = t.b[i].sub(f.mul(t.b[r]))
	}
	t.basis[r] = col
}

// evictArtificials pivots every artificial still basic (at value 0 after a
// successful phase 1) out on any nonzero real column of its row. A row with
// no such column is a redundant equation; its artificial stays basic at 0 and
// never limits a ratio test because its real entries are all 0.
func (t *tableau) evictArtificials(nReal int) {
	for i := range t.m {
		if t.basis[i] < nReal {
			continue
		}
		for j := range nReal {
			if t.a[i][j].sign() != 0 && !t.isBasic(j) {
				t.pivot(i, j)
				break
			}
		}
	}
}
