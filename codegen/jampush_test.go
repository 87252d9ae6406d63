package codegen

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"nestor/ir"
)

// pushNest is a triangular solve by rows in push form, its update reading
// A[r1][c1] and the division A[r3][c3] (trisolve: A[i][j], A[j][j] of U,
// here the same array).
func pushNest(t *testing.T, r1, c1, r3, c3 string) *ir.Program {
	return newProg(t, "n", "m").
		array("A", ir.FuncParam, "n", "n").array("U", ir.FuncParam, "n", "n").
		stmt("i j", []int{0, 0, 0}, "0 <= i < m and 0 <= j < n", fmt.Sprintf("A[i][j] /= A[%s][%s] + U[j][j]", r3, c3)).
		stmt("i j k", []int{0, 0, 1, 0}, "0 <= i < m and 0 <= j < n and j < k < n", fmt.Sprintf("A[i][k] -= A[%s][%s] * U[j][k]", r1, c1)).
		build()
}

// ceilNest is pushNest's solve with the columns from a lower bound with
// a denominator (from ⌈(j + 1)/2⌉: the step before writes the step's
// own element at a column of the shared range; from ⌈(3j + 3)/2⌉: no
// step writes a later step's element).
func ceilNest(t *testing.T, from string) *ir.Program {
	return newProg(t, "n", "m").
		array("A", ir.FuncParam, "n", "n").array("U", ir.FuncParam, "n", "n").
		stmt("i j", []int{0, 0, 0}, "0 <= i < m and 0 <= j < n", "A[i][j] /= A[i][j] + U[j][j]").
		stmt("i j k", []int{0, 0, 1, 0}, "0 <= i < m and 0 <= j < n and "+from+" and k < n", "A[i][k] -= A[i][j] * U[j][k]").
		build()
}

// TestJamPush jams push-form triangles (jamPush) and traces them as
// TestJamTriangle does, on extents that do and do not divide the tile:
// the solve itself (4 rows x 4 steps, then 2 x 3), a nest whose row i
// reads row i − 1 (the steps jam, the rows may not), and one whose update
// reads the column to its right, which the next step rewrites (illegal:
// nothing jams), and two whose columns start at a bound with a
// denominator (ceilNest: one illegal, one jammed).
func TestJamPush(t *testing.T) {
	cc := needCC(t)
	elem := func(i ...int64) string { return fmt.Sprint("A", i) }
	keys := func(rowOff int64, colOff int64, readRight bool) func(stmt string, it []int64) []string {
		return func(stmt string, it []int64) []string {
			if stmt == "S0" {
				return []string{elem(it[0], it[1])}
			}
			i, j, k := it[0], it[1], it[2]
			out := []string{elem(i, k), "r:" + elem(i+rowOff, j+colOff)}
			if readRight {
				out[1] = "r:" + elem(i, k+1)
			}
			return out
		}
	}
	for _, tc := range []struct {
		name        string
		prog        *ir.Program
		keys        func(string, []int64) []string
		tile        [2]int64
		steps, rows bool
	}{
		{"solve", pushNest(t, "i", "j", "i", "j"), keys(0, 0, false), [2]int64{4, 4}, true, true},
		{"solve-2x3", pushNest(t, "i", "j", "i", "j"), keys(0, 0, false), [2]int64{2, 3}, true, true},
		{"row-above", pushNest(t, "i - 1", "j", "j", "j"), keys(-1, 0, false), [2]int64{4, 4}, true, false},
		{"reads-right", pushNest(t, "i", "k + 1", "j", "j"), keys(0, 0, true), [2]int64{4, 4}, false, false},
		{"half", ceilNest(t, "2*k >= j + 1"), keys(0, 0, false), [2]int64{2, 3}, false, false},
		{"wide", ceilNest(t, "2*k >= 3*j + 3"), keys(0, 0, false), [2]int64{2, 3}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			region := jamTraced(t, cc, tc.prog, tc.tile, -1, grid(2, 0, 1, 5, 9, 14), tc.keys)
			stepBy := regexp.MustCompile(fmt.Sprintf(`\+= %d\)`, tc.tile[1]))
			rowBy := regexp.MustCompile(fmt.Sprintf(`\+= %d\)`, tc.tile[0]))
			if got := stepBy.MatchString(region); got != tc.steps {
				t.Errorf("steps jammed: %v, want %v", got, tc.steps)
			}
			if tc.tile[0] != tc.tile[1] {
				if got := rowBy.MatchString(region); got != tc.rows {
					t.Errorf("rows jammed: %v, want %v", got, tc.rows)
				}
			}
			t.Logf("\n%s", region)
		})
	}
}

// TestJamPushRandom draws push-form nests whose update and division read
// elements around the ones they write (rows i, i − 1, i + 1; columns j,
// j ± 1, k ± 1, 0), jams them with 3 rows x 2 steps and traces them
// against the original order: a jam the dependences forbid shows as
// accesses out of order. Some draws must jam and some must not.
func TestJamPushRandom(t *testing.T) {
	cc := needCC(t)
	rows := []form{
		{"i", func(i, j, k int64) int64 { return i }},
		{"i", func(i, j, k int64) int64 { return i }},
		{"i - 1", func(i, j, k int64) int64 { return i - 1 }},
		{"i + 1", func(i, j, k int64) int64 { return i + 1 }},
	}
	cols := []form{
		{"j", func(i, j, k int64) int64 { return j }},
		{"j", func(i, j, k int64) int64 { return j }},
		{"j + 1", func(i, j, k int64) int64 { return j + 1 }},
		{"j - 1", func(i, j, k int64) int64 { return j - 1 }},
		{"k + 1", func(i, j, k int64) int64 { return k + 1 }},
		{"k - 1", func(i, j, k int64) int64 { return k - 1 }},
		{"j + 3", func(i, j, k int64) int64 { return j + 3 }},
		{"0", func(i, j, k int64) int64 { return 0 }},
	}
	elem := func(i ...int64) string { return fmt.Sprint("A", i) }
	r := rand.New(rand.NewPCG(17, 3))
	const programs = 40
	jammed := 0
	for n := range programs {
		r1, c1 := rows[r.IntN(len(rows))], cols[r.IntN(len(cols))]
		r3, c3 := rows[r.IntN(len(rows))], noK(cols)[r.IntN(len(noK(cols)))]
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := pushNest(t, r1.text, c1.text, r3.text, c3.text)
			keys := func(stmt string, it []int64) []string {
				if stmt == "S0" {
					i, j := it[0], it[1]
					return []string{elem(i, j), "r:" + elem(r3.at(i, j, 0), c3.at(i, j, 0))}
				}
				i, j, k := it[0], it[1], it[2]
				return []string{elem(i, k), "r:" + elem(r1.at(i, j, k), c1.at(i, j, k))}
			}
			region := jamTraced(t, cc, p, [2]int64{3, 2}, -1, grid(2, 0, 1, 4, 7, 11), keys)
			if strings.Contains(region, "+= 2)") {
				jammed++
			}
			t.Logf("A[i][k] -= A[%s][%s] * U[j][k]; A[i][j] /= A[%s][%s] + U[j][j]\n%s", r1.text, c1.text, r3.text, c3.text, region)
		})
	}
	if jammed == 0 || jammed == programs {
		t.Fatalf("%d of %d nests jammed their steps: the draw tests nothing", jammed, programs)
	}
	t.Logf("%d of %d nests jammed their steps", jammed, programs)
}
