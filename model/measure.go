package model

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed bench/bench.c
var benchSource string

// MeasureOptions tunes Measure; the zero value measures with the defaults.
type MeasureOptions struct {
	// CC is the C compiler command, with arguments if any ("" : $CC, or
	// cc). It must accept -O3 -march=native -fopenmp.
	CC string
	// Reps is the number of samples of each benchmark (default 5).
	Reps int
	// Sample is the least time one sample lasts (default 15 ms): the
	// benchmark's repetition count doubles until one run takes that long.
	Sample time.Duration
	// MaxThreads is the largest thread count of the OpenMP costs and of
	// the all-core bandwidths (default and upper limit: Cores).
	MaxThreads int
	// Progress receives one line per benchmark as it completes (nil:
	// none).
	Progress io.Writer
}

// Defaults of MeasureOptions. With them the whole measurement takes
// about ten seconds on two cores.
const (
	defaultReps   = 5
	defaultSample = 15 * time.Millisecond
	// sweepDivisor shortens the samples of the cache-size sweep, which
	// has many points and needs no more than their order.
	sweepDivisor = 4
	// sweepReps bounds the samples of each sweep point.
	sweepReps = 3
	// kneeDrop is the least bandwidth ratio between two plateaus of the
	// sweep for the boundary between them to count as a cache size.
	kneeDrop = 1.15
	// runTimeout bounds one run of a benchmark: its repetition count is
	// calibrated once, and a machine that becomes loaded afterwards can
	// make the samples many times longer than their target.
	runTimeout = 2 * time.Minute
	// wakeGap is how long the master works alone before each fork of the
	// wake benchmark: long enough for a passive team to be asleep.
	wakeGap = 200 * time.Microsecond
)

// Measure runs the micro-benchmarks on this host and returns Host with
// every measured field filled in, Measured true. It builds the benchmarks
// with the C compiler in a temporary folder, which it removes.
func Measure(ctx context.Context, opt MeasureOptions) (Machine, error) {
	m := Host()
	m.Format = Format
	m.LoadAvg = loadAvg()
	m.MeasuredAt = time.Now().UTC().Truncate(time.Second)
	if opt.Reps <= 0 {
		opt.Reps = defaultReps
	}
	if opt.Sample <= 0 {
		opt.Sample = defaultSample
	}
	if opt.MaxThreads <= 0 || opt.MaxThreads > m.Cores {
		opt.MaxThreads = m.Cores
	}
	dir, err := os.MkdirTemp("", "nestor-machine-")
	if err != nil {
		return m, fmt.Errorf("model: %w", err)
	}
	defer os.RemoveAll(dir)
	r := &runner{ctx: ctx, opt: opt}
	if m.Compiler, r.exe, err = build(ctx, opt.CC, dir, m.VectorBytes); err != nil {
		return m, err
	}
	for _, s := range steps {
		start := time.Now()
		summary, err := s.run(r, &m)
		if err != nil {
			return m, fmt.Errorf("model: %s: %w", s.name, err)
		}
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "%-30s %s (%.1f s)\n", s.name, summary, time.Since(start).Seconds())
		}
	}
	m.Measured = true
	return m, nil
}

// step is one measurement: it fills fields of the Machine and returns a
// summary for the progress line.
type step struct {
	name string
	run  func(r *runner, m *Machine) (string, error)
}

