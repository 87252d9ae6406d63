package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"nestor/check"
	"nestor/frontend"
)

// TestPack runs the corpus's matrix products with Options.Pack: every
// product statement runs as packed blocks (a note each; syrk's and
// covariance's over a triangle, syr2k's a sum of two products, symm's
// two over triangles of k), nestor
// reads the output back, and the result computes exactly what the
// original computes, at 1 and 2 threads. gemm and syrk also run with k
// long enough for three blocks of k and i for three blocks of rows: each
// thread packs its own Y and meets no barrier between k blocks, so every
// element must get all its k blocks from the same thread, in order.
func TestPack(t *testing.T) {
	_, ccErr := exec.LookPath("cc")
	for _, c := range []struct {
		name    string
		packed  int
		dataset string
		run     bool // check by execution (3mm's products are 2mm's)
	}{{"gemm", 1, "SMALL_DATASET", true}, {"2mm", 2, "SMALL_DATASET", true}, {"3mm", 3, "MINI_DATASET", false},
		{"syrk", 1, "SMALL_DATASET", true}, {"syr2k", 1, "SMALL_DATASET", true}, {"covariance", 1, "SMALL_DATASET", true},
		{"trmm", 1, "SMALL_DATASET", true},
		// symm's temp2 expanded along i and j: two triangular products
		// (k < i), the temporary's heap array allocated outside the
		// region's pieces (a fresh pointer when read back).
		{"symm", 2, "SMALL_DATASET", true}, {"symm/fork", 2, "M=97 N=130 NESTOR_PACK_FORK_WORK=0", true},
		// The team forks below NESTOR_PACK_FORK_WORK here, so that 2
		// threads share the row blocks.
		{"gemm/long-k", 1, "NI=100 NJ=40 NK=600 NESTOR_PACK_FORK_WORK=0", true}, {"syrk/long-k", 1, "N=110 M=600 NESTOR_PACK_FORK_WORK=0", true},
		// Two terms: one-vector register blocks of 8 rows, 110 rows
		// shared by 2 threads, edge blocks on the diagonal and at the end.
		{"syr2k/long-k", 1, "N=110 M=300 NESTOR_PACK_FORK_WORK=0", true}} {
		kernel, _, _ := strings.Cut(c.name, "/")
		defines := strings.Fields(c.dataset)
		t.Run(c.name, func(t *testing.T) {
			f, err := frontend.ParseFile("../testdata/kernels/"+kernel+".c", frontend.Config{Defines: defines})
			if err != nil {
				t.Fatal(err)
			}
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Pack, o.Notes = true, true, &notes
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(notes.String(), "runs as packed blocks"); n != c.packed {
				t.Fatalf("%d products packed, want %d; notes:\n%s", n, c.packed, notes.String())
			}
			// The blocks are printed outside the region's pragmas: nestor
			// reads its output back, and finds no product to pack in it.
			again, err := frontend.Parse(f.Path, out, frontend.Config{Defines: defines})
			if err != nil {
				t.Fatalf("nestor cannot read its packed output: %v\n%s", err, out)
			}
			notes.Reset()
			if _, err := Optimize(again, o); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(notes.String(), "runs as packed blocks") {
				t.Errorf("the packed output packed again:\n%s", notes.String())
			}
			if testing.Short() || ccErr != nil || !c.run {
				return
			}
			// Every element sums its terms in the original order: without
			// FMA contraction, the results are equal.
			res, err := check.Compare(context.Background(), f, nil, out, check.Options{Runs: 1, Threads: []int{1, 2}, Defines: defines,
				CFlags: []string{"-ffp-contract=off"}, Exact: true})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Match {
				var b strings.Builder
				res.Format(&b)
				t.Fatalf("the packed program differs:\n%s", b.String())
			}
		})
	}
}

