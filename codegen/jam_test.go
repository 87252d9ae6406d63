package codegen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"nestor/deps"
	"nestor/ir"
)

// TestUnrollJam jams register tiles of several shapes into nests whose
// loops form one permutable band and checks, by running the traced code
// on extents that do and do not divide the tile, that every instance
// runs exactly once and that the accesses to each element written keep
// their order: in gemm the updates of one C[i][j] (k increasing), in the
// two-statement nest those of T[i][j] and B[k][j], in the two-loop
// matrix–vector nest those of y[i].
func TestUnrollJam(t *testing.T) {
	cc := needCC(t)
	progs := []struct {
		name string
		prog func(t *testing.T) *ir.Program
		// keys names the elements a trace line writes or reads where
		// another line writes them; the lines of one key must keep their
		// order.
		keys func(stmt string, it []int64) []string
	}{
		{"gemm-ikj", func(t *testing.T) *ir.Program {
			return newProg(t, "ni", "nj", "nk").
				array("alpha", ir.FuncParam).
				array("C", ir.FuncParam, "ni", "nj").array("A", ir.FuncParam, "ni", "nk").array("B", ir.FuncParam, "nk", "nj").
				stmt("i k j", []int{0, 0, 0, 0}, "0 <= i < ni and 0 <= j < nj and 0 <= k < nk", "C[i][j] += alpha * A[i][k] * B[k][j]").
				build()
		}, func(_ string, it []int64) []string { return []string{fmt.Sprint("C", it[0], it[2])} }},
		{"gemm-ijk", func(t *testing.T) *ir.Program {
			return newProg(t, "ni", "nj", "nk").
				array("C", ir.FuncParam, "ni", "nj").array("A", ir.FuncParam, "ni", "nk").array("B", ir.FuncParam, "nk", "nj").
				stmt("i j k", []int{0, 0, 0, 0}, "0 <= i < ni and 0 <= j < nj and 0 <= k < nk", "C[i][j] += A[i][k] * B[k][j]").
				build()
		}, func(_ string, it []int64) []string { return []string{fmt.Sprint("C", it[0], it[1])} }},
		{"syrk-triangle", func(t *testing.T) *ir.Program {
			// j ≤ i: only j is unrolled.
			return newProg(t, "ni", "nj", "nk").
				array("C", ir.FuncParam, "ni", "ni").array("A", ir.FuncParam, "ni", "nk").
				stmt("i j k", []int{0, 0, 0, 0}, "0 <= i < ni and 0 <= j <= i and 0 <= k < nk", "C[i][j] += A[i][k] * A[j][k]").
				build()
		}, func(_ string, it []int64) []string { return []string{fmt.Sprint("C", it[0], it[1])} }},
		{"two-statements", func(t *testing.T) *ir.Program {
			return newProg(t, "ni", "nj", "nk").
				array("T", ir.FuncParam, "ni", "nj").array("A", ir.FuncParam, "ni", "nk").array("B", ir.FuncParam, "nk", "nj").
				stmt("i k j", []int{0, 0, 0, 0}, "0 <= i < ni and 0 <= j < nj and 0 <= k < nk", "T[i][j] = A[i][k] * B[k][j]").
				stmt("i k j", []int{0, 0, 0, 1}, "0 <= i < ni and 0 <= j < nj and 0 <= k < nk", "B[k][j] += T[i][j] * A[i][k]").
				build()
		}, func(_ string, it []int64) []string {
			return []string{fmt.Sprint("T", it[0], it[2]), fmt.Sprint("B", it[1], it[2])}
		}},
		{"matvec-pair", func(t *testing.T) *ir.Program {
			// Two loops: i is unrolled and its copies jammed into j, a
			// chain of updates of y[i] each.
			return newProg(t, "ni", "nj", "nk").
				array("y", ir.FuncParam, "ni").array("A", ir.FuncParam, "ni", "nj").array("x", ir.FuncParam, "nj").
				stmt("i j", []int{0, 0, 0}, "0 <= i < ni and 0 <= j < nj", "y[i] += A[i][j] * x[j]").
				build()
		}, func(_ string, it []int64) []string { return []string{fmt.Sprint("y", it[0])} }},
	}
	band := func(int) (int, bool) { return 1, true }
	for _, pc := range progs {
		want := map[string]string{} // expected traces by parameter values
		for _, tile := range [][2]int64{{3, 2}, {2, 1}, {1, 3}, {4, 4}} {
			t.Run(fmt.Sprintf("%s/%dx%d", pc.name, tile[0], tile[1]), func(t *testing.T) {
				p := pc.prog(t)
				n, err := Build(p)
				if err != nil {
					t.Fatal(err)
				}
				if got := UnrollJam(p, n, JamOptions{Band: band, Rows: tile[0], Cols: tile[1]}); got != 1 {
					t.Fatalf("jammed %d nests, want 1", got)
				}
				bin, region := traceBinary(t, cc, p, n)
				for _, vals := range grid(3, 1, 5, 7) {
					out := runTrace(t, bin, vals)
					key := fmt.Sprint(vals)
					if _, ok := want[key]; !ok {
						want[key] = expectedTrace(t, p, vals)
					}
					if msg := sameInstances(want[key], out, pc.keys); msg != "" {
						t.Fatalf("params %v: %s\n%s", vals, msg, region)
					}
				}
			})
		}
	}
}

