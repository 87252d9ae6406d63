package model

import "math"

// Body is what one iteration of an innermost loop does, for the fork
// model: arithmetic operations on doubles (a float operation counts one
// half: twice as many fit a vector), the bytes it loads and stores at
// unit stride (Load, Store: vectors' worth at a time), those it loads
// and stores an element at a time (Gather, Scatter: accesses the
// innermost counter moves by more than one element, A[j][i] under loop
// j), and Stream, the bytes of all of those that are new at every
// iteration of the whole loop nest (streams: A[i][j] under loops i and
// j), whose footprint grows with the work.
type Body struct {
	Ops, Load, Store, Gather, Scatter, Stream float64
}

// IterSeconds returns the least time one iteration of b takes on one core
// when its nest's streams span footprint bytes: its operations at the FMA
// pipes' full vector rate, its unit-stride bytes at L1's vector load and
// store rates plus its element-at-a-time ones at the scalar rates (the
// same ports), whichever takes longest, and at least the time to bring
// its stream bytes from the first level of the memory hierarchy that
// holds footprint (at one core's read bandwidth). A machine with nothing
// measured uses Nominal's rates, faster than any measured.
func (m Machine) IterSeconds(b Body, footprint float64) float64 {
	peak, load, store := m.FMAPeak, m.VectorLoad, m.VectorStore
	if peak <= 0 || load <= 0 || store <= 0 {
		peak, load, store = nominalVector(m.VectorBytes)
	}
	sload, sstore := m.ScalarLoad, m.ScalarStore
	if sload <= 0 || sstore <= 0 {
		sload, sstore = nominalHz*nominalLoads*8, nominalHz*nominalStores*8
	}
	// FMAPeak counts two flops per lane of an FMA: peak/2 operations on
	// doubles per second.
	t := max(b.Ops/(peak/2), b.Load/load+b.Gather/sload, b.Store/store+b.Scatter/sstore)
	if b.Stream > 0 {
		t = max(t, b.Stream/m.streamBandwidth(footprint))
	}
	return t
}

// streamBandwidth returns one core's read bandwidth from the first level
// that holds bytes (L1, L2, L3, else DRAM); Nominal's where nothing was
// measured.
func (m Machine) streamBandwidth(bytes float64) float64 {
	read := m.Read
	if read[LevelL1].PerCore <= 0 {
		read = Nominal().Read
	}
	for l, size := range []int64{m.L1, m.L2, m.L3} {
		if bytes <= float64(size) {
			return read[l].PerCore
		}
	}
	return read[LevelDRAM].PerCore
}

// ForkWork returns the fewest iterations of b for which a fork of a team
// of threads threads (at least 2) pays for itself: the share of the work
// the other threads take off the master, (1 − 1/threads)·n·IterSeconds,
// reaches the cost of waking them (WakeCost). The iterations' footprint is
// n·Stream: past a cache's size the streams come from the level below, so
// each iteration takes longer and fewer are needed. With IterSeconds a
// lower bound, a loop that reaches the count repays the fork (within the
// rounding below) however fast
// it runs. The count is rounded to the nearest power of two, so that the
// thresholds printed in generated code stay the same when the machine is
// measured again, unless its costs moved by a factor of √2.
func (m Machine) ForkWork(b Body, threads int) int64 {
	threads = max(threads, 2)
	need := m.WakeCost(threads) / (1 - 1/float64(threads)) // seconds of work
	// n·IterSeconds(b, n·Stream) grows with n: the least n at each level
	// of the hierarchy, from the closest, until one is inside the range
	// of footprints that level serves.
	n := need / max(m.IterSeconds(b, 0), 1e-12)
	if b.Stream > 0 {
		lo := 0.0 // the least footprint of this level's range
		for _, size := range []float64{float64(m.L1), float64(m.L2), float64(m.L3), math.Inf(1)} {
			t := max(m.IterSeconds(b, (lo+size)/2), 1e-12) // any footprint of (lo, size]
			if k := max(need/t, lo/b.Stream); k*b.Stream <= size {
				n = min(n, k)
				break
			}
			lo = size
		}
	}
	if n <= 1 {
		return 1
	}
	p := math.Exp2(math.Round(math.Log2(n)))
	if p >= 1<<40 {
		return 1 << 40
	}
	return int64(p)
}
