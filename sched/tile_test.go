package sched

import (
	"slices"
	"strings"
	"testing"

	"nestor/deps"
	"nestor/frontend"
	"nestor/ir"
	"nestor/model"
)

// layOut schedules the one region of C source src and lays it out by plan.
func layOut(t *testing.T, name, src string, plan Plan) (*ir.Program, []LoopInfo) {
	t.Helper()
	p, g := analyzed(t, name, []byte(src))
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, info, err := ApplyPlan(p, sc, plan)
	if err != nil {
		t.Fatal(err)
	}
	return q, info
}

// TestInnermostAvoidsRecurrence lays out a row recurrence p[i][j] =
// f(p[i][j-1]): along j each iteration waits for the previous one, so the
// parallel i loop must go innermost although j is the stride-1 loop; a
// reduction (an update of one element) keeps its stride-1 loop innermost.
func TestInnermostAvoidsRecurrence(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		innerSub   int // the subscript of p that the innermost loop must move
	}{
		{"recurrence", "p[i][j] = 0.5 * p[i][j-1] + a[i][j];", 0},
		{"backward", "p[i][n-j] = 0.5 * p[i][n-j+1] + a[i][j];", 0},
		{"independent", "p[i][j] = 0.5 * a[i][j-1] + a[i][j];", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `void k(int n, double p[100][100], double a[100][100]) {
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 1; j < n; j++)
      ` + tc.body + `
#pragma endscop
}
`
			q, info := layOut(t, "rec.c", src, Plan{Reorder: true})
			inner := len(info) - 1
			w := q.Stmts[0].Accesses[0]
			for k, x := range w.Index {
				if moves := x.Iter[inner] != 0; moves != (k == tc.innerSub) {
					t.Errorf("innermost loop %d: subscript %d of %s moves: %v (want only subscript %d to move)", inner, k, q.Arrays[w.Array].Name, moves, tc.innerSub)
				}
			}
		})
	}
}