// TestJamParallelLoop jams an untiled band whose outer loop is an OpenMP
// loop: the unrolled loop keeps its pragma, sets its counter itself and
// hands the counter's final value to the sequential rest loop through
// lastprivate. The traced code runs on 3 threads, on extents that do and
// do not divide the factor: every instance once, each y[i]'s updates in
// order.
func TestJamParallelLoop(t *testing.T) {
	cc := needCC(t)
	p := newProg(t, "ni", "nj").
		array("y", ir.FuncParam, "ni").array("A", ir.FuncParam, "ni", "nj").array("x", ir.FuncParam, "nj").
		stmt("i j", []int{0, 0, 0}, "0 <= i < ni and 0 <= j < nj", "y[i] += A[i][j] * x[j]").
		build()
	n, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	firstLoop(n.Body).Pragmas = []string{"omp parallel for"}
	band := func(int) (int, bool) { return 1, true }
	if got := UnrollJam(p, n, JamOptions{Band: band, Rows: 4, Cols: 1}); got != 1 {
		t.Fatalf("jammed %d nests, want 1", got)
	}
	bin, region := traceBinary(t, cc, p, n, "-fopenmp")
	if !strings.Contains(region, "lastprivate(i)") {
		t.Fatalf("the unrolled OpenMP loop hands no counter on:\n%s", region)
	}
	t.Setenv("OMP_NUM_THREADS", "3")
	keys := func(_ string, it []int64) []string { return []string{fmt.Sprint("y", it[0])} }
	for _, vals := range [][]int64{{0, 3}, {3, 2}, {4, 1}, {13, 3}, {17, 5}} {
		if msg := sameInstances(expectedTrace(t, p, vals), runTrace(t, bin, vals), keys); msg != "" {
			t.Fatalf("params %v: %s\n%s", vals, msg, region)
		}
	}
}

