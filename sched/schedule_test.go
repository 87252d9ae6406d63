package sched

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"nestor/codegen"
	"nestor/deps"
	"nestor/frontend"
	"nestor/interp"
	"nestor/ir"
)

// runBoth executes p and q (the same program under another schedule) on
// the same pseudo-random inputs and reports the first array that differs.
func runBoth(t *testing.T, p, q *ir.Program, params []int64) {
	t.Helper()
	mp, err := interp.NewMemory(p, params)
	if err != nil {
		t.Fatal(err)
	}
	mq, _ := interp.NewMemory(q, params)
	rng := rand.New(rand.NewPCG(1, 2))
	for a := range p.Arrays {
		b := mp.Bytes(a)
		for k := range mp.Len(a) {
			if p.Arrays[a].Elem.IsFloat() {
				mp.SetFloat64(a, k, rng.Float64()+1)
			} else {
				mp.SetInt64(a, k, rng.Int64N(64))
			}
		}
		copy(mq.Bytes(a), b)
	}
	if err := interp.Run(p, params, mp); err != nil {
		t.Fatal(err)
	}
	if err := interp.Run(q, params, mq); err != nil {
		t.Fatal(err)
	}
	for a, arr := range p.Arrays {
		if !bytes.Equal(mp.Bytes(a), mq.Bytes(a)) {
			t.Fatalf("array %s differs under the new schedule", arr.Name)
		}
	}
}

// TestApplyOriginal rewrites every corpus kernel under its own original
// schedule: the result must pass ir.Check, compute bit for bit the same
// values under the interpreter, and go through code generation.
func TestApplyOriginal(t *testing.T) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) < 32 {
		t.Fatalf("found %d kernels", len(ks))
	}
	for _, k := range ks {
		t.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(t *testing.T) {
			f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"MINI_DATASET"}})
			if err != nil {
				t.Fatal(err)
			}
			p := f.Scops[0].Prog
			q, err := Apply(p, Original(p))
			if err != nil {
				t.Fatal(err)
			}
			if err := ir.Check(q); err != nil {
				t.Fatal(err)
			}
			params := make([]int64, len(p.Params))
			for i := range params {
				params[i] = 4 - int64(i%2) // within every MINI array size
			}
			runBoth(t, p, q, params)
			if _, err := codegen.Build(q); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// analyzed parses C source (src, or the file at path when src is nil) and
// returns its one region's program and dependences.
func analyzed(tb testing.TB, path string, src []byte, defines ...string) (*ir.Program, *deps.Graph) {
	tb.Helper()
	cfg := frontend.Config{Defines: defines}
	var f *frontend.File
	var err error
	if src == nil {
		f, err = frontend.ParseFile(path, cfg)
	} else {
		f, err = frontend.Parse(path, src, cfg)
	}
	if err != nil {
		tb.Fatal(err)
	}
	p := f.Scops[0].Prog
	g, err := deps.Analyze(p)
	if err != nil {
		tb.Fatal(err)
	}
	return p, g
}