// TestParallelPerStatement lays out gramschmidt: its norm is a reduction
// along i, distributed from the updates of R and A, which are parallel
// along j. No time dimension is parallel for every statement, but each
// update's nest has its own parallel loop: no tile wavefront, and the
// updates' outermost loop is parallel for them, not for the norm.
func TestParallelPerStatement(t *testing.T) {
	f, err := frontend.ParseFile("../testdata/kernels/gramschmidt.c", frontend.Config{Defines: []string{"LARGE_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	g, err := deps.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byText := func(text string) int {
		for st, s := range p.Stmts {
			if strings.Contains(s.Text, text) {
				return st
			}
		}
		t.Fatalf("no statement %q", text)
		return -1
	}
	norm, rUpd, aUpd := byText("nrm +="), byText("R[k][j] +="), byText("A[i][j] = A[i][j] -")
	_, info, err := ApplyPlan(p, sc, Plan{Tile: true, Reorder: true, Wavefront: true})
	if err != nil {
		t.Fatal(err)
	}
	for c, li := range info {
		if li.Wavefront {
			t.Errorf("loop %d is a tile wavefront", c)
		}
	}
	// The outermost counter scanning a band dimension of the updates.
	found := false
	for _, li := range info {
		if li.Band == 0 {
			continue
		}
		if li.ParallelFor([]int{rUpd}) && li.ParallelFor([]int{aUpd}) {
			found = true
			if li.ParallelFor([]int{norm}) {
				t.Errorf("loop of dimension %d parallel for the norm's reduction too", li.Dim)
			}
			break
		}
	}
	if !found {
		t.Errorf("no loop of the band is parallel for the updates: %+v", info)
	}
}

// TestCutKeepsIndependentTogether schedules symm: its two updates in the
// k loop (C[k][j] += …, temp2 += …) have no dependence between them, so
// the cut that separates the statements around them must leave the two
// in one group, sharing the k loop (and the load of A[i][k]).
func TestCutKeepsIndependentTogether(t *testing.T) {
	f, err := frontend.ParseFile("../testdata/kernels/symm.c", frontend.Config{Defines: []string{"SMALL_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	g, err := deps.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var upd []int
	for st, s := range p.Stmts {
		if strings.Contains(s.Text, "C[k][j] +=") || strings.Contains(s.Text, "temp2 +=") {
			upd = append(upd, st)
		}
	}
	if len(upd) != 2 {
		t.Fatalf("found %d update statements", len(upd))
	}
	a, b := sc.Rows[upd[0]], sc.Rows[upd[1]]
	for k := 0; k < len(a)-1; k++ { // the last dimension orders them textually
		if !a[k].Equal(b[k]) {
			t.Errorf("dimension %d: %v and %v: the updates do not share their loops", k, a[k], b[k])
		}
	}
}

// TestSinkParallel lays out symm with its temporary expanded (t[j]): the
// schedule puts the parallel j loop outside the k loop of the updates,
// and the layout must move j innermost, where C[k][j] and B[k][j] are
// walked by rows, tiled or not. With the scalar temporary, j is not
// parallel and stays outside.
func TestSinkParallel(t *testing.T) {
	for _, tc := range []struct {
		name, param, local, temp string
		tile, sink               bool
	}{
		{"expanded", ", double t[200]", "", "t[j]", false, true},
		{"expanded tiled", ", double t[200]", "", "t[j]", true, true},
		{"scalar", "", "double t0;", "t0", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `void k(int m, int n, double C[200][200], double A[200][200], double B[200][200]` + tc.param + `) {
  int i, j, k;
  ` + tc.local + `
#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      TEMP = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += 1.5 * B[i][j] * A[i][k];
        TEMP += B[k][j] * A[i][k];
      }
      C[i][j] = 1.2 * C[i][j] + 1.5 * B[i][j] * A[i][i] + 1.5 * TEMP;
    }
#pragma endscop
}
`
			src = strings.ReplaceAll(src, "TEMP", tc.temp)
			q, info := layOut(t, "symm.c", src, Plan{Reorder: true, Tile: tc.tile})
			inner := len(info) - 1
			w := q.Stmts[1].Accesses[0] // C[k][j] += …
			if rows := w.Index[1].Iter[inner] != 0 && w.Index[0].Iter[inner] == 0; rows != tc.sink {
				t.Errorf("innermost loop walks C by rows: %v, want %v (subscripts %v)", rows, tc.sink, w.Index)
			}
			if tc.sink && info[inner].Band != 0 {
				t.Errorf("the moved loop keeps band %d", info[inner].Band)
			}
		})
	}
}

// TestTilingPays lays out matrix–vector and matrix–matrix nests with the
// default plan. A row of a matrix–vector product touches a row of the
// matrix and the whole vector: where the vector fits in the cache the
// untiled loops reuse it, and the band stays untiled; where it does not,
// or the sizes are unknown, or the nest is a product (B's whole matrix
// between two uses of an element), the band is tiled.
func TestTilingPays(t *testing.T) {
	matvec := func(decl string) string {
		return `void k(int n, ` + decl + `) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      y[i] = y[i] + A[i][j] * x[j];
#pragma endscop
}
`
	}
	for _, tc := range []struct {
		name, src string
		tiled     bool
	}{
		{"matvec", matvec("double A[1300][1300], double x[1300], double y[1300]"), false},
		{"matvec-large", matvec("double A[100000][100000], double x[100000], double y[100000]"), true},
		{"matvec-unknown", matvec("double A[n][n], double x[n], double y[n]"), true},
		{"matmul", matmulSrc, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, info := layOut(t, tc.name+".c", tc.src, Plan{Tile: true, Reorder: true})
			tiled := slices.ContainsFunc(info, func(l LoopInfo) bool { return l.Tile })
			if tiled != tc.tiled {
				t.Errorf("tiled: %v, want %v (loops %+v)", tiled, tc.tiled, info)
			}
			if !tc.tiled && (len(info) == 0 || !info[0].Coincident.All) {
				t.Errorf("untiled, the outermost loop must be the parallel one: %+v", info)
			}
		})
	}
}

// TestUntiledInsideSequential lays out bands nested in a sequential loop
// whose tiles would buy only a parallel tile loop: gramschmidt's update
// of R (a reduction over the rows i, its columns j parallel) and of A
// (rows and columns parallel), rows outside columns. Untiled, every
// access moves by one element along the columns and A's update still
// runs its rows in parallel, so the band is not tiled. Floyd–Warshall's
// band has no loop that is parallel for its statement (the schedule
// skews it for a wavefront of tiles) and the same matrix–vector update
// outside any loop forks once; both stay tiled.
func TestUntiledInsideSequential(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		tiled     bool
	}{
		{"gramschmidt", `void k(int m, int n, double A[1000][1200], double R[1200][1200], double Q[1000][1200]) {
  int i, j, k;
  double nrm;
#pragma scop
  for (k = 0; k < n; k++) {
    nrm = 0.0;
    for (i = 0; i < m; i++)
      nrm += A[i][k] * A[i][k];
    R[k][k] = sqrt(nrm);
    for (i = 0; i < m; i++)
      Q[i][k] = A[i][k] / R[k][k];
    for (j = k + 1; j < n; j++) {
      R[k][j] = 0.0;
      for (i = 0; i < m; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (i = 0; i < m; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
#pragma endscop
}
`, false},
		{"floyd-warshall", `void k(int n, int path[2000][2000]) {
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
#pragma endscop
}
`, true},
		{"transposed-matvec", `void k(int n, double A[4000][4000], double x[4000], double y[4000]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * x[i];
#pragma endscop
}
`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, info := layOut(t, tc.name+".c", tc.src, Plan{Tile: true, Reorder: true, Wavefront: true})
			tiled := slices.ContainsFunc(info, func(l LoopInfo) bool { return l.Tile })
			if tiled != tc.tiled {
				t.Errorf("tiled: %v, want %v (loops %+v)", tiled, tc.tiled, info)
			}
		})
	}
}

// matmulSrc is C += A·B over 1000×1000 arrays, j innermost.
const matmulSrc = `void k(int n, double A[1000][1000], double B[1000][1000], double C[1000][1000]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (k = 0; k < n; k++)
      for (j = 0; j < n; j++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
#pragma endscop
}
`

// TestStridedTileSizes: an innermost loop along which most accesses leave
// their cache line at every iteration (the row recurrence's i, vectorized
// across rows) is cut into tiles of one line's worth of elements, the
// other loops taking the rest of the cache; a stride-1 innermost loop
// (matmul's j) is stretched instead (innerFactor).
func TestStridedTileSizes(t *testing.T) {
	rec := func(elem, body string) string {
		return `void k(int n, ` + elem + ` p[4000][4000], ` + elem + ` a[4000][4000]) {
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 1; j < n; j++)
      ` + body + `
#pragma endscop
}
`
	}
	for _, tc := range []struct {
		name, src string
		want      int64 // the innermost loop's tile size; 0: larger than the others'
		l3        int64 // the machine's L3 cache (0: model.Typical's)
	}{
		{"recurrence", rec("double", "p[i][j] = 0.5 * p[i][j-1] + a[i][j];"), 8, 0},
		// 256 MB of arrays in a cache twice as large: stretched.
		{"recurrence-cached", rec("double", "p[i][j] = 0.5 * p[i][j-1] + a[i][j];"), 0, 1 << 30},
		{"recurrence-float", rec("float", "p[i][j] = 0.5f * p[i][j-1] + a[i][j];"), 16, 0},
		{"matmul", matmulSrc, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, g := analyzed(t, tc.name+".c", []byte(tc.src))
			sc, err := Compute(p, g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			plan := Plan{Tile: true, Reorder: true}
			if tc.l3 > 0 {
				plan.Machine = model.Typical()
				plan.Machine.L3 = tc.l3
			}
			lays, err := Decide(p, sc, plan)
			if err != nil {
				t.Fatal(err)
			}
			var band *Layout
			for k := range lays {
				if lays[k].Band != 0 {
					band = &lays[k]
				}
			}
			if band == nil || !band.Tile || len(band.Sizes) < 2 {
				t.Fatalf("no tiled band: %+v", lays)
			}
			inner := band.Order[len(band.Order)-1]
			in := band.Sizes[inner]
			for k, sz := range band.Sizes {
				if k == inner {
					continue
				}
				if tc.want > 0 && (in != tc.want || sz <= in) || tc.want == 0 && sz >= in {
					t.Errorf("tile sizes %v (innermost %d): want %d for the innermost loop, more for the others (0: the innermost the largest)", band.Sizes, inner, tc.want)
					break
				}
			}
		})
	}
}

// TestInnerTileLeast: heat-3d's four-dimensional time-skewed band fits
// half the L2 cache only with tiles of 8 on each loop, which would leave
// its innermost loop 32 elements (innerFactor); it runs at least 16
// vectors' worth (innerLeast: 128 doubles with 64-byte vectors), and
// the other loops keep 8.
func TestInnerTileLeast(t *testing.T) {
	p, g := analyzed(t, "../testdata/kernels/heat-3d.c", nil, "LARGE_DATASET")
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := model.Typical()
	want := int64(innerVectors * m.VectorBytes / 8)
	lays, err := Decide(p, sc, Plan{Tile: true, Reorder: true, Machine: m})
	if err != nil {
		t.Fatal(err)
	}
	for _, lay := range lays {
		if lay.Band == 0 || !lay.Tile {
			continue
		}
		inner := lay.Order[len(lay.Order)-1]
		for k, sz := range lay.Sizes {
			if k == inner && sz != want || k != inner && sz != minTile {
				t.Errorf("tile sizes %v, innermost %d: want %d innermost and %d for the others", lay.Sizes, inner, want, minTile)
				break
			}
		}
		return
	}
	t.Fatalf("no tiled band: %+v", lays)
}

// TestDeepInnerTiles: trisolve's band of i and j runs the row update's k
// loop inside it, over whole rows of U and A (1200 doubles at LARGE):
// the band's inner loop j gets the most rows of U that fit in half the L2
// cache (not the innermost loop's stretched size), its outer loop i the
// size it has without the k loop.
func TestDeepInnerTiles(t *testing.T) {
	m := model.Typical()
	p, g := analyzed(t, "../testdata/kernels/trisolve-0based.c", nil, "LARGE_DATASET")
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lays, err := Decide(p, sc, Plan{Tile: true, Reorder: true, Machine: m})
	if err != nil {
		t.Fatal(err)
	}
	const row = 1200 * 8 // bytes of a row of U or A
	found := false
	for _, lay := range lays {
		if lay.Band == 0 || !lay.Tile {
			continue
		}
		found = true
		inner := lay.Order[len(lay.Order)-1]
		for k, sz := range lay.Sizes {
			switch {
			case k == inner && (sz*row > m.L2/2 || 2*sz*row <= m.L2/2 && sz < maxTile):
				t.Errorf("tile sizes %v: want the most rows of %d bytes that fit in %d bytes innermost", lay.Sizes, row, m.L2/2)
			}
		}
	}
	if !found {
		t.Fatalf("no tiled band: %+v", lays)
	}
}
