package model

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{{"48K", 48 << 10, true}, {"32M", 32 << 20, true}, {"4096", 4096, true}, {"", 0, false}, {"-1K", 0, false}, {"xK", 0, false}} {
		got, ok := parseSize(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("parseSize(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestHostPositive(t *testing.T) {
	m := Host()
	if m.Cores < 1 || m.L1 <= 0 || m.L2 < m.L1 || m.L3 <= 0 {
		t.Errorf("Host() = %+v: sizes must be positive and L2 ≥ L1", m)
	}
	if m.LogicalCores < 1 || m.PhysicalCores < 1 || m.PhysicalCores > m.LogicalCores || m.VectorBytes < 8 || m.CPU == "" || len(m.Fingerprint) != 12 {
		t.Errorf("Host() = %+v: cores, vector width, model name or fingerprint missing", m)
	}
	if m.Measured || m.FMAPeak != 0 {
		t.Errorf("Host() claims measurements: %+v", m)
	}
}

func TestRegisterTile(t *testing.T) {
	for _, c := range []struct {
		regs       int
		rows, cols int64
	}{{32, 6, 4}, {16, 4, 2}} {
		r, k := Machine{VectorRegs: c.regs}.RegisterTile()
		if r != c.rows || k != c.cols {
			t.Errorf("%d registers: tile %d×%d, want %d×%d", c.regs, r, k, c.rows, c.cols)
		}
		if need := r*k + r + 2; need > int64(c.regs) {
			t.Errorf("%d registers: tile %d×%d needs %d", c.regs, r, k, need)
		}
	}
}

// intelHT is an AVX2 host with two cores of two hyperthreads each (the
// /proc/cpuinfo shape of a Haswell laptop, fields cut to those read).
const intelHT = `processor	: 0
model name	: Intel(R) Core(TM) i7-4600U CPU @ 2.10GHz
physical id	: 0
core id		: 0
flags		: fpu sse sse2 avx fma avx2
processor	: 1
model name	: Intel(R) Core(TM) i7-4600U CPU @ 2.10GHz
physical id	: 0
core id		: 1
flags		: fpu sse sse2 avx fma avx2
processor	: 2
model name	: Intel(R) Core(TM) i7-4600U CPU @ 2.10GHz
physical id	: 0
core id		: 0
flags		: fpu sse sse2 avx fma avx2
processor	: 3
model name	: Intel(R) Core(TM) i7-4600U CPU @ 2.10GHz
physical id	: 0
core id		: 1
flags		: fpu sse sse2 avx fma avx2
`

func TestParseCPUInfo(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		name, text        string
		model             string
		logical, physical int
		vectorBytes, regs int
	}{
		// This machine's /proc/cpuinfo (a 2-core Zen 5 VM): AVX-512.
		{"epyc", read("cpuinfo-epyc.txt"), "AMD EPYC", 2, 2, 64, 32},
		// Hyperthreads: four processors on two cores; AVX2.
		{"intel-ht", intelHT, "Intel(R) Core(TM) i7-4600U CPU @ 2.10GHz", 4, 2, 32, 16},
		// Arm (Graviton-like): no model name, Features for flags, ASIMD.
		{"arm", read("cpuinfo-arm.txt"), "", 3, 0, 16, 16},
		// No /proc/cpuinfo at all.
		{"none", "", "", 0, 0, 8, 16},
	} {
		ci := parseCPUInfo(c.text)
		if ci.model != c.model || ci.logical != c.logical || ci.physical != c.physical || ci.vectorBytes() != c.vectorBytes {
			t.Errorf("%s: model %q, %d logical, %d physical, %d vector bytes; want %q, %d, %d, %d",
				c.name, ci.model, ci.logical, ci.physical, ci.vectorBytes(), c.model, c.logical, c.physical, c.vectorBytes)
		}
		m := describe(ci, caches{defaultL1, defaultL2, defaultL3}, 7)
		if m.VectorRegs != c.regs || m.Cores != 7 || m.LogicalCores < 1 || m.PhysicalCores < 1 || m.CPU == "" {
			t.Errorf("%s: described as %+v", c.name, m)
		}
	}
}

func TestReadCaches(t *testing.T) {
	// A Zen 4 core's sysfs: L1d and L1i both level 1, the instruction
	// cache skipped.
	if got, want := readCaches("testdata/sysfs-zen4"), (caches{32 << 10, 1 << 20, 32 << 20}); got != want {
		t.Errorf("readCaches(sysfs-zen4) = %+v, want %+v", got, want)
	}
	// No sysfs (this VM): the defaults.
	if got, want := readCaches("testdata/no-such-folder"), (caches{defaultL1, defaultL2, defaultL3}); got != want {
		t.Errorf("readCaches(missing) = %+v, want %+v", got, want)
	}
}

func TestFingerprint(t *testing.T) {
	ci := parseCPUInfo(intelHT)
	c := caches{32 << 10, 256 << 10, 4 << 20}
	a, b := describe(ci, c, 4), describe(ci, c, 2)
	if a.Fingerprint != b.Fingerprint {
		t.Errorf("same hardware, different fingerprints %s %s (only the affinity differs)", a.Fingerprint, b.Fingerprint)
	}
	c.l3 = 8 << 20
	if d := describe(ci, c, 4); d.Fingerprint == a.Fingerprint {
		t.Errorf("another L3, same fingerprint %s", a.Fingerprint)
	}
	a.FMAPeak = 1e11
	if fingerprint(a) != b.Fingerprint {
		t.Error("a measured number changed the fingerprint")
	}
}

func TestNominal(t *testing.T) {
	m := Nominal()
	if m.Measured {
		t.Error("Nominal is marked measured")
	}
	if err := m.validate(); err != nil {
		t.Errorf("Nominal: %v", err)
	}
	if m.Fingerprint != Host().Fingerprint || len(m.ForkJoin) != m.Cores {
		t.Errorf("Nominal %+v: want Host's fingerprint and one cost per thread count", m)
	}
	for l := range NumLevels - 1 {
		if m.Read[l].PerCore < m.Read[l+1].PerCore {
			t.Errorf("nominal %v slower than %v", Level(l), Level(l+1))
		}
	}
	if got := m.ReadBandwidth(LevelDRAM, 1); got != m.Read[LevelDRAM].PerCore {
		t.Errorf("ReadBandwidth(DRAM, 1) = %g, want the per-core %g", got, m.Read[LevelDRAM].PerCore)
	}
	if got := m.ReadBandwidth(LevelL1, 1000); got != m.Read[LevelL1].All {
		t.Errorf("ReadBandwidth(L1, 1000) = %g, want all cores' %g", got, m.Read[LevelL1].All)
	}
	if m.ForkJoinCost(1000) != m.ForkJoin[len(m.ForkJoin)-1].Min || m.BarrierCost(0) != m.Barrier[0].Min {
		t.Error("OpenMP costs not clamped to the thread counts measured")
	}
}

// sampleMachine is a measured machine with every field set, as Measure
// would fill it.
func sampleMachine() Machine {
	m := Nominal()
	m.Measured, m.MeasuredAt, m.Compiler, m.LoadAvg = true, time.Date(2026, 11, 25, 19, 30, 0, 0, time.UTC), "cc 12", 1.5
	m.Knees = [3]int64{48 << 10, 1 << 20, 32 << 20}
	m.Sweep = []SweepPoint{{4096, 4e11}, {8192, 3.9e11}}
	m.ForkJoin[0].Median = 2 * m.ForkJoin[0].Min
	return m
}

func TestSaveRoundTrip(t *testing.T) {
	m := sampleMachine()
	path := filepath.Join(t.TempDir(), "sub", "machine.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, m)
	}
	// The file names its units.
	b, _ := os.ReadFile(path)
	for _, key := range []string{`"fma_peak_flops"`, `"fma_latency_s"`, `"per_core_bytes_per_s"`, `"fingerprint"`, `"measured": true`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("saved JSON lacks %s", key)
		}
	}
}

