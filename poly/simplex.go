package poly

import (
	"math/bits"
	"nestor/internal/intmath"
)

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
// so b >= 0. An inequality satisfied at x = 0 (c >= 0) starts with its
// surplus basic (the row negated: s - a·x = c); every other row gets an
// artificial variable for the starting basis.
// Phase 1 minimizes the sum of artificials (the problem is feasible iff the
// minimum is 0; an artificial that leaves the basis is dropped, which fixes it
// at 0 and keeps that equivalence); phase 2 minimizes obj.
//
// The tableau is fraction-free (see tableau): every entry is an int64 and each
// row has one positive denominator, so a pivot is checked integer multiply and
// subtract plus one gcd normalization per row. The objective is kept as an
// extra row updated by the pivots, so reduced costs are never recomputed. The
// entering column is the most negative reduced cost (Dantzig); after a run of
// degenerate pivots the method switches to Bland's rule (smallest entering
// index, ties in the ratio test broken by the smallest basic index), which
// cannot cycle, so the method terminates. All arithmetic is exact.
func lpMin(rows []Constraint, nv int, obj []int64) (lpStatus, []rat, rat) {
	t := newTableau(rows, nv)
	if !t.phase1() {
		return lpInfeasible, nil, rat{}
	}
	return t.phase2(obj)
}

// lpFeasible reports whether rows have a rational point.
func lpFeasible(rows []Constraint, nv int) bool {
	return newTableau(rows, nv).phase1()
}

// tableau is a dense fraction-free simplex tableau. Row i (i < m) reads
//
//	x_basis[i] + Σ_j (a[i][j]/d[i]) x_j = a[i][n]/d[i]
//
// with a[i][basis[i]] = d[i] > 0 and a[i][n] >= 0; basis[i] < 0 marks an
// artificial variable (whose column is not stored). Row m is the objective:
// z = -a[m][n]/d[m] + Σ_j (a[m][j]/d[m]) x_j over the nonbasic x_j, the
// a[m][j]/d[m] being the reduced costs.
type tableau struct {
	nv    int
	m, n  int
	a     [][]int64 // m+1 rows of n+1 entries
	d     []int64   // m+1 positive denominators
	basis []int     // basic column of each row, -1 for an artificial
	row   []int     // row of each basic column, -1 when nonbasic
	// frozen marks nonbasic columns held at 0: they never enter the basis
	// (nil: none). See lexmin.
	frozen []bool
	// work is charged (m+1)·(n+1) per pivot; nil: unlimited.
	work *Work
}

func newTableau(rows []Constraint, nv int) *tableau {
	m := len(rows)
	nSlack := 0
	for _, r := range rows {
		if !r.Eq {
			nSlack++
		}
	}
	n := 2*nv + nSlack
	w := n + 1
	buf := make([]int64, (m+1)*w)
	t := &tableau{nv: nv, m: m, n: n, a: make([][]int64, m+1), d: make([]int64, m+1),
		basis: make([]int, m), row: make([]int, n)}
	for j := range t.row {
		t.row[j] = -1
	}
	slack := 2 * nv
	for i, r := range rows {
		row := buf[i*w : (i+1)*w : (i+1)*w]
		for j := range nv {
			row[j] = check(r.Coef[j])
			row[nv+j] = neg(r.Coef[j])
		}
		t.a[i], t.d[i], t.basis[i] = row, 1, -1
		row[n] = neg(r.Coef[nv])
		if !r.Eq {
			row[slack] = -1
			if row[n] <= 0 {
				// Satisfied at x = 0: negated, the row reads s − a·x = c
				// with c ≥ 0, so its slack starts basic and the row needs
				// no artificial.
				for j := range row {
					row[j] = -row[j]
				}
				t.basis[i], t.row[slack] = slack, i
			}
			slack++
		} else if row[n] < 0 {
			for j := range row {
				row[j] = -row[j]
			}
		}
	}
	t.a[m] = buf[m*w : (m+1)*w : (m+1)*w]
	t.d[m] = 1
	return t
}

// phase1 minimizes the sum of the artificials and reports whether the minimum
// is 0. On success, no artificial is basic: each one left at 0 is pivoted out
// on a nonzero column of its row, and rows with no such column (redundant
// equations) are deleted.
func (t *tableau) phase1() bool {
	z := t.a[t.m]
	for i := range t.m { // z = Σ art_i = Σ_i (b_i - row_i·x), rows with an artificial
		if t.basis[i] >= 0 {
			continue
		}
		for j, v := range t.a[i] {
			if v != 0 {
				if j == t.n {
					z[j] = add(z[j], v)
				} else {
					z[j] = sub(z[j], v)
				}
			}
		}
	}
	z[t.n] = neg(z[t.n]) // store -z0
	t.run()
	if t.a[t.m][t.n] != 0 {
		return false
	}
	for i := 0; i < t.m; {
		if t.basis[i] >= 0 {
			i++
			continue
		}
		col := -1
		for j := range t.n {
			if t.a[i][j] != 0 {
				col = j
				break
			}
		}
		if col >= 0 {
			t.pivot(i, col)
			i++
			continue
		}
		t.deleteRow(i)
	}
	return true
}

