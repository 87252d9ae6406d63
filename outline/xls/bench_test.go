package xls

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nestor/outline"
)

// BenchmarkEvalCorpus evaluates every function of the .ir files under
// $NESTOR_XLS_CORPUS (see TestCorpus) on 4 random vectors drawn from a
// fixed seed: a mix of every operation as the XLS repository uses them.
// It is skipped when the variable is not set.
func BenchmarkEvalCorpus(b *testing.B) {
	dir := os.Getenv("NESTOR_XLS_CORPUS")
	if dir == "" {
		b.Skip("NESTOR_XLS_CORPUS not set")
	}
	type call struct {
		e    *Evaluator
		f    *outline.Function
		args []Value
	}
	var calls []call
	r := rand.New(rand.NewPCG(1, 1))
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".ir") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		p, err := Parse(path, src)
		if err != nil {
			b.Fatal(err)
		}
		e, err := NewEvaluator(p)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range p.Funcs {
			for range 4 {
				args := make([]Value, len(f.Params))
				for i, q := range f.Params {
					args[i] = RandomValue(q.Type, r)
				}
				if _, err := e.Call(f, args); err == nil {
					calls = append(calls, call{e, f, args})
				}
			}
		}
		return nil
	})
	b.ResetTimer()
	for b.Loop() {
		for _, c := range calls {
			sink, _ = c.e.Call(c.f, c.args)
		}
	}
}
