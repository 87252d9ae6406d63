package pipeline

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"nestor/check"
	"nestor/frontend"
)

// TestShare prints kernels whose unrolled bodies repeat subexpressions and
// patterns with Options.Share: the output must share them (a const
// temporary, a local macro) and compute, by execution, exactly what the
// original does.
func TestShare(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs C")
	}
	if _, err := exec.LookPath(cmp(os.Getenv("CC"), "cc")); err != nil {
		t.Skip("no C compiler")
	}
	for _, tc := range []struct {
		kernel string
		want   string
	}{
		{"syrk", "const double nestor_s"},
		{"syr2k", "#define nestor_f("},
		{"gemm", ""}, // nothing to share: printed as without Share
		{"../../pipeline/testdata/share4", "#define nestor_f("},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			f, err := frontend.ParseFile("../testdata/kernels/"+tc.kernel+".c", frontend.Config{Defines: []string{"SMALL_DATASET"}})
			if err != nil {
				t.Fatal(err)
			}
			o := DefaultOptions()
			o.Check = true
			o.Pack = false // the register tiles' copies are what Share prints (syrk and syr2k are packed products)
			plain, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			o.Share = true
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if !bytes.Equal(out, plain) {
					t.Errorf("Share changed a body with nothing to share")
				}
				return
			}
			if !strings.Contains(string(out), tc.want) {
				t.Fatalf("no %q in:\n%s", tc.want, out)
			}
			if defs := regexp.MustCompile(`#define nestor_f[0-9]*\(`).FindAll(out, -1); len(defs) != strings.Count(string(out), "#undef nestor_f") {
				t.Errorf("a local macro is not undefined")
			}
			expectOriginal(t, f, out, check.Options{Runs: 1, Defines: []string{"SMALL_DATASET"}})
		})
	}
}