// deleteRow removes row i (a redundant all-zero row with an artificial basis).
func (t *tableau) deleteRow(i int) {
	last := t.m - 1
	if i != last {
		t.a[i], t.a[last] = t.a[last], t.a[i]
		t.d[i], t.d[last] = t.d[last], t.d[i]
		t.basis[i] = t.basis[last]
		if b := t.basis[i]; b >= 0 {
			t.row[b] = i
		}
	}
	// Move the objective row down.
	t.a[last], t.a[t.m] = t.a[t.m], t.a[last]
	t.d[last], t.d[t.m] = t.d[t.m], t.d[last]
	t.m--
	t.a = t.a[:t.m+1]
	t.d = t.d[:t.m+1]
	t.basis = t.basis[:t.m]
}

// phase2 minimizes obj·x from the feasible basis left by phase1.
func (t *tableau) phase2(obj []int64) (lpStatus, []rat, rat) {
	nv := t.nv
	z := t.a[t.m]
	clear(z)
	for j := range nv {
		z[j] = check(obj[j])
		z[nv+j] = neg(obj[j])
	}
	if !t.minimize() {
		return lpUnbounded, nil, rat{}
	}
	x, val := t.solution()
	return lpOptimal, x, val
}

// minimize minimizes the objective whose cost per column the objective
// row holds (over denominator 1) from a feasible basis; it reports false
// when the objective is unbounded below.
func (t *tableau) minimize() bool {
	z := t.a[t.m]
	dz := int64(1)
	// Express z in the nonbasic columns: z -= c_B(i)·row_i for each basic
	// column with a nonzero cost, over the common denominator dz.
	for i := range t.m {
		bv := t.basis[i]
		c := z[bv]
		if c == 0 {
			continue
		}
		// z/dz - (c/dz)·row_i/d_i: scale z by d_i/g and row_i by c/g.
		g := intmath.Gcd(c, t.a[i][bv])
		f, p := c/g, t.a[i][bv]/g
		ri := t.a[i]
		for j := range z {
			z[j] = mulSub(z[j], p, f, ri[j])
		}
		dz = mul(dz, p)
		dz = normRow(z, dz)
	}
	t.d[t.m] = dz
	return t.run()
}

// lpMinStd minimizes cost·y over { y ∈ Q^n : y ≥ 0, A·y = b } (A given
// by its m rows of n entries), the standard form, with no column split
// and no slack, so that a problem with few rows and many columns (the dual
// of a system with few variables and many inequalities) has a small
// tableau. On lpOptimal it returns the optimal value. Its pivots are
// charged to work.
func lpMinStd(A [][]int64, b []int64, cost []int64, work *Work) (lpStatus, rat) {
	m, n := len(A), len(cost)
	w := n + 1
	buf := make([]int64, (m+1)*w)
	t := &tableau{m: m, n: n, a: make([][]int64, m+1), d: make([]int64, m+1),
		basis: make([]int, m), row: make([]int, n), work: work}
	for j := range t.row {
		t.row[j] = -1
	}
	for i, ai := range A {
		row := buf[i*w : (i+1)*w : (i+1)*w]
		for j, v := range ai {
			row[j] = check(v)
		}
		row[n] = check(b[i])
		if row[n] < 0 {
			for j := range row {
				row[j] = -row[j]
			}
		}
		t.a[i], t.d[i], t.basis[i] = row, 1, -1
	}
	t.a[m] = buf[m*w : (m+1)*w : (m+1)*w]
	t.d[m] = 1
	if !t.phase1() {
		return lpInfeasible, rat{}
	}
	z := t.a[t.m]
	clear(z)
	for j, c := range cost {
		z[j] = check(c)
	}
	if !t.minimize() {
		return lpUnbounded, rat{}
	}
	return lpOptimal, mkrat(neg(t.a[t.m][t.n]), t.d[t.m])
}

// value returns the value of column j at the current basic solution.
func (t *tableau) value(j int) rat {
	i := t.row[j]
	if i < 0 {
		return rat{0, 1}
	}
	return mkrat(t.a[i][t.n], t.d[i])
}

// blandAfter is the number of consecutive degenerate pivots after which run
// switches from the largest-coefficient rule to Bland's rule.
const blandAfter = 50

