package randprog

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"nestor/deps"
	"nestor/frontend"
	"nestor/interp"
	"nestor/ir"
)

var (
	nSeeds    = flag.Int("randprog.n", 30, "number of seeds TestDiff runs (the acceptance run is 1000; -short runs 5)")
	firstSeed = flag.Int64("randprog.first", 1, "first seed of TestDiff and TestGenerate")
	dumpSeed  = flag.Int64("randprog.seed", 1, "seed TestDump prints")
	tempPct   = flag.Int("randprog.temps", DefaultConfig().TempPercent,
		"percent of the programs of TestDiff and TestDump with scalar temporaries (0: the programs seeds gave before temporaries existed)")
)

// testConfig is the configuration of TestDiff and TestDump: the default
// one, with -randprog.temps.
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.TempPercent = *tempPct
	return cfg
}

// selfTestSeeds is how many programs TestGenerate checks; it needs no C
// compiler and takes well under a second per hundred.
const selfTestSeeds = 200

// TestDump prints the program of -randprog.seed on standard output, as a
// file to save and give to nestor (run it with -v to see it).
func TestDump(t *testing.T) {
	p := Generate(*dumpSeed, testConfig())
	fmt.Print(p.Src)
}

// TestGenerate checks the generator's promises on many seeds: the same
// seed gives the same text, the frontend accepts the program, and the
// interpreter runs it without undefined behaviour (no access out of
// bounds), executing as many instances as the generator counted.
func TestGenerate(t *testing.T) {
	cfg := DefaultConfig()
	stmts := map[int]int{}
	var depth [5]int
	for seed := *firstSeed; seed < *firstSeed+selfTestSeeds; seed++ {
		p := Generate(seed, cfg)
		if q := Generate(seed, cfg); q.Src != p.Src {
			t.Fatalf("seed %d: two programs:\n%s\n%s", seed, p.Src, q.Src)
		}
		if p.Stmts < cfg.MinStmts || p.Stmts > cfg.MaxStmts && len(p.Temps) == 0 || p.Depth > cfg.MaxDepth {
			t.Errorf("seed %d: %d statements, depth %d", seed, p.Stmts, p.Depth)
		}
		stmts[p.Stmts]++
		depth[p.Depth]++
		if err := runInterp(p); err != nil {
			t.Errorf("seed %d: %v\n%s", seed, err, p.Src)
		}
	}
	t.Logf("programs by statement count %v, by depth %v", stmts, depth)
}