func TestReadFileRejects(t *testing.T) {
	dir := t.TempDir()
	bad := sampleMachine()
	bad.Read[LevelL2].All = 0
	for name, text := range map[string]string{
		"notjson":  "{",
		"empty":    "{}",
		"zero-bw":  mustJSON(t, bad),
		"negative": strings.Replace(mustJSON(t, sampleMachine()), `"cores": `, `"cores": -`, 1),
		"format":   strings.Replace(mustJSON(t, sampleMachine()), fmt.Sprintf(`"format": %d`, Format), `"format": 0`, 1),
	} {
		path := filepath.Join(dir, name+".json")
		os.WriteFile(path, []byte(text), 0o644)
		if _, err := ReadFile(path); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

func mustJSON(t *testing.T, m Machine) string {
	path := filepath.Join(t.TempDir(), "m.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	t.Setenv(MachineEnv, path)
	if p, _ := CachePath(); p != path {
		t.Errorf("CachePath = %s with %s set, want %s", p, MachineEnv, path)
	}
	// Named but missing: nominal values and an error.
	m, err := Load()
	if err == nil || m.Measured || m.FMAPeak <= 0 {
		t.Errorf("Load of a missing $%s: %v, measured %v, peak %g; want an error and nominal values", MachineEnv, err, m.Measured, m.FMAPeak)
	}
	want := sampleMachine()
	if err := want.Save(path); err != nil {
		t.Fatal(err)
	}
	if m, err = Load(); err != nil || !reflect.DeepEqual(m, want) {
		t.Errorf("Load = %+v, %v; want the saved machine", m, err)
	}
	// Not named and not cached: nominal values, no error.
	t.Setenv(MachineEnv, "")
	t.Setenv("XDG_CACHE_HOME", dir)
	t.Setenv("HOME", dir)
	p, err := CachePath()
	if err != nil || !strings.HasPrefix(p, dir) || !strings.Contains(p, Host().Fingerprint) {
		t.Errorf("CachePath = %s, %v: want a file under %s named by the fingerprint", p, err, dir)
	}
	if m, err = Load(); err != nil || m.Measured {
		t.Errorf("Load with no cache = measured %v, %v; want nominal, no error", m.Measured, err)
	}
	if err := want.Save(p); err != nil {
		t.Fatal(err)
	}
	if m, err = Load(); err != nil || !m.Measured {
		t.Errorf("Load after Save to CachePath: measured %v, %v", m.Measured, err)
	}
}

func TestKnees(t *testing.T) {
	// A synthetic sweep with plateaus at 400, 200, 80 and 20 GB/s and caches
	// of 48 KiB, 1 MiB and 32 MiB, with ±3% noise and a one-point
	// transition.
	noise := []float64{1.03, 0.98, 1.0, 0.97, 1.02}
	var sweep []SweepPoint
	for i, b := range sweepSizes(32 << 20) {
		bw := 20e9
		switch {
		case b <= 48<<10:
			bw = 400e9
		case b <= 1<<20:
			bw = 200e9
		case b <= 32<<20:
			bw = 80e9
		}
		if i%7 == 3 {
			bw *= 0.9
		}
		sweep = append(sweep, SweepPoint{b, bw * noise[i%len(noise)]})
	}
	got := knees(sweep)
	for k, want := range []int64{48 << 10, 1 << 20, 32 << 20} {
		if r := float64(got[k]) / float64(want); r < 1/math.Sqrt2-0.01 || r > 1 {
			t.Errorf("knee %d = %d, want %d or the sweep point below it", k+1, got[k], want)
		}
	}
	// A flat sweep (no caches to see): no knees.
	for i := range sweep {
		sweep[i].PerCore = 100e9 * noise[i%len(noise)]
	}
	if got := knees(sweep); got != [3]int64{} {
		t.Errorf("flat sweep: knees %v, want none", got)
	}
}

func TestSweepSizes(t *testing.T) {
	s := sweepSizes(32 << 20)
	if s[0] != 4096 || s[len(s)-1] > 128<<20 || s[len(s)-1] < 64<<20 {
		t.Errorf("sweep from %d to %d; want 4 KiB to 4 × L3", s[0], s[len(s)-1])
	}
	for i := 1; i < len(s); i++ {
		if r := float64(s[i]) / float64(s[i-1]); s[i]%512 != 0 || r < 1.3 || r > 1.5 {
			t.Errorf("step %d → %d", s[i-1], s[i])
		}
	}
}

func TestParseSamples(t *testing.T) {
	ss, err := parseSamples("100 2\n300 2\n200 2\n50 1\n")
	if err != nil {
		t.Fatal(err)
	}
	if p := peak(ss); p != 150 {
		t.Errorf("peak = %g, want 150", p)
	}
	if least, median := cost(ss); least != 1.0/150 || median != (0.01+0.02)/2 {
		t.Errorf("cost = %g, %g; want %g, %g", least, median, 1.0/150, 0.015)
	}
	// A third column: the fastest single operation.
	ss, err = parseSamples("10 2e-5 1e-6\n10 3e-5 5e-7\n10 1e-5 9e-7\n")
	if err != nil {
		t.Fatal(err)
	}
	if least, median := cost(ss); least != 5e-7 || math.Abs(median-2e-6) > 1e-18 {
		t.Errorf("cost with fastest operations = %g, %g; want 5e-7, 2e-6", least, median)
	}
	for _, bad := range []string{"", "1\n", "1 0\n", "-1 2\n", "x 1\n", "1 2 3\n", "1 2 3 4\n", "1 2 0\n", "NaN 1\n", "Inf 1\n", "1e308 1e-308\n"} {
		if _, err := parseSamples(bad); err == nil {
			t.Errorf("parseSamples(%q) accepted", bad)
		}
	}
}

func TestSI(t *testing.T) {
	for _, c := range []struct {
		x    float64
		unit string
		want string
	}{{1.234e11, "flop/s", "123 Gflop/s"}, {1.2e-9, "s", "1.2 ns"}, {3e-6, "s", "3 µs"}, {5, "B/s", "5 B/s"}, {0, "s", "0 s"}} {
		if got := siUnit(c.x, c.unit); got != c.want {
			t.Errorf("siUnit(%g, %s) = %q, want %q", c.x, c.unit, got, c.want)
		}
	}
	for b, want := range map[int64]string{48 << 10: "48 KiB", 1 << 20: "1 MiB", 23726080: "22.6 MiB", 100: "100 B"} {
		if got := siBytes(b); got != want {
			t.Errorf("siBytes(%d) = %q, want %q", b, got, want)
		}
	}
}

func FuzzParseCPUInfo(f *testing.F) {
	f.Add(intelHT)
	f.Add("processor : 0\nflags : avx512f\n\nprocessor : 1\n")
	f.Add("core id : 3\nphysical id : 1\n:::\n")
	f.Fuzz(func(t *testing.T, s string) {
		ci := parseCPUInfo(s)
		if vb := ci.vectorBytes(); vb != 8 && vb != 16 && vb != 32 && vb != 64 {
			t.Errorf("vector width %d", vb)
		}
		if ci.logical < 0 || ci.physical < 0 {
			t.Errorf("negative counts %d %d", ci.logical, ci.physical)
		}
		m := describe(ci, caches{1, 2, 3}, 1)
		if m.LogicalCores < 1 || m.PhysicalCores < 1 || m.CPU == "" || len(m.Fingerprint) != 12 {
			t.Errorf("described as %+v", m)
		}
	})
}

func FuzzParseSamples(f *testing.F) {
	f.Add("100 2\n300 2\n")
	f.Add("1e308 1e-308\n")
	f.Add("Inf 1\n")
	f.Fuzz(func(t *testing.T, s string) {
		ss, err := parseSamples(s)
		if err != nil {
			return
		}
		if p := peak(ss); !(p > 0) {
			t.Errorf("peak %g of %v", p, ss)
		}
		if least, median := cost(ss); !(least >= 0) || least > median {
			t.Errorf("cost %g, %g of %v", least, median, ss)
		}
	})
}