// sameInstances reports how trace got differs from want as a multiset of
// lines, or how it breaks the order want gives to the lines of one key
// (an element the lines access). A key "r:E" is a read of element E: the
// reads of E between two writes of it may run in any order among
// themselves; a plain key orders every access.
func sameInstances(want, got string, keys func(stmt string, it []int64) []string) string {
	w, g := strings.Fields(strings.ReplaceAll(want, " ", "_")), strings.Fields(strings.ReplaceAll(got, " ", "_"))
	ws, gs := slices.Sorted(slices.Values(w)), slices.Sorted(slices.Values(g))
	if !slices.Equal(ws, gs) {
		return fmt.Sprintf("%d instances, want %d, or not the same ones", len(g), len(w))
	}
	// Per element, the lines that order (plain keys) in turn, and each
	// read's count of ordering lines before it.
	type order struct {
		lines []string
		reads map[string]int
	}
	seq := func(lines []string) map[string]*order {
		out := map[string]*order{}
		for _, l := range lines {
			f := strings.Split(l, "_")
			it := make([]int64, len(f)-1)
			for k := range it {
				fmt.Sscan(f[k+1], &it[k])
			}
			for _, k := range keys(f[0], it) {
				e := strings.TrimPrefix(k, "r:")
				o := out[e]
				if o == nil {
					o = &order{reads: map[string]int{}}
					out[e] = o
				}
				if e != k {
					o.reads[l] = len(o.lines)
				} else {
					o.lines = append(o.lines, l)
				}
			}
		}
		return out
	}
	wseq, gseq := seq(w), seq(g)
	for k, o := range wseq {
		if !slices.Equal(o.lines, gseq[k].lines) {
			return fmt.Sprintf("element %s updated in the order %v, want %v", k, gseq[k].lines, o.lines)
		}
		for l, n := range o.reads {
			if m := gseq[k].reads[l]; m != n {
				return fmt.Sprintf("element %s read by %s after %d of its updates, want %d (%v)", k, l, m, n, o.lines)
			}
		}
	}
	return ""
}

// TestJamSequence jams loops whose bodies are sequences of statements and
// innermost loops (jamSeq), with legality from the dependences, and checks
// by running the traced code that every instance runs once and that the
// accesses to each element keep their order; a sequence whose later
// member feeds an earlier one in the next iteration is refused.
func TestJamSequence(t *testing.T) {
	cc := needCC(t)
	progs := []struct {
		name string
		prog func(t *testing.T) *ir.Program
		keys func(stmt string, it []int64) []string
		jams int
	}{
		{"atax-fused", func(t *testing.T) *ir.Program {
			// A row's dot product, then y updated by that row.
			return newProg(t, "ni", "nj").
				array("T", ir.FuncParam, "ni").array("y", ir.FuncParam, "nj").array("A", ir.FuncParam, "ni", "nj").array("x", ir.FuncParam, "nj").
				stmt("i j", []int{0, 0, 0}, "0 <= i < ni and 0 <= j < nj", "T[i] += A[i][j] * x[j]").
				stmt("i j", []int{0, 1, 0}, "0 <= i < ni and 0 <= j < nj", "y[j] += A[i][j] * T[i]").
				build()
		}, func(stmt string, it []int64) []string {
			if stmt == "S0" {
				return []string{fmt.Sprint("T", it[0])}
			}
			return []string{fmt.Sprint("T", it[0]), fmt.Sprint("y", it[1])}
		}, 1},
		{"bicg", func(t *testing.T) *ir.Program {
			// A statement, then a loop of two updates.
			return newProg(t, "ni", "nj").
				array("q", ir.FuncParam, "ni").array("s", ir.FuncParam, "nj").array("r", ir.FuncParam, "ni").
				array("A", ir.FuncParam, "ni", "nj").array("p", ir.FuncParam, "nj").
				stmt("i", []int{0, 0}, "0 <= i < ni", "q[i] = 0").
				stmt("i j", []int{0, 1, 0}, "0 <= i < ni and 0 <= j < nj", "s[j] += r[i] * A[i][j]").
				stmt("i j", []int{0, 1, 1}, "0 <= i < ni and 0 <= j < nj", "q[i] += A[i][j] * p[j]").
				build()
		}, func(stmt string, it []int64) []string {
			if stmt == "S1" {
				return []string{fmt.Sprint("s", it[1])}
			}
			return []string{fmt.Sprint("q", it[0])}
		}, 1},
		{"feeds-back", func(t *testing.T) *ir.Program {
			// The second loop writes the x the first reads in the next
			// row: copies of the first would run before it.
			return newProg(t, "ni", "nj").
				array("T", ir.FuncParam, "ni").array("A", ir.FuncParam, "ni", "nj").array("x", ir.FuncParam, "nj").
				stmt("i j", []int{0, 0, 0}, "0 <= i < ni and 0 <= j < nj", "T[i] += A[i][j] * x[j]").
				stmt("i j", []int{0, 1, 0}, "0 <= i < ni and 0 <= j < nj", "x[j] += A[i][j] * T[i]").
				build()
		}, func(stmt string, it []int64) []string {
			return []string{fmt.Sprint("T", it[0]), fmt.Sprint("x", it[1])}
		}, 0},
	}
	for _, pc := range progs {
		for _, tile := range [][2]int64{{3, 2}, {2, 1}, {4, 4}} {
			t.Run(fmt.Sprintf("%s/%dx%d", pc.name, tile[0], tile[1]), func(t *testing.T) {
				p := pc.prog(t)
				region := jamTraced(t, cc, p, tile, pc.jams, grid(2, 1, 5, 11), pc.keys)
				if step := fmt.Sprintf("+= %d)", min(tile[0]*tile[1], 8)); pc.jams > 0 && !strings.Contains(region, step) {
					t.Fatalf("no loop stepping by %s:\n%s", step, region)
				}
			})
		}
	}
}

