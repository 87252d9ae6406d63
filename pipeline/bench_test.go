package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nestor/frontend"
)

var sink []byte

// BenchmarkCompile measures nestor's own time per corpus kernel: parse
// (preprocessor and system headers included), build the IR, and generate
// the optimized file. Target: under 5 ms per PolyBench kernel.
func BenchmarkCompile(b *testing.B) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	for _, k := range ks {
		src, err := os.ReadFile(k)
		if err != nil {
			b.Fatal(err)
		}
		cfg := frontend.Config{Defines: []string{"LARGE_DATASET"}}
		b.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(b *testing.B) {
			for b.Loop() {
				f, err := frontend.Parse(k, src, cfg)
				if err != nil {
					b.Fatal(err)
				}
				if sink, err = Optimize(f, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