// steps are the measurements in the order they run. The sweep runs
// before the bandwidths only to report cache sizes early; no step reads
// another's results.
var steps = []step{
	{"FMA throughput (1 core)", func(r *runner, m *Machine) (string, error) {
		s, err := r.run("fma", 0, 1, r.opt.Sample, r.opt.Reps)
		if err != nil {
			return "", err
		}
		m.FMAPeak = peak(s)
		return siUnit(m.FMAPeak, "flop/s"), nil
	}},
	{"FMA latency", func(r *runner, m *Machine) (string, error) {
		s, err := r.run("lat", 0, 1, r.opt.Sample, r.opt.Reps)
		if err != nil {
			return "", err
		}
		m.FMALatency, _ = cost(s)
		return siUnit(m.FMALatency, "s"), nil
	}},
	{"vector load (L1, 1 core)", func(r *runner, m *Machine) (string, error) {
		return r.throughput("load", m, &m.VectorLoad)
	}},
	{"vector store (L1, 1 core)", func(r *runner, m *Machine) (string, error) {
		return r.throughput("store", m, &m.VectorStore)
	}},
	{"scalar load (L1, 1 core)", func(r *runner, m *Machine) (string, error) {
		return r.throughput("sload", m, &m.ScalarLoad)
	}},
	{"scalar store (L1, 1 core)", func(r *runner, m *Machine) (string, error) {
		return r.throughput("sstore", m, &m.ScalarStore)
	}},
	{"cache sizes (sweep)", func(r *runner, m *Machine) (string, error) {
		m.Sweep = nil
		for _, b := range sweepSizes(m.L3) {
			s, err := r.run("load", b, 1, r.opt.Sample/sweepDivisor, min(r.opt.Reps, sweepReps))
			if err != nil {
				return "", err
			}
			m.Sweep = append(m.Sweep, SweepPoint{Bytes: b, PerCore: peak(s)})
		}
		m.Knees = knees(m.Sweep)
		return fmt.Sprintf("knees %s %s %s", siBytes(m.Knees[0]), siBytes(m.Knees[1]), siBytes(m.Knees[2])), nil
	}},
	{"read bandwidth (1 core, all)", func(r *runner, m *Machine) (string, error) {
		sizes := levelSizes(*m)
		threads := r.opt.MaxThreads
		var sum []string
		for l := range NumLevels {
			b := Bandwidth{Level: Level(l).String(), Bytes: sizes[l]}
			s, err := r.run("load", sizes[l], 1, r.opt.Sample, r.opt.Reps)
			if err != nil {
				return "", err
			}
			b.PerCore = peak(s)
			total := sizes[l] * int64(threads)
			if l >= int(LevelL3) {
				total = max(sizes[l], 2*m.L2*int64(threads))
			}
			if s, err = r.run("load", total, threads, r.opt.Sample, r.opt.Reps); err != nil {
				return "", err
			}
			b.All = peak(s)
			m.Read[l] = b
			sum = append(sum, fmt.Sprintf("%s %s/%s", b.Level, siUnit(b.PerCore, "B/s"), siUnit(b.All, "B/s")))
		}
		return strings.Join(sum, ", "), nil
	}},
	{"OpenMP fork+join", func(r *runner, m *Machine) (string, error) {
		return r.overheads(nil, "fork", r.opt.Sample, &m.ForkJoin)
	}},
	{"OpenMP barrier", func(r *runner, m *Machine) (string, error) {
		return r.overheads(nil, "barrier", r.opt.Sample, &m.Barrier)
	}},
	{"OpenMP fork waking a sleeping team", func(r *runner, m *Machine) (string, error) {
		return r.overheads([]string{"OMP_WAIT_POLICY=passive"}, "wake", wakeGap, &m.Wake)
	}}}

// levelSizes returns the working set that reads from each level: half of
// L1, then between each cache and the one below it, and for DRAM eight
// times L3 (at least 256 MiB, at most 1 GiB).
func levelSizes(m Machine) [NumLevels]int64 {
	between := func(a, b int64) int64 {
		if b >= 4*a {
			return b / 2
		}
		return (a + b) / 2
	}
	return [NumLevels]int64{m.L1 / 2, between(m.L1, m.L2), between(m.L2, m.L3), min(max(8*m.L3, 256<<20), 1<<30)}
}

// sweepSizes returns the working sets of the sweep: 4 KiB to four times
// l3 (at most 256 MiB) in steps of √2, each a multiple of 512 bytes.
func sweepSizes(l3 int64) []int64 {
	top := min(max(4*l3, 16<<20), 256<<20)
	var sizes []int64
	for k := 0; ; k++ {
		b := int64(math.Round(4096*math.Pow(2, float64(k)/2)/512)) * 512
		if b > top {
			return sizes
		}
		sizes = append(sizes, b)
	}
}