// TestJamTriangle jams loops whose first member is a loop bounded by the
// jammed counter (jamTri: a triangular solve's rows, a Cholesky
// factorization's), with legality from the dependences, and checks by
// running the traced code that every instance runs once and that the
// accesses to each element keep their order; a nest whose tail feeds the
// common range of a later row is refused.
func TestJamTriangle(t *testing.T) {
	cc := needCC(t)
	elem := func(name string, i ...int64) string { return fmt.Sprint(name, i) }
	progs := []struct {
		name string
		prog func(t *testing.T) *ir.Program
		keys func(stmt string, it []int64) []string
		jams int
	}{
		{"trisolv", func(t *testing.T) *ir.Program {
			return newProg(t, "n", "m").
				array("x", ir.FuncParam, "n").array("b", ir.FuncParam, "n").array("L", ir.FuncParam, "n", "n").
				stmt("i", []int{0, 0}, "0 <= i < n", "x[i] = b[i]").
				stmt("i j", []int{0, 1, 0}, "0 <= i < n and 0 <= j < i", "x[i] -= L[i][j] * x[j]").
				stmt("i", []int{0, 2}, "0 <= i < n", "x[i] = x[i] / L[i][i]").
				build()
		}, func(stmt string, it []int64) []string {
			if stmt == "S1" {
				return []string{elem("x", it[0]), elem("x", it[1])}
			}
			return []string{elem("x", it[0])}
		}, 1},
		{"cholesky", choleskyNest, choleskyKeys(""), 1},
		{"feeds-back", func(t *testing.T) *ir.Program {
			// The tail of row i writes the x[0] that every later row's
			// first iteration reads.
			return newProg(t, "n", "m").
				array("T", ir.FuncParam, "n").array("A", ir.FuncParam, "n", "n").array("x", ir.FuncParam, "n").
				stmt("i j", []int{0, 0, 0}, "0 <= i < n and 0 <= j < i", "T[i] += A[i][j] * x[j]").
				stmt("i", []int{0, 1}, "0 <= i < n", "x[0] = x[0] + T[i]").
				build()
		}, func(stmt string, it []int64) []string {
			if stmt == "S0" {
				return []string{elem("T", it[0]), elem("x", it[1])}
			}
			return []string{elem("T", it[0]), elem("x", 0)}
		}, 0},
	}
	for _, pc := range progs {
		for _, tile := range [][2]int64{{3, 1}, {2, 2}, {4, 4}} {
			t.Run(fmt.Sprintf("%s/%dx%d", pc.name, tile[0], tile[1]), func(t *testing.T) {
				p := pc.prog(t)
				region := jamTraced(t, cc, p, tile, pc.jams, grid(2, 0, 1, 5, 12, 19), pc.keys)
				if step := fmt.Sprintf("+= %d)", min(tile[0]*tile[1], 8)); pc.jams > 0 && !strings.Contains(region, step) {
					t.Fatalf("no loop stepping by %s:\n%s", step, region)
				}
			})
		}
	}
}