// run minimizes the objective row; it returns false when it is unbounded.
func (t *tableau) run() bool {
	degenerate := 0
	z := t.a[t.m]
	for {
		bland := degenerate >= blandAfter
		col := -1
		for j := range t.n {
			if z[j] >= 0 || t.row[j] >= 0 || t.frozen != nil && t.frozen[j] {
				continue
			}
			if bland {
				col = j
				break
			}
			if col < 0 || z[j] < z[col] {
				col = j
			}
		}
		if col < 0 {
			return true
		}
		r := -1
		for i := range t.m {
			ai := t.a[i]
			if ai[col] <= 0 {
				continue
			}
			if r < 0 {
				r = i
				continue
			}
			// Compare b_i/a_ic with b_r/a_rc exactly in 128 bits.
			if c := cmpFrac(ai[t.n], ai[col], t.a[r][t.n], t.a[r][col]); c < 0 || (c == 0 && lessBasic(t.basis[i], t.basis[r])) {
				r = i
			}
		}
		if r < 0 {
			return false
		}
		if t.a[r][t.n] == 0 {
			degenerate++
		} else {
			degenerate = 0
		}
		t.pivot(r, col)
	}
}

// lessBasic orders basic variables for Bland's rule; artificials come last.
func lessBasic(a, b int) bool {
	if a < 0 {
		return false
	}
	return b < 0 || a < b
}

// cmpFrac compares the nonnegative fractions p/q and r/s (q, s > 0).
func cmpFrac(p, q, r, s int64) int {
	h1, l1 := bits.Mul64(uint64(p), uint64(s))
	h2, l2 := bits.Mul64(uint64(r), uint64(q))
	switch {
	case h1 < h2 || (h1 == h2 && l1 < l2):
		return -1
	case h1 == h2 && l1 == l2:
		return 0
	}
	return 1
}

// pivot makes column col basic in row r.
func (t *tableau) pivot(r, col int) {
	t.work.charge(int64(t.m+1) * int64(t.n+1))
	pr := t.a[r]
	p := pr[col]
	if p < 0 {
		for j, v := range pr {
			pr[j] = -v
		}
		p = -p
	}
	// Row r now reads (pr/p): x_col + ... = b/p, denominator p.
	p = normRow(pr, p)
	t.d[r] = p
	for i := 0; i <= t.m; i++ {
		ai := t.a[i]
		f := ai[col]
		if i == r || f == 0 {
			continue
		}
		// a_i/d_i - (f/d_i)(pr/p) = (a_i·(p/g) - (f/g)·pr) / (d_i·p/g).
		g := intmath.Gcd(f, p)
		f /= g
		q := p / g
		if q == 1 {
			for j, v := range pr {
				if v != 0 {
					ai[j] = mulSub(ai[j], 1, f, v)
				}
			}
		} else {
			for j, v := range pr {
				ai[j] = mulSub(ai[j], q, f, v)
			}
		}
		ai[col] = 0
		t.d[i] = normRow(ai, mul(t.d[i], q))
	}
	if old := t.basis[r]; old >= 0 {
		t.row[old] = -1
	}
	t.basis[r] = col
	t.row[col] = r
}

// normRow divides row and its denominator d by their gcd and returns the new
// denominator.
func normRow(row []int64, d int64) int64 {
	g := d
	for _, v := range row {
		if g == 1 {
			return d
		}
		if v != 0 {
			g = intmath.Gcd(g, v)
		}
	}
	if g > 1 {
		for j := range row {
			row[j] /= g
		}
		d /= g
	}
	return d
}

// mulSub returns x·p - f·y, checked.
func mulSub(x, p, f, y int64) int64 {
	const lim = 1 << 31
	if uint64(x+lim) < 2*lim && uint64(p+lim) < 2*lim && uint64(f+lim) < 2*lim && uint64(y+lim) < 2*lim {
		return x*p - f*y // each product is below 2^62 in magnitude
	}
	return sub(mul(x, p), mul(f, y))
}

// clone returns a deep copy of t with one extra (zero) column at index n
// and room for one extra row, for addBound.
func (t *tableau) cloneWide() *tableau {
	t.work.charge(int64(t.m+2) * int64(t.n+2))
	n, w := t.n+1, t.n+2
	buf := make([]int64, (t.m+2)*w)
	c := &tableau{nv: t.nv, m: t.m, n: n, a: make([][]int64, t.m+1, t.m+2), d: make([]int64, t.m+1, t.m+2),
		basis: make([]int, t.m, t.m+1), row: make([]int, n), work: t.work}
	for i, ai := range t.a {
		ci := buf[i*w : (i+1)*w : (i+1)*w]
		copy(ci, ai[:t.n])
		ci[n] = ai[t.n]
		c.a[i] = ci
	}
	copy(c.d, t.d)
	copy(c.basis, t.basis)
	copy(c.row, t.row)
	c.row[t.n] = -1
	// The spare row, used by addBound, is the last block of buf.
	c.a = append(c.a, buf[(t.m+1)*w:(t.m+2)*w:(t.m+2)*w])
	c.a = c.a[:t.m+1]
	return c
}

