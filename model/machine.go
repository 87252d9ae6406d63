package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
)

// Machine is what the code generator knows about the target.
type Machine struct {
	// Cores is the number of CPUs this process may run on
	// (runtime.NumCPU): the thread count of "all cores".
	Cores int `json:"cores"`
	// L1, L2, L3 are the data-cache sizes in bytes of one core's view
	// (L3 is usually shared).
	L1 int64 `json:"l1_bytes"`
	L2 int64 `json:"l2_bytes"`
	L3 int64 `json:"l3_bytes"`
	// VectorRegs is the number of vector registers a core has for
	// floating point: 32 with AVX-512, 16 otherwise.
	VectorRegs int `json:"vector_regs"`

	// CPU is the model name /proc/cpuinfo reports ("AMD EPYC 9654"), or
	// the architecture where it names none.
	CPU string `json:"cpu"`
	// LogicalCores is the number of hardware threads the system has
	// (processors in /proc/cpuinfo; runtime.NumCPU where it lists none).
	LogicalCores int `json:"logical_cores"`
	// PhysicalCores counts distinct (physical id, core id) pairs: the
	// logical cores less hyperthread siblings.
	PhysicalCores int `json:"physical_cores"`
	// VectorBytes is the width in bytes of the widest vector register the
	// CPU flags announce: 64 with AVX-512, 32 with AVX or AVX2, 16 with SSE2
	// or Arm ASIMD, 8 (one double) otherwise.
	VectorBytes int `json:"vector_bytes"`
	// Fingerprint names the kind of hardware: a hash of CPU, LogicalCores,
	// L1, L2, L3 and VectorBytes. Two hosts of the same kind share it, and
	// the cache of measurements is kept per fingerprint.
	Fingerprint string `json:"fingerprint"`

	// Format is the version of this description, Format when written by
	// this nestor (0 from Host, which writes nothing).
	Format int `json:"format"`
	// Measured reports whether the numbers below come from Measure; when
	// false they are Nominal's.
	Measured bool `json:"measured"`
	// MeasuredAt is when Measure ran (zero when not measured).
	MeasuredAt time.Time `json:"measured_at,omitzero"`
	// Compiler is the first line of the C compiler's --version that built
	// the benchmarks.
	Compiler string `json:"compiler,omitempty"`
	// LoadAvg is the one-minute load average when Measure started
	// (/proc/loadavg): a load near Cores means shared, slower samples.
	LoadAvg float64 `json:"load_avg"`

	// FMAPeak is the peak double-precision throughput of one core in
	// flop/s (one FMA is two flops), at VectorBytes with enough
	// independent FMA chains to cover their latency.
	FMAPeak float64 `json:"fma_peak_flops"`
	// FMALatency is the latency in seconds of one FMA in a dependent chain.
	FMALatency float64 `json:"fma_latency_s"`
	// VectorLoad and VectorStore are one core's throughput in bytes/s of
	// VectorBytes-wide loads and stores hitting L1; ScalarLoad and
	// ScalarStore those of 8-byte ones.
	VectorLoad  float64 `json:"vector_load_bytes_per_s"`
	VectorStore float64 `json:"vector_store_bytes_per_s"`
	ScalarLoad  float64 `json:"scalar_load_bytes_per_s"`
	ScalarStore float64 `json:"scalar_store_bytes_per_s"`
	// Read is the read bandwidth of each level of the memory hierarchy,
	// indexed by Level.
	Read [NumLevels]Bandwidth `json:"read"`
	// Knees are the cache sizes in bytes (L1, L2, L3) the bandwidth sweep
	// shows: the largest working set still read at the speed of that
	// level; 0 where the sweep shows no drop.
	Knees [3]int64 `json:"knees_bytes"`
	// Sweep is one core's read bandwidth over working sets from 4 KiB to
	// past L3, from which Knees come.
	Sweep []SweepPoint `json:"sweep,omitempty"`
	// ForkJoin and Barrier are the costs in seconds of entering and
	// leaving an empty OpenMP parallel region, and of one barrier inside
	// one, for 1 to Cores threads: element t-1 is t threads.
	ForkJoin []Overhead `json:"fork_join"`
	Barrier  []Overhead `json:"barrier"`
	// Wake is the cost in seconds of a fork and join of a team whose
	// threads sleep between regions (OMP_WAIT_POLICY=passive, the master
	// working alone before each fork), for 1 to Cores threads: what a
	// parallel loop after sequential code pays where the machine is
	// shared. On a virtual machine it includes the host's wake-up of an
	// idle virtual CPU, tens of microseconds where ForkJoin's active wait
	// takes one.
	Wake []Overhead `json:"wake"`
}

// Format is the version of the Machine's JSON; ReadFile refuses files of
// another version (measure again). Increment it when a field's meaning
// changes or a field the model needs is added.
const Format = 2

// Level is a level of the memory hierarchy.
type Level int