// choleskyNest is a Cholesky factorization by rows (the diagonal scaled
// instead of its square root taken).
func choleskyNest(t *testing.T) *ir.Program {
	return newProg(t, "n", "m").
		array("A", ir.FuncParam, "n", "n").
		stmt("i j k", []int{0, 0, 0, 0}, "0 <= i < n and 0 <= j < i and 0 <= k < j", "A[i][j] -= A[i][k] * A[j][k]").
		stmt("i j", []int{0, 0, 1}, "0 <= i < n and 0 <= j < i", "A[i][j] /= A[j][j]").
		stmt("i k", []int{0, 1, 0}, "0 <= i < n and 0 <= k < i", "A[i][i] -= A[i][k] * A[i][k]").
		stmt("i", []int{0, 2}, "0 <= i < n", "A[i][i] = A[i][i] * 0.5").
		build()
}

// choleskyKeys are the elements choleskyNest's instances access, each
// read marked by read ("" to order reads as writes, "r:" to let reads
// between two writes run in any order).
func choleskyKeys(read string) func(stmt string, it []int64) []string {
	elem := func(i ...int64) string { return fmt.Sprint("A", i) }
	return func(stmt string, it []int64) []string {
		switch stmt {
		case "S0":
			return []string{elem(it[0], it[1]), read + elem(it[0], it[2]), read + elem(it[1], it[2])}
		case "S1":
			return []string{elem(it[0], it[1]), read + elem(it[1], it[1])}
		case "S2":
			return []string{elem(it[0], it[0]), read + elem(it[0], it[1])}
		}
		return []string{elem(it[0], it[0])}
	}
}

// TestJamTriangleGroups runs jamTri's common range as two groups of
// copies (OpenMP sections) where no dependence joins two copies there:
// cholesky's rows (each row's dot products read only finished rows), run
// with the groups in reverse order and traced as TestJamTriangle does,
// the rows the groups leave jammed by one group's count, then one by one. A
// nest whose row i+1 reads what row i wrote 8 columns to its left jams
// (the copies keep their order along the columns) but takes no groups:
// run in reverse, they would read values not yet written.
func TestJamTriangleGroups(t *testing.T) {
	cc := needCC(t)
	elem := func(name string, i ...int64) string { return fmt.Sprint(name, i) }
	progs := []struct {
		name     string
		prog     func(t *testing.T) *ir.Program
		keys     func(stmt string, it []int64) []string
		sections bool
	}{
		{"cholesky", choleskyNest, choleskyKeys("r:"), true},
		{"row-above", func(t *testing.T) *ir.Program {
			// Row i's element j, once summed, goes 8 columns right in U,
			// which row i+1 reads at its own column: a dependence of
			// distance (1, 8), which the jam keeps in order (the copies'
			// phase 2 starts above it), but which joins two copies in the
			// common range.
			return newProg(t, "n", "m").
				array("T", ir.FuncParam, "n", "n").array("A", ir.FuncParam, "n", "n").array("B", ir.FuncParam, "n").array("U", ir.FuncParam, "n", "m").
				stmt("i j k", []int{0, 0, 0, 0}, "1 <= i < n and 0 <= j < i and 0 <= k < j", "T[i][j] += A[j][k] * B[k]").
				stmt("i j", []int{0, 0, 1}, "1 <= i < n and 0 <= j < i", "U[i][j + 8] = T[i][j] + U[i - 1][j]").
				build()
		}, func(stmt string, it []int64) []string {
			if stmt == "S0" {
				return []string{elem("T", it[0], it[1])}
			}
			return []string{elem("U", it[0], it[1]+8), "r:" + elem("T", it[0], it[1]), "r:" + elem("U", it[0]-1, it[1])}
		}, false},
	}
	for _, pc := range progs {
		for _, tile := range [][2]int64{{2, 1}, {3, 1}} {
			t.Run(fmt.Sprintf("%s/%dx%d", pc.name, tile[0], tile[1]), func(t *testing.T) {
				region := jamTracedGroups(t, cc, pc.prog(t), tile, 2, 1, grid(2, 0, 1, 5, 12, 19), pc.keys)
				if got := strings.Contains(region, "omp parallel sections"); got != pc.sections {
					t.Fatalf("sections: %v, want %v:\n%s", got, pc.sections, region)
				}
				// The groups' loop, then one for the rows they leave.
				for _, f := range []int64{2 * tile[0] * tile[1], tile[0] * tile[1]} {
					if step := fmt.Sprintf("+= %d)", f); pc.sections && !strings.Contains(region, step) {
						t.Fatalf("no loop stepping by %s:\n%s", step, region)
					}
				}
			})
		}
	}
}