// TestTemps checks the scalar temporaries on 1000 seeds: about
// Config.TempPercent of the programs have them, every shape occurs, a
// program without them is the one a configuration without temporaries
// gives (the temporaries draw from a stream of their own), and the
// frontend sees each temporary of the first selfTestSeeds programs as a
// scalar local of the kernel that only the region uses, unless the code
// after the region reads it (shape escape).
func TestTemps(t *testing.T) {
	const seeds, slack = 1000, 8 // slack: percent of programs
	cfg := DefaultConfig()
	none := cfg
	none.TempPercent = 0
	with := 0
	shapes := map[string]int{}
	for seed := *firstSeed; seed < *firstSeed+seeds; seed++ {
		p := Generate(seed, cfg)
		if len(p.Temps) == 0 {
			if q := Generate(seed, none); q.Src != p.Src {
				t.Errorf("seed %d: the program without temporaries differs from the one without any drawn:\n%s\n%s", seed, p.Src, q.Src)
			}
			continue
		}
		with++
		escapes := map[string]bool{}
		for _, s := range p.Temps {
			name, shape, _ := strings.Cut(s, ":")
			shapes[shape]++
			escapes[name] = escapes[name] || shape == "escape"
		}
		if seed >= *firstSeed+selfTestSeeds {
			continue
		}
		f, err := frontend.Parse("test.c", []byte(p.Src), frontend.Config{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		prog := f.Scops[0].Prog
		for name, escape := range escapes {
			k := slices.IndexFunc(prog.Arrays, func(a *ir.Array) bool { return a.Name == name })
			if k < 0 {
				t.Errorf("seed %d: the region does not use %s", seed, name)
				continue
			}
			if a := prog.Arrays[k]; a.Rank() != 0 || a.Storage != ir.FuncLocal || a.RegionOnly == escape {
				t.Errorf("seed %d: %s has rank %d, storage %v, region only %v", seed, name, a.Rank(), a.Storage, a.RegionOnly)
			}
		}
	}
	t.Logf("%d programs of %d with temporaries; shapes %v", with, seeds, shapes)
	if pct := with * 100 / seeds; pct < cfg.TempPercent-slack || pct > cfg.TempPercent+slack {
		t.Errorf("%d%% of the programs have temporaries, want about %d%%", pct, cfg.TempPercent)
	}
	for _, s := range tempShapes {
		if shapes[s.name] == 0 {
			t.Errorf("no temporary of shape %s", s.name)
		}
	}
}

// runInterp parses p and runs it under the interpreter on pseudo-random
// inputs.
func runInterp(p Program) error {
	f, err := frontend.Parse(fmt.Sprintf("seed%d.c", p.Seed), []byte(p.Src), frontend.Config{})
	if err != nil {
		return err
	}
	if len(f.Scops) != 1 {
		return fmt.Errorf("%d regions", len(f.Scops))
	}
	prog := f.Scops[0].Prog
	if err := ir.Check(prog); err != nil {
		return err
	}
	if len(prog.Stmts) != p.Stmts {
		return fmt.Errorf("the frontend sees %d statements, the generator wrote %d", len(prog.Stmts), p.Stmts)
	}
	params, err := paramValues(prog, p.Params)
	if err != nil {
		return err
	}
	n := 0
	if err := interp.Instances(prog, params, func(int, []int64) error { n++; return nil }); err != nil {
		return err
	}
	if n != p.Instances {
		return fmt.Errorf("the interpreter runs %d instances, the generator counted %d", n, p.Instances)
	}
	_, err = execute(prog, params)
	return err
}

// paramValues orders the values of vals as prog.Params.
func paramValues(prog *ir.Program, vals map[string]int64) ([]int64, error) {
	params := make([]int64, len(prog.Params))
	for k, q := range prog.Params {
		v, ok := vals[q.Name]
		if !ok {
			return nil, fmt.Errorf("no value for parameter %s", q.Name)
		}
		params[k] = v
	}
	return params, nil
}

// execute runs prog at params on inputs that depend only on each array's
// name and element index, and returns the memory after the run.
func execute(prog *ir.Program, params []int64) (*interp.Memory, error) {
	m, err := interp.NewMemory(prog, params)
	if err != nil {
		return nil, err
	}
	for a, arr := range prog.Arrays {
		h := uint64(0xcbf29ce484222325) // FNV-1a of the name
		for _, c := range []byte(arr.Name) {
			h = (h ^ uint64(c)) * 0x100000001b3
		}
		for k := range m.Len(a) {
			x := splitmix(h + uint64(k))
			if arr.Elem.IsFloat() {
				m.SetFloat64(a, k, float64(x>>11)/(1<<53))
			} else {
				m.SetInt64(a, k, int64(x%64))
			}
		}
	}
	return m, interp.Run(prog, params, m)
}

// splitmix is one step of SplitMix64: a well-mixed function of x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// TestDependences checks that the programs have the dependences the test
// is for: over selfTestSeeds programs, each kind of dependence, carried and
// loop-independent ones, ones between statements and reductions occur in
// at least minShare of the programs.
func TestDependences(t *testing.T) {
	const minShare = 0.15
	counts := map[string]int{}
	for seed := *firstSeed; seed < *firstSeed+selfTestSeeds; seed++ {
		p := Generate(seed, DefaultConfig())
		f, err := frontend.Parse("test.c", []byte(p.Src), frontend.Config{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		g, err := deps.Analyze(f.Scops[0].Prog)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		has := map[string]bool{}
		for _, e := range g.Edges {
			has[e.Kind.String()] = true
			if e.LoopIndependent() {
				has["loop-independent"] = true
			} else {
				has["loop-carried"] = true
			}
			if e.Source != e.Target {
				has["between statements"] = true
			}
			if e.Reduction {
				has["reduction"] = true
			}
		}
		for k := range has {
			counts[k]++
		}
	}
	t.Logf("programs with each feature, of %d: %v", selfTestSeeds, counts)
	for _, k := range []string{"flow", "anti", "output", "loop-carried", "loop-independent", "between statements", "reduction"} {
		if float64(counts[k]) < minShare*selfTestSeeds {
			t.Errorf("%s dependences in %d programs of %d", k, counts[k], selfTestSeeds)
		}
	}
}