// The levels, from the closest to the core.
const (
	LevelL1 Level = iota
	LevelL2
	LevelL3
	LevelDRAM
	NumLevels = 4
)

func (l Level) String() string {
	if l >= 0 && l < NumLevels {
		return [...]string{"L1", "L2", "L3", "DRAM"}[l]
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// Bandwidth is the read bandwidth of one level of the memory hierarchy.
type Bandwidth struct {
	Level string `json:"level"`
	// Bytes is the working set of PerCore, one thread's. For All, L1 and
	// L2 give each thread a working set of Bytes, L3 and DRAM split Bytes
	// among the threads (each keeping at least twice L2, which on a many-
	// core machine with a small L3 reads partly from DRAM).
	Bytes int64 `json:"bytes"`
	// PerCore is one thread's bandwidth in bytes/s, alone on the machine.
	PerCore float64 `json:"per_core_bytes_per_s"`
	// All is the bandwidth in bytes/s of Cores threads together, each on
	// its own part of the working set (for L1 and L2, each its own copy).
	All float64 `json:"all_cores_bytes_per_s"`
}

// SweepPoint is one core's read bandwidth in bytes/s on a working set of
// Bytes.
type SweepPoint struct {
	Bytes   int64   `json:"bytes"`
	PerCore float64 `json:"per_core_bytes_per_s"`
}

// Overhead is the cost in seconds of one OpenMP operation with Threads
// threads, timed one operation at a time: Min is the fastest operation
// (what a lower bound may assume), Median the median of the samples, each
// the median operation of its run (what an operation usually costs).
type Overhead struct {
	Threads int     `json:"threads"`
	Min     float64 `json:"min_s"`
	Median  float64 `json:"median_s"`
}

// ReadBandwidth returns the read bandwidth in bytes/s of level l with
// threads threads: threads × the per-core bandwidth, at most that of all
// cores.
func (m Machine) ReadBandwidth(l Level, threads int) float64 {
	b := m.Read[l]
	return min(float64(max(threads, 1))*b.PerCore, max(b.All, b.PerCore))
}

// ForkJoinCost returns the fastest measured cost in seconds of a fork and
// join of threads threads (clamped to the thread counts measured): a
// lower bound; Overhead.Median is the usual cost.
func (m Machine) ForkJoinCost(threads int) float64 { return overhead(m.ForkJoin, threads) }

// WakeCost returns the usual cost in seconds of a fork and join that wakes
// a sleeping team of threads threads (Wake's median, clamped to the
// thread counts measured; nominalWake where nothing was measured): what
// a parallel loop's work must repay before a fork is worth it.
func (m Machine) WakeCost(threads int) float64 {
	if len(m.Wake) == 0 {
		return nominalWake
	}
	return m.Wake[min(max(threads, 1), len(m.Wake))-1].Median
}

// BarrierCost returns the fastest measured cost in seconds of one barrier
// among threads threads (clamped to the thread counts measured).
func (m Machine) BarrierCost(threads int) float64 { return overhead(m.Barrier, threads) }

func overhead(costs []Overhead, threads int) float64 {
	if len(costs) == 0 {
		return 0
	}
	return costs[min(max(threads, 1), len(costs))-1].Min
}

// RegisterTile returns the unroll factors of a register tile (see
// codegen.UnrollJam) for m: rows × cols copies of a statement with one
// element in a register per copy and one accumulator per row need
// rows·cols + rows registers, plus two for the moving operands; among the
// tiles that fit, the one with the most copies, with rows ≥ cols + 2 (a
// row shares its accumulator across its cols copies). Measured on gemm
// (Zen 5, AVX-512): 6 × 4 runs at 2.9× the untiled loop, 4 × 4 at 1.7×.
func (m Machine) RegisterTile() (rows, cols int64) {
	regs := int64(max(m.VectorRegs, 16))
	rows, cols = 1, 1
	for r := int64(1); r <= regs; r++ {
		for c := int64(1); c+2 <= r; c++ {
			if r*c+r+2 <= regs && r*c > rows*cols {
				rows, cols = r, c
			}
		}
	}
	return rows, cols
}

// Defaults used when the system does not report a cache: common sizes of
// current x86 server cores.
const (
	defaultL1 = 32 << 10
	defaultL2 = 1 << 20
	defaultL3 = 32 << 20
)

var (
	hostOnce sync.Once
	host     Machine
)

// Typical returns a fixed machine, the same wherever nestor runs: an x86
// core with AVX2 (16 vector registers of 32 bytes) and the default cache
// sizes. Code laid out for it does not depend on the host, which is what
// a caller that names no machine gets.
func Typical() Machine {
	m := Machine{Cores: 1, L1: defaultL1, L2: defaultL2, L3: defaultL3, VectorRegs: 16, VectorBytes: 32,
		CPU: "typical x86-64 (AVX2)", LogicalCores: 1, PhysicalCores: 1}
	m.Fingerprint = fingerprint(m)
	return m
}

// Host returns the machine nestor runs on, read once from /proc/cpuinfo
// and /sys/devices/system/cpu/cpu0/cache (Linux); sizes the system does
// not report take the defaults. It measures nothing: its throughputs and
// costs are zero (Nominal fills them in).
func Host() Machine {
	hostOnce.Do(func() {
		info, _ := os.ReadFile("/proc/cpuinfo")
		host = describe(parseCPUInfo(string(info)), readCaches("/sys/devices/system/cpu/cpu0/cache"), runtime.NumCPU())
	})
	return host
}

// describe builds the static part of a Machine from what the system
// reports.
func describe(ci cpuInfo, c caches, numCPU int) Machine {
	m := Machine{Cores: numCPU, L1: c.l1, L2: c.l2, L3: c.l3, VectorRegs: 16,
		CPU: ci.model, LogicalCores: ci.logical, PhysicalCores: ci.physical, VectorBytes: ci.vectorBytes()}
	if ci.flags["avx512f"] {
		m.VectorRegs = 32
	}
	if m.CPU == "" {
		m.CPU = runtime.GOARCH
	}
	if m.LogicalCores == 0 {
		m.LogicalCores = numCPU
	}
	if m.PhysicalCores == 0 {
		m.PhysicalCores = m.LogicalCores
	}
	m.Fingerprint = fingerprint(m)
	return m
}

// fingerprint hashes what names a kind of hardware; throughputs are not
// part of it (they are what is measured for it).
func fingerprint(m Machine) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s|%d|%d|%d|%d|%d", m.CPU, m.LogicalCores, m.L1, m.L2, m.L3, m.VectorBytes))
	return hex.EncodeToString(h[:6])
}

// Nominal values, used where nothing was measured. They are generous
// bounds of current x86 cores, so that a lower bound on run time computed
// from them stays one: a clock no core exceeds, more issue ports than any
// has, costs below any measured.
const (
	nominalHz          = 5e9   // cycles per second
	nominalFMAPipes    = 2     // FMAs issued per cycle
	nominalFMACycles   = 3     // cycles of FMA latency
	nominalLoads       = 3     // loads issued per cycle
	nominalStores      = 2     // stores issued per cycle
	nominalL2Line      = 64    // bytes per cycle from L2
	nominalL3Line      = 32    // bytes per cycle from L3
	nominalDRAMPerCore = 50e9  // bytes/s one core reads from DRAM
	nominalDRAMAll     = 800e9 // bytes/s a socket reads from DRAM
	nominalFork        = 50e-9 // seconds, fork and join of a parallel region
	nominalBarrier     = 20e-9 // seconds, one barrier
	// nominalWake is not a bound but the usual cost, in seconds, of a fork
	// that wakes sleeping threads (WakeCost): futex wake-ups on a host
	// whose idle cores sleep. The 2-vCPU KVM guest nestor is measured on
	// gave 36–72 µs with its other vCPU idle, 8–36 µs with it busy.
	nominalWake = 20e-6
)

// nominalVector returns the nominal FMA peak (flop/s) and vector load and
// store throughputs (bytes/s) of one core with vectors of vectorBytes.
func nominalVector(vectorBytes int) (peak, load, store float64) {
	vb := float64(max(vectorBytes, 8))
	return nominalHz * nominalFMAPipes * 2 * vb / 8, nominalHz * nominalLoads * vb, nominalHz * nominalStores * vb
}

// Nominal returns Host with nominal throughputs and costs (see the
// constants above), Measured false.
func Nominal() Machine {
	m := Host()
	m.Format = Format
	m.FMAPeak, m.VectorLoad, m.VectorStore = nominalVector(m.VectorBytes)
	m.FMALatency = nominalFMACycles / nominalHz
	m.ScalarLoad = nominalHz * nominalLoads * 8
	m.ScalarStore = nominalHz * nominalStores * 8
	cores := float64(m.Cores)
	perCore := [NumLevels]float64{m.VectorLoad, nominalHz * nominalL2Line, nominalHz * nominalL3Line, nominalDRAMPerCore}
	sizes := levelSizes(m)
	for l := range NumLevels {
		all := cores * perCore[l]
		if l == int(LevelDRAM) {
			all = max(min(all, nominalDRAMAll), perCore[l])
		}
		m.Read[l] = Bandwidth{Level: Level(l).String(), Bytes: sizes[l], PerCore: perCore[l], All: all}
	}
	m.ForkJoin, m.Barrier, m.Wake = nil, nil, nil
	for t := 1; t <= m.Cores; t++ {
		m.ForkJoin = append(m.ForkJoin, Overhead{Threads: t, Min: nominalFork, Median: nominalFork})
		m.Barrier = append(m.Barrier, Overhead{Threads: t, Min: nominalBarrier, Median: nominalBarrier})
		m.Wake = append(m.Wake, Overhead{Threads: t, Min: nominalFork, Median: nominalWake})
	}
	return m
}
