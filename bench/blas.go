package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"nestor/check"
	"nestor/ir"
)

// blasSource is the OpenBLAS driver: it reads gemm's inputs as the baseline
// harness wrote them (alpha, beta, then C, A and B, raw doubles, in the
// order of its manifest), and computes C = alpha·A·B + beta·C with one
// cblas_dgemm call. Like a harness it prints "nestor-time NANOSECONDS",
// the mean of calls repeated (C restored before each) until they add up to
// 20 ms; its first call is untimed, so that the thread pool and the
// library's buffers are set up. "out FILE" also writes C after one call;
// "config" prints the library's build and the kernels it chose.
const blasSource = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cblas.h>

static double *load(FILE *f, size_t n) {
	double *p = aligned_alloc(64, (n * sizeof(double) + 63) / 64 * 64 + 64);
	if (!p || fread(p, sizeof(double), n, f) != n) {
		fprintf(stderr, "nestor bench: reading the inputs\n");
		exit(2);
	}
	return p;
}

int main(int argc, char **argv) {
	if (argc == 2 && strcmp(argv[1], "config") == 0) {
		printf("%s (kernels for %s)\n", openblas_get_config(), openblas_get_corename());
		return 0;
	}
	if (argc != 13) {
		fprintf(stderr, "usage: %s out|time IN OUT ni nj nk rowsC ldc rowsA lda rowsB ldb, or %s config\n", argv[0], argv[0]);
		return 2;
	}
	int out = strcmp(argv[1], "out") == 0;
	long v[9];
	for (int k = 0; k < 9; k++)
		v[k] = atol(argv[4 + k]);
	int ni = v[0], nj = v[1], nk = v[2];
	size_t nc = (size_t)v[3] * v[4], na = (size_t)v[5] * v[6], nb = (size_t)v[7] * v[8];
	int ldc = v[4], lda = v[6], ldb = v[8];
	FILE *f = fopen(argv[2], "rb");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	double *alpha = load(f, 1), *beta = load(f, 1);
	double *C = load(f, nc), *A = load(f, na), *B = load(f, nb);
	fclose(f);
	double *C0 = malloc(nc * sizeof(double));
	memcpy(C0, C, nc * sizeof(double));

	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nj, nk, *alpha, A, lda, B, ldb, *beta, C, ldc);
	long long ns = 0, calls = 0;
	do {
		struct timespec t0, t1;
		memcpy(C, C0, nc * sizeof(double));
		clock_gettime(CLOCK_MONOTONIC, &t0);
		cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nj, nk, *alpha, A, lda, B, ldb, *beta, C, ldc);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns += (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
		calls++;
	} while (!out && ns < 20000000LL && calls < 10000);
	if (out) {
		f = fopen(argv[3], "wb");
		if (!f || fwrite(C, sizeof(double), nc, f) != nc || fclose(f) != 0) {
			perror(argv[3]);
			return 2;
		}
	}
	printf("nestor-time %lld\n", ns / calls);
	return 0;
}
`

// buildBLAS compiles the OpenBLAS driver into a folder of its own, kept
// for the run, and asks the library what it is.
func (b *bencher) buildBLAS(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "nestor-bench-blas-")
	if err != nil {
		return err
	}
	src, exe := filepath.Join(dir, "blas.c"), filepath.Join(dir, "blas")
	if err := os.WriteFile(src, []byte(blasSource), 0o644); err != nil {
		os.RemoveAll(dir)
		return err
	}
	cc := strings.Fields(b.cfg.CC)
	args := append(cc[1:], "-O2", "-o", exe, src, "-lopenblas")
	if out, err := exec.CommandContext(ctx, cc[0], args...).CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("cannot build a cblas_dgemm program: %v: %s", err, firstLine(string(out)))
	}
	cmd := exec.CommandContext(ctx, exe, "config")
	cmd.Env = b.environ(OpenBLAS, 1) // what the timed runs see
	out, err := cmd.Output()
	if err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("a cblas_dgemm program does not run: %v", err)
	}
	b.blasDir, b.blasDriver, b.blasConfig = dir, exe, strings.TrimSpace(string(out))
	return nil
}

// isGemm reports whether the kernel is PolyBench's gemm, the one OpenBLAS
// computes.
func isGemm(h *check.Harness) bool {
	return h.Kernel() == "kernel_gemm"
}

// blasRunner runs the driver on the inputs blasInputs wrote.
type blasRunner struct {
	driver string
	in     string   // the inputs; empty until blasInputs
	args   []string // ni nj nk rowsC ldc rowsA lda rowsB ldb
	dims   []int64  // of C
}

// blasInputs writes the baseline's inputs in the driver's format, once for
// all thread counts of v's runner.
func (b *bencher) blasInputs(ctx context.Context, v *variant, h *check.Harness, base *variant, dir string) error {
	r := v.run.(*blasRunner)
	if r.in != "" {
		return nil
	}
	exe, ok := base.run.(harnessRunner)
	if !ok {
		return fmt.Errorf("no baseline harness")
	}
	file := filepath.Join(dir, "gemm.in")
	_, _, err := b.once(ctx, func(ctx context.Context) (*check.Data, time.Duration, error) {
		d, err := exe.exe.Inputs(ctx, file, base.env)
		if err != nil {
			return nil, 0, err
		}
		return nil, 0, r.setInputs(d, file)
	})
	return err
}

// setInputs checks that d holds gemm's inputs and writes them to file.
func (r *blasRunner) setInputs(d *check.Data, file string) error {
	var buf bytes.Buffer
	shape := map[string]int{"alpha": 0, "beta": 0, "C": 2, "A": 2, "B": 2}
	arrays := map[string]*check.ArrayData{}
	for _, name := range []string{"alpha", "beta", "C", "A", "B"} {
		a := d.Array(name)
		if a == nil || a.Elem != ir.Double || len(a.Dims) != shape[name] {
			return fmt.Errorf("gemm's inputs: want %s, a double of rank %d", name, shape[name])
		}
		arrays[name] = a
		buf.Write(a.Raw)
	}
	ni, nj, nk := d.Params["ni"], d.Params["nj"], d.Params["nk"]
	C, A, B := arrays["C"].Dims, arrays["A"].Dims, arrays["B"].Dims
	if ni > C[0] || nj > C[1] || ni > A[0] || nk > A[1] || nk > B[0] || nj > B[1] {
		return fmt.Errorf("gemm's sizes ni=%d nj=%d nk=%d exceed its arrays", ni, nj, nk)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return err
	}
	r.in, r.dims = file, C
	r.args = nil
	for _, x := range []int64{ni, nj, nk, C[0], C[1], A[0], A[1], B[0], B[1]} {
		r.args = append(r.args, strconv.FormatInt(x, 10))
	}
	return nil
}

func (r *blasRunner) exec(ctx context.Context, mode, file string, env []string) (time.Duration, error) {
	args := append([]string{mode, r.in, file}, r.args...)
	cmd := exec.CommandContext(ctx, r.driver, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return 0, fmt.Errorf("openblas %s: %v: %s", mode, err, firstLine(stderr.String()))
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "nestor-time "); ok {
			ns, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
			if err != nil {
				break
			}
			return time.Duration(ns), nil
		}
	}
	return 0, fmt.Errorf("openblas %s: no time in its output", mode)
}

func (r *blasRunner) output(ctx context.Context, file string, env []string) (*check.Data, time.Duration, error) {
	t, err := r.exec(ctx, "out", file, env)
	if err != nil {
		return nil, 0, err
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, 0, err
	}
	c := &check.ArrayData{Name: "C", Elem: ir.Double, Dims: r.dims, Raw: raw}
	return &check.Data{Arrays: []*check.ArrayData{c}}, t, nil
}

func (r *blasRunner) time(ctx context.Context, env []string) (time.Duration, error) {
	return r.exec(ctx, "time", "-", env)
}