// TestPackRandom packs random products over boxes and triangles of them
// (offsets, directions, transposed operands, scalar factors, one or two
// terms) and checks each by execution against the original, exactly
// (without FMA contraction), at 1 and 2 threads. Cases packable refuses
// (a row or column of the box the triangle never meets) keep their loops
// and are not counted.
func TestPackRandom(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil || testing.Short() {
		t.Skip("no C compiler, or -short")
	}
	rng := rand.New(rand.NewPCG(5, 17))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	packed := 0
	for c := 0; c < 10; c++ {
		ilo, jlo, klo := rng.IntN(3), rng.IntN(2), rng.IntN(2)
		ihi, jhi, khi := fmt.Sprintf("n - %d", rng.IntN(3)), fmt.Sprintf("n - %d", rng.IntN(2)), fmt.Sprintf("n - %d", rng.IntN(3))
		jloop := fmt.Sprintf("for (int j = %d; j < %s; j++)", jlo, jhi)
		switch b := rng.IntN(4) - 1; rng.IntN(3) {
		case 1:
			jloop = fmt.Sprintf("for (int j = %d; j <= i + %d; j++)", jlo, b)
		case 2:
			jloop = fmt.Sprintf("for (int j = i + %d; j < %s; j++)", b, jhi)
		}
		term := func() string {
			return pick("A[i][k]", "A[k][i]", "alpha * A[i][k]") + " * " + pick("B[k][j]", "B[j][k]", "(B[j][k] * alpha)")
		}
		body := term()
		if rng.IntN(2) == 0 {
			body += " + " + term()
		}
		src := fmt.Sprintf(`#define N 90
void kernel(int n, double alpha, double C[N + 4][N + 4], double A[N + 4][N + 4], double B[N + 4][N + 4]) {
#pragma scop
  for (int i = %d; i < %s; i++)
    %s
      for (int k = %d; k < %s; k++)
        %s += %s;
#pragma endscop
}
`, ilo, ihi, jloop, klo, khi, pick("C[i][j]", "C[j][i]"), body)
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			f := parseSource(t, "rand.c", src)
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Notes = true, &notes
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if !strings.Contains(notes.String(), "runs as packed blocks") {
				t.Logf("not packed:\n%s", src)
				return
			}
			packed++
			res, err := check.Compare(context.Background(), f, nil, out, check.Options{Runs: 1, Threads: []int{1, 2}, Defines: []string{"NESTOR_PACK_FORK_WORK=0"}, // the team forks at 2 threads
				CFlags: []string{"-ffp-contract=off"}, Exact: true})
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if !res.Match {
				var b strings.Builder
				res.Format(&b)
				t.Fatalf("the packed program differs:\n%s\n%s", b.String(), src)
			}
		})
	}
	t.Logf("%d of 10 packed", packed)
	if packed < 5 {
		t.Errorf("only %d of 10 random products packed: the test covers too little", packed)
	}
}

// TestPackTriangleK packs random products over a triangle in k (k from
// i + b up, or up to i + b), some in place as trmm's B[i][j] += A[k][i] *
// B[k][j], with i running up or down: packed where every read of the
// written array sees the region's initial values, each checked equal to
// the original, bit for bit, at 1 and 2 threads.
func TestPackTriangleK(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil || testing.Short() {
		t.Skip("no C compiler, or -short")
	}
	rng := rand.New(rand.NewPCG(11, 3))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	packed, inPlace := 0, 0
	for c := 0; c < 12; c++ {
		ilo, ihi := rng.IntN(3), fmt.Sprintf("n - %d", rng.IntN(3))
		iloop := fmt.Sprintf("for (int i = %d; i < %s; i++)", ilo, ihi)
		if rng.IntN(2) == 0 {
			iloop = fmt.Sprintf("for (int i = %s - 1; i >= %d; i--)", ihi, ilo)
		}
		b := rng.IntN(4) - 1
		kloop := fmt.Sprintf("for (int k = i + %d; k < n - %d; k++)", b, rng.IntN(2))
		if rng.IntN(2) == 0 {
			kloop = fmt.Sprintf("for (int k = %d; k <= i + %d; k++)", rng.IntN(2), b)
		}
		w := pick("C", "B")
		body := fmt.Sprintf("%s[i][j] += %s * B[k][j];", w, pick("A[i][k]", "A[k][i]", "alpha * A[k][i]"))
		src := fmt.Sprintf(`#define N 100
void kernel(int n, double alpha, double C[N + 4][N + 4], double A[N + 4][N + 4], double B[N + 4][N + 4]) {
#pragma scop
  %s
    for (int j = 0; j < n; j++)
      %s
        %s
#pragma endscop
}
`, iloop, kloop, body)
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			f := parseSource(t, "tri.c", src)
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Notes = true, &notes
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if strings.Contains(notes.String(), "runs as packed blocks") {
				packed++
				if w == "B" {
					inPlace++
				}
			}
			res, err := check.Compare(context.Background(), f, nil, out, check.Options{Runs: 1, Threads: []int{1, 2}, Defines: []string{"NESTOR_PACK_FORK_WORK=0"}, // the team forks at 2 threads
				CFlags: []string{"-ffp-contract=off"}, Exact: true})
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if !res.Match {
				var b strings.Builder
				res.Format(&b)
				t.Fatalf("the optimized program differs:\n%s\n%s\n%s", b.String(), src, out)
			}
		})
	}
	t.Logf("%d of 12 packed, %d of them in place", packed, inPlace)
	if packed < 5 || inPlace < 1 {
		t.Errorf("%d of 12 random products packed, %d in place: the test covers too little", packed, inPlace)
	}
}