// form is a subscript the random jam tests draw: its C text and its value
// at counters i, j, k.
type form struct {
	text string
	at   func(i, j, k int64) int64
}

// noK returns the forms of fs that do not read k (those a statement
// outside the k loop may use).
func noK(fs []form) []form {
	return slices.DeleteFunc(slices.Clone(fs), func(f form) bool { return strings.Contains(f.text, "k") })
}

// TestJamTriangleGroupsRandom draws Cholesky-like nests whose reads take
// their rows and columns from a few affine forms (the row, the row above,
// the column, the one before or after or 4 before, the inner counter;
// row i reading row i-1 four columns left jams by 4 but joins the copies'
// shared range), jams each with
// groups and traces it with the groups run in reverse: wherever jamTri
// takes sections, any order of the groups must keep every write's order
// and every read between the same writes. Some of the nests must take
// sections and some must not, or the draw tests nothing.
func TestJamTriangleGroupsRandom(t *testing.T) {
	cc := needCC(t)
	rows := []form{
		{"i", func(i, j, k int64) int64 { return i }},
		{"j", func(i, j, k int64) int64 { return j }},
		{"i - 1", func(i, j, k int64) int64 { return i - 1 }},
		{"j + 1", func(i, j, k int64) int64 { return j + 1 }},
		{"k", func(i, j, k int64) int64 { return k }},
	}
	cols := []form{
		{"k", func(i, j, k int64) int64 { return k }},
		{"j", func(i, j, k int64) int64 { return j }},
		{"j - 1", func(i, j, k int64) int64 { return j - 1 }},
		{"k + 1", func(i, j, k int64) int64 { return k + 1 }},
		{"0", func(i, j, k int64) int64 { return 0 }},
		{"j - 4", func(i, j, k int64) int64 { return j - 4 }}, // twice: drawn twice as often
		{"j - 4", func(i, j, k int64) int64 { return j - 4 }},
	}
	elem := func(i ...int64) string { return fmt.Sprint("A", i) }
	r := rand.New(rand.NewPCG(16, 2))
	const programs = 40
	sections := 0
	for n := range programs {
		r1, c1, r2, c2 := rows[r.IntN(len(rows))], cols[r.IntN(len(cols))], rows[r.IntN(len(rows))], cols[r.IntN(len(cols))]
		r3, c3 := noK(rows)[r.IntN(len(noK(rows)))], noK(cols)[r.IntN(len(noK(cols)))]
		body0 := fmt.Sprintf("A[i][j] -= A[%s][%s] * A[%s][%s]", r1.text, c1.text, r2.text, c2.text)
		body1 := fmt.Sprintf("A[i][j] /= A[%s][%s]", r3.text, c3.text)
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := newProg(t, "n", "m").
				array("A", ir.FuncParam, "n", "n").
				stmt("i j k", []int{0, 0, 0, 0}, "1 <= i < n and 0 <= j < i and 0 <= k < j", body0).
				stmt("i j", []int{0, 0, 1}, "1 <= i < n and 0 <= j < i", body1).
				stmt("i k", []int{0, 1, 0}, "1 <= i < n and 0 <= k < i", "A[i][i] -= A[i][k] * A[i][k]").
				build()
			keys := func(stmt string, it []int64) []string {
				switch stmt {
				case "S0":
					i, j, k := it[0], it[1], it[2]
					return []string{elem(i, j), "r:" + elem(r1.at(i, j, k), c1.at(i, j, k)), "r:" + elem(r2.at(i, j, k), c2.at(i, j, k))}
				case "S1":
					i, j := it[0], it[1]
					return []string{elem(i, j), "r:" + elem(r3.at(i, j, 0), c3.at(i, j, 0))}
				}
				return []string{elem(it[0], it[0]), "r:" + elem(it[0], it[1])}
			}
			region := jamTracedGroups(t, cc, p, [2]int64{2, 1}, 2, -1, grid(2, 0, 1, 5, 12, 19), keys)
			if strings.Contains(region, "omp parallel sections") {
				sections++
			}
			t.Logf("%s; %s", body0, body1)
		})
	}
	if sections == 0 || sections == programs {
		t.Fatalf("%d of %d nests took sections: the draw tests nothing", sections, programs)
	}
	t.Logf("%d of %d nests took sections", sections, programs)
}