// addBound adds dir·(x_j - v) >= 0 to an optimal tableau and reoptimizes it
// with the dual simplex method; it reports false when the result is
// infeasible. The tableau must come from cloneWide.
func (t *tableau) addBound(j int, dir, v int64) bool {
	f := make([]int64, t.nv)
	f[j] = 1
	return t.addForm(f, dir, v)
}

// addForm adds dir·(f·x - v) >= 0 to an optimal tableau and reoptimizes it
// with the dual simplex method; it reports false when the result is
// infeasible. The tableau must come from cloneWide (its last column is the
// new slack s: -dir·f·x + s = -dir·v). The new row is put in canonical
// form by subtracting, for every basic column it mentions, that column's
// row. The objective row stays dual feasible (every reduced cost >= 0), so
// the dual simplex ends at an optimum of the child; it uses Bland's rule
// (the row whose basic variable has the smallest index leaves, ties in the
// ratio test go to the smallest column), which cannot cycle.
func (t *tableau) addForm(f []int64, dir, v int64) bool {
	nv, n := t.nv, t.n
	sc := n - 1
	r := t.a[:t.m+2][t.m+1] // the spare row
	clear(r)
	for j, c := range f {
		if c != 0 {
			r[j], r[nv+j] = neg(mul(dir, c)), mul(dir, c)
		}
	}
	r[sc], r[n] = 1, neg(mul(dir, v))
	dr := int64(1)
	for c := range 2 * nv {
		i := t.row[c]
		if i < 0 || r[c] == 0 {
			continue
		}
		g := intmath.Gcd(r[c], t.d[i])
		f, q := r[c]/g, t.d[i]/g
		for k, x := range t.a[i] {
			r[k] = mulSub(r[k], q, f, x)
		}
		r[c] = 0
		dr = normRow(r, mul(dr, q))
	}
	// Insert r before the objective row.
	z, dz := t.a[t.m], t.d[t.m]
	t.a = append(t.a[:t.m], r, z)
	t.d = append(t.d[:t.m], dr, dz)
	t.basis = append(t.basis, sc)
	t.row[sc] = t.m
	t.m++
	return t.dual()
}

// dual runs the dual simplex method until every right-hand side is >= 0
// (true) or a row proves infeasibility (false).
func (t *tableau) dual() bool {
	z := t.a[t.m]
	for {
		r := -1
		for i := range t.m {
			if t.a[i][t.n] < 0 && (r < 0 || t.basis[i] < t.basis[r]) {
				r = i
			}
		}
		if r < 0 {
			return true
		}
		ar := t.a[r]
		col := -1
		for j := range t.n {
			if ar[j] >= 0 || t.row[j] >= 0 || t.frozen != nil && t.frozen[j] {
				continue
			}
			if col < 0 || cmpFrac(z[j], -ar[j], z[col], -ar[col]) < 0 {
				col = j
			}
		}
		if col < 0 {
			return false
		}
		t.pivot(r, col)
	}
}

// lexmin returns the rational lexicographic minimum of the forms (each
// over the structural variables x) on the polyhedron of the feasible
// tableau t, or false when one of them is unbounded below. It minimizes
// the forms in turn, each from the basis the previous one left; after
// each, the nonbasic columns with a positive reduced cost are frozen at 0:
// with the objective const + Σ d_j·x_j over the nonbasic columns (d ≥ 0
// at the optimum), the optimal points are exactly the feasible points
// where every x_j with d_j > 0 is 0, so the later forms are minimized
// over the optimal face of the earlier ones. t ends at the minimum with
// its columns frozen; t.solution() gives the minimizing vertex.
func (t *tableau) lexmin(forms [][]int64) ([]rat, bool) {
	nv := t.nv
	t.frozen = make([]bool, t.n)
	vals := make([]rat, len(forms))
	for i, f := range forms {
		z := t.a[t.m]
		clear(z)
		for j, c := range f {
			z[j], z[nv+j] = check(c), neg(c)
		}
		if !t.minimize() {
			return nil, false
		}
		z = t.a[t.m]
		vals[i] = mkrat(neg(z[t.n]), t.d[t.m])
		for j := range t.n {
			if z[j] > 0 && t.row[j] < 0 {
				t.frozen[j] = true
			}
		}
	}
	return vals, true
}

// solution returns the vertex x and the objective value of an optimal tableau.
func (t *tableau) solution() ([]rat, rat) {
	nv := t.nv
	x := make([]rat, nv)
	for j := range nv {
		x[j] = t.value(j).sub(t.value(nv + j))
	}
	return x, mkrat(neg(t.a[t.m][t.n]), t.d[t.m])
}
