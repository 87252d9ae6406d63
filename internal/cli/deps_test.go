package cli

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestDepsGolden pins the dependence report of the kernels a compiler
// engineer knows by heart. Review a diff from -update like code: the
// directions and distances must be the textbook ones.
func TestDepsGolden(t *testing.T) {
	for _, k := range []string{"trisolve-1based", "trisolve-0based", "gemm", "jacobi-2d", "seidel-2d", "lu"} {
		t.Run(k, func(t *testing.T) {
			code, out, errw := nestor(t, "deps", "../../testdata/kernels/"+k+".c", "-D", "MINI_DATASET")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errw)
			}
			golden := filepath.Join("testdata", "deps", k+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("%s mismatch; got:\n%s", golden, out)
			}
		})
	}
}

func TestDepsJSON(t *testing.T) {
	code, out, errw := nestor(t, "deps", "../../testdata/kernels/gemm.c", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var regions []depsRegion
	if err := json.Unmarshal([]byte(out), &regions); err != nil {
		t.Fatal(err)
	}
	if len(regions) != 1 || len(regions[0].Deps) == 0 {
		t.Fatalf("got %+v", regions)
	}
	for _, d := range regions[0].Deps {
		if d.Source == "S1" && d.Target == "S1" && d.Kind == "flow" {
			// C[i][j] += ...: carried by k with distance (0, 1..inf, 0).
			if d.CarriedBy != "k" || !d.Reduction || strings.Join(d.Direction, "") != "=<=" ||
				d.Distance[1].Min == nil || *d.Distance[1].Min != 1 || d.Distance[1].Max != nil {
				t.Errorf("gemm S1 -> S1 flow: %+v", d)
			}
			return
		}
	}
	t.Error("no S1 -> S1 flow dependence in gemm")
}

// TestDepsBefore: --before schedule shows what the scheduler is given.
// symm's temp2 is expanded before scheduling, which drops the
// dependences through it; with --expand=false, or --before the first
// pass, the program is the one as written. An unknown pass is a usage
// error that lists the passes.
func TestDepsBefore(t *testing.T) {
	count := func(args ...string) int {
		t.Helper()
		code, out, errw := nestor(t, append([]string{"deps", "../../testdata/kernels/symm.c", "--json", "-D", "MINI_DATASET"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errw)
		}
		var regions []depsRegion
		if err := json.Unmarshal([]byte(out), &regions); err != nil || len(regions) != 1 {
			t.Fatalf("%v: %v (%d regions)", args, err, len(regions))
		}
		return len(regions[0].Deps)
	}
	written := count()
	if n := count("--before", "reroll"); n != written {
		t.Errorf("--before reroll: %d dependences, as written %d", n, written)
	}
	if n := count("--before", "schedule", "--expand=false"); n != written {
		t.Errorf("--before schedule --expand=false: %d dependences, as written %d", n, written)
	}
	if n := count("--before", "schedule"); n >= written {
		t.Errorf("--before schedule: %d dependences, want fewer than the %d as written (temp2 expanded)", n, written)
	}
	code, _, errw := nestor(t, "deps", "../../testdata/kernels/symm.c", "--before", "print")
	if code != 2 || !strings.Contains(errw, "reroll, expand, iss, schedule, rfactor") {
		t.Errorf("--before print: exit %d, %q", code, errw)
	}
}