// TestJamSkew jams the rows of a Gauss–Seidel sweep with a lag (jamSkew)
// and checks by running the traced code that every instance runs once
// and that the accesses to each element keep their order; a sweep whose
// rows read the next row's updated values, which no lag makes
// independent (the distance along j is unbounded), is refused, as is a
// loop that carries no chain.
func TestJamSkew(t *testing.T) {
	cc := needCC(t)
	progs := []struct {
		name string
		prog func(t *testing.T) *ir.Program
		keys func(stmt string, it []int64) []string
		jams int
		lag  string
	}{
		{"seidel", func(t *testing.T) *ir.Program {
			return newProg(t, "n", "m").
				array("A", ir.FuncParam, "n", "m").
				stmt("i j", []int{0, 0, 0}, "1 <= i <= n - 2 and 1 <= j <= m - 2",
					"A[i][j] = A[i - 1][j - 1] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j - 1] + A[i + 1][j + 1]").
				build()
		}, func(_ string, it []int64) []string {
			var ks []string
			for di := int64(-1); di <= 1; di++ {
				for dj := int64(-1); dj <= 1; dj++ {
					ks = append(ks, fmt.Sprint("A", it[0]+di, it[1]+dj))
				}
			}
			return ks
		}, 1, "- 2"},
		{"two-statements", func(t *testing.T) *ir.Program {
			// Row i reads A two columns ahead of where row i-1 wrote it:
			// a lag of 3.
			return newProg(t, "n", "m").
				array("A", ir.FuncParam, "n", "m").array("B", ir.FuncParam, "n", "m").
				stmt("i j", []int{0, 0, 0}, "1 <= i < n and 1 <= j <= m - 3", "B[i][j] = A[i - 1][j + 2] + B[i][j - 1]").
				stmt("i j", []int{0, 0, 1}, "1 <= i < n and 1 <= j <= m - 3", "A[i][j] = B[i][j] * 0.5").
				build()
		}, func(stmt string, it []int64) []string {
			if stmt == "S0" {
				return []string{fmt.Sprint("B", it[0], it[1]), fmt.Sprint("B", it[0], it[1]-1), fmt.Sprint("A", it[0]-1, it[1]+2)}
			}
			return []string{fmt.Sprint("A", it[0], it[1]), fmt.Sprint("B", it[0], it[1])}
		}, 1, "- 3"},
		{"reads-behind", func(t *testing.T) *ir.Program {
			// Row i reads row i+1 two columns behind, before row i+1
			// writes it: an anti dependence that also needs a lag of 3.
			return newProg(t, "n", "m").
				array("A", ir.FuncParam, "n", "m").
				stmt("i j", []int{0, 0, 0}, "1 <= i <= n - 2 and 2 <= j <= m - 2", "A[i][j] = A[i - 1][j + 1] + A[i][j - 1] + A[i + 1][j - 2]").
				build()
		}, func(_ string, it []int64) []string {
			return []string{fmt.Sprint("A", it[0], it[1]), fmt.Sprint("A", it[0]-1, it[1]+1), fmt.Sprint("A", it[0], it[1]-1), fmt.Sprint("A", it[0]+1, it[1]-2)}
		}, 1, "- 3"},
		{"row-sum", func(t *testing.T) *ir.Program {
			// A prefix sum along each row: a chain along j, rows
			// independent: jammed with no lag needed, but s = 0 is
			// left to the other jams.
			return newProg(t, "n", "m").
				array("A", ir.FuncParam, "n", "m").
				stmt("i j", []int{0, 0, 0}, "0 <= i < n and 1 <= j < m", "A[i][j] = A[i][j] + A[i][j - 1]").
				build()
		}, func(_ string, it []int64) []string {
			return []string{fmt.Sprint("A", it[0], it[1]), fmt.Sprint("A", it[0], it[1]-1)}
		}, 0, ""},
		{"column-feed", func(t *testing.T) *ir.Program {
			// Row i reads row i−1 at every column: no lag makes the
			// rows' distances along j bounded.
			return newProg(t, "n", "m").
				array("A", ir.FuncParam, "n", "m").array("x", ir.FuncParam, "m").
				stmt("i j", []int{0, 0, 0}, "1 <= i < n and 1 <= j < m", "x[j] = x[j - 1] + x[j] + A[i][j]").
				stmt("i j", []int{0, 0, 1}, "1 <= i < n and 1 <= j < m", "A[i][0] = x[m - 1]").
				build()
		}, func(stmt string, it []int64) []string {
			if stmt == "S1" {
				return []string{fmt.Sprint("A", it[0], 0), fmt.Sprint("x", "last")}
			}
			return []string{fmt.Sprint("x", it[1]), fmt.Sprint("x", it[1]-1), fmt.Sprint("A", it[0], it[1])}
		}, 0, ""},
	}
	for _, pc := range progs {
		for _, tile := range [][2]int64{{3, 1}, {2, 2}, {4, 2}} {
			t.Run(fmt.Sprintf("%s/%dx%d", pc.name, tile[0], tile[1]), func(t *testing.T) {
				p := pc.prog(t)
				region := jamTraced(t, cc, p, tile, pc.jams, grid(2, 1, 3, 4, 9, 14), pc.keys)
				if pc.jams > 0 && !strings.Contains(region, pc.lag) {
					t.Fatalf("no copy lagging by %q:\n%s", pc.lag, region)
				}
			})
		}
	}
}

