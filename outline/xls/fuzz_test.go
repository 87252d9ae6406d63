package xls

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// FuzzParse parses arbitrary text. Parse must not panic; when it accepts
// the text, writing and parsing again must give an equal package, writing
// must be idempotent, and evaluating every function on random inputs
// must not panic (within a budget of steps).
func FuzzParse(f *testing.F) {
	for _, file := range append(testFiles(f), repoFiles(f)...) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	for _, s := range []string{
		"package p\nfn f(x: bits[8] id=1) -> bits[8] {\n  ret x: bits[8] = param(name=x, id=1)\n}\n",
		"package p\nfn f(x: bits[3], y: bits[8]) -> bits[8] {\n  ret r: bits[8] = sel(x, cases=[y, y], default=y)\n}\n",
		"package p\nfn f(x: bits[0]) -> (bits[0], ()) {\n  t: () = tuple()\n  ret r: (bits[0], ()) = tuple(x, t)\n}\n",
		"package p\ntop fn f(a: bits[2][3][4]) -> bits[2] {\n  ret r: bits[2] = array_index(a, indices=[a, a])\n}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse("fuzz.ir", []byte(src))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.ir:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		roundTrip(t, p)
		e, err := NewEvaluator(p)
		if err != nil {
			t.Fatalf("NewEvaluator of a parsed package: %v", err)
		}
		e.limited, e.budget = true, 20000
		r := rand.New(rand.NewPCG(1, 2))
		for _, fn := range p.Funcs {
			args := make([]Value, len(fn.Params))
			for i, q := range fn.Params {
				args[i] = RandomValue(q.Type, r)
			}
			if _, err := e.Call(fn, args); err != nil && !strings.Contains(err.Error(), "budget") {
				t.Fatalf("Eval %s: %v", fn.Name, err)
			}
		}
	})
}