// knees returns the cache sizes a sweep shows: the sweep's log bandwidths
// are split into four plateaus (L1, L2, L3, DRAM) by the least-squares
// piecewise-constant fit, and a cache's size is the last working set of
// its plateau where the next plateau is at least kneeDrop slower (0
// otherwise).
func knees(sweep []SweepPoint) [3]int64 {
	var k [3]int64
	const segs = 4
	n := len(sweep)
	if n < segs {
		return k
	}
	y := make([]float64, n)
	for i, p := range sweep {
		y[i] = math.Log(max(p.PerCore, 1))
	}
	// cost(i, j): squared error of y[i:j] around its mean, from prefix sums.
	s1, s2 := make([]float64, n+1), make([]float64, n+1)
	for i, v := range y {
		s1[i+1], s2[i+1] = s1[i]+v, s2[i]+v*v
	}
	cost := func(i, j int) float64 {
		d := s1[j] - s1[i]
		return s2[j] - s2[i] - d*d/float64(j-i)
	}
	mean := func(i, j int) float64 { return (s1[j] - s1[i]) / float64(j-i) }
	// best[s][j]: least error of y[:j] in s+1 segments; cut[s][j]: where
	// the last one starts.
	best := make([][]float64, segs)
	cut := make([][]int, segs)
	for s := range segs {
		best[s], cut[s] = make([]float64, n+1), make([]int, n+1)
		for j := 1; j <= n; j++ {
			if s == 0 {
				best[0][j] = cost(0, j)
				continue
			}
			best[s][j] = math.Inf(1)
			for i := s; i < j; i++ {
				if c := best[s-1][i] + cost(i, j); c < best[s][j] {
					best[s][j], cut[s][j] = c, i
				}
			}
		}
	}
	bounds := make([]int, segs+1) // segment s is y[bounds[s]:bounds[s+1]]
	bounds[segs] = n
	for s := segs - 1; s > 0; s-- {
		bounds[s] = cut[s][bounds[s+1]]
	}
	for s := range 3 {
		a, b, c := bounds[s], bounds[s+1], bounds[s+2]
		if mean(a, b)-mean(b, c) >= math.Log(kneeDrop) {
			k[s] = sweep[b-1].Bytes
		}
	}
	return k
}

// build writes the benchmarks to dir and compiles them; it returns the
// compiler's version line and the executable.
func build(ctx context.Context, cc, dir string, vectorBytes int) (version, exe string, err error) {
	if cc == "" {
		cc = os.Getenv("CC")
	}
	if cc == "" {
		cc = "cc"
	}
	args := strings.Fields(cc)
	if len(args) == 0 {
		return "", "", errors.New("model: empty C compiler command")
	}
	src := filepath.Join(dir, "bench.c")
	exe = filepath.Join(dir, "bench")
	if err := os.WriteFile(src, []byte(benchSource), 0o644); err != nil {
		return "", "", fmt.Errorf("model: %w", err)
	}
	v, err := exec.CommandContext(ctx, args[0], append(args[1:], "--version")...).Output()
	if err != nil {
		return "", "", fmt.Errorf("model: C compiler %q: %w", cc, err)
	}
	version, _, _ = strings.Cut(strings.TrimSpace(string(v)), "\n")
	cmd := exec.CommandContext(ctx, args[0], append(args[1:], "-O3", "-march=native", "-fopenmp",
		"-DVB="+strconv.Itoa(max(vectorBytes, 8)), "-o", exe, src)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("model: compiling the micro-benchmarks with %s: %v\n%s", cc, err, out)
	}
	return version, exe, nil
}

// runner runs the compiled benchmarks.
type runner struct {
	ctx context.Context
	opt MeasureOptions
	exe string
}

// sample is one timed run: work units (flops, bytes, operations) done in
// seconds; fastest is the seconds of its fastest single operation, where
// the benchmark times them one by one (0 otherwise).
type sample struct{ work, seconds, fastest float64 }