// jamTraced jams p's loops that depend on the dependences (jamSeq,
// jamTri, jamSkew) with the register tile tile, checks that want loops
// were jammed, and, by running the traced code at every parameter vector
// of params, that every instance runs once and the accesses to each
// element that keys names keep their order. It returns the region's code.
func jamTraced(t *testing.T, cc string, p *ir.Program, tile [2]int64, want int, params [][]int64, keys func(stmt string, it []int64) []string) string {
	t.Helper()
	return jamTracedGroups(t, cc, p, tile, 0, want, params, keys)
}

// jamTracedGroups is jamTraced with JamOptions.Groups set to groups, the
// blocks of every Sections block run in reverse (any order must do); a
// negative want accepts any count of jammed loops.
func jamTracedGroups(t *testing.T, cc string, p *ir.Program, tile [2]int64, groups, want int, params [][]int64, keys func(stmt string, it []int64) []string) string {
	t.Helper()
	n, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	analyze := func() *deps.Graph {
		g, err := deps.Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if got := UnrollJam(p, n, JamOptions{Band: func(int) (int, bool) { return 0, true }, Rows: tile[0], Cols: tile[1], Deps: analyze, Groups: groups}); want >= 0 && got != want {
		t.Fatalf("jammed %d loops, want %d", got, want)
	}
	var reverse func(ns []Node)
	reverse = func(ns []Node) {
		for _, x := range ns {
			switch x := x.(type) {
			case *Block:
				if x.Sections {
					slices.Reverse(x.Body)
				}
				reverse(x.Body)
			case *Loop:
				reverse(x.Body)
			case *If:
				reverse(x.Body)
			}
		}
	}
	reverse(n.Body)
	bin, region := traceBinary(t, cc, p, n)
	for _, vals := range params {
		if msg := sameInstances(expectedTrace(t, p, vals), runTrace(t, bin, vals), keys); msg != "" {
			t.Fatalf("params %v: %s\n%s", vals, msg, region)
		}
	}
	return region
}