// run runs benchmark mode on size n with threads threads, each sample
// lasting at least target, and returns reps samples.
func (r *runner) run(mode string, n int64, threads int, target time.Duration, reps int) ([]sample, error) {
	return r.runEnv(nil, mode, n, threads, target, reps)
}

// runEnv is run with env added to the benchmark's environment.
func (r *runner) runEnv(env []string, mode string, n int64, threads int, target time.Duration, reps int) ([]sample, error) {
	ctx, cancel := context.WithTimeout(r.ctx, runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.exe, mode, strconv.FormatInt(n, 10),
		strconv.FormatFloat(target.Seconds(), 'g', -1, 64), strconv.Itoa(reps), strconv.Itoa(threads))
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("bench %s %d: no result after %v (a heavily loaded machine?)", mode, n, runTimeout)
	}
	if err != nil {
		return nil, fmt.Errorf("bench %s %d: %v: %s", mode, n, err, strings.TrimSpace(stderr.String()))
	}
	return parseSamples(string(out))
}

// parseSamples reads the benchmark's output: one "WORK SECONDS [FASTEST]"
// line per sample, all positive, FASTEST at most SECONDS/WORK.
func parseSamples(out string) ([]sample, error) {
	var ss []sample
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) != 2 && len(f) != 3 {
			return nil, fmt.Errorf("bench output %q: want WORK SECONDS [FASTEST]", strings.TrimSpace(line))
		}
		var x [3]float64
		for i, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("bench output %q: want positive numbers", strings.TrimSpace(line))
			}
			x[i] = v
		}
		w, s, fast := x[0], x[1], x[2]
		if math.IsInf(w/s, 0) || math.IsInf(s/w, 0) || fast > s/w {
			return nil, fmt.Errorf("bench output %q: want positive WORK SECONDS, FASTEST at most their ratio", strings.TrimSpace(line))
		}
		ss = append(ss, sample{w, s, fast})
	}
	if len(ss) == 0 {
		return nil, errors.New("bench printed no samples")
	}
	return ss, nil
}

// peak returns the fastest rate of the samples, work per second.
func peak(ss []sample) float64 {
	p := 0.0
	for _, s := range ss {
		p = max(p, s.work/s.seconds)
	}
	return p
}

// cost returns the least time per unit of work (of a single operation
// where the samples say) and the median sample's.
func cost(ss []sample) (least, median float64) {
	c := make([]float64, len(ss))
	for i, s := range ss {
		c[i] = s.seconds / s.work
	}
	slices.Sort(c)
	median = c[len(c)/2]
	if len(c)%2 == 0 {
		median = (c[len(c)/2-1] + c[len(c)/2]) / 2
	}
	least = c[0]
	for _, s := range ss {
		if s.fastest > 0 {
			least = min(least, s.fastest)
		}
	}
	return least, median
}

// throughput measures one core's L1 throughput of mode on a quarter of L1.
func (r *runner) throughput(mode string, m *Machine, dst *float64) (string, error) {
	s, err := r.run(mode, m.L1/4, 1, r.opt.Sample, r.opt.Reps)
	if err != nil {
		return "", err
	}
	*dst = peak(s)
	return siUnit(*dst, "B/s"), nil
}

// overheads measures the cost of an OpenMP operation at 1 to MaxThreads
// threads, with env added to the benchmark's environment and target its
// TARGET argument.
func (r *runner) overheads(env []string, mode string, target time.Duration, dst *[]Overhead) (string, error) {
	*dst = nil
	var sum []string
	for t := 1; t <= r.opt.MaxThreads; t++ {
		s, err := r.runEnv(env, mode, int64(t), t, target, r.opt.Reps)
		if err != nil {
			return "", err
		}
		least, median := cost(s)
		*dst = append(*dst, Overhead{Threads: t, Min: least, Median: median})
		sum = append(sum, fmt.Sprintf("%d: %s", t, siUnit(median, "s")))
	}
	return "median " + strings.Join(sum, ", "), nil
}
