// Package model describes the machine nestor generates code for: the
// numbers its decisions (tile sizes, register tiles, and the lower bound
// on run time of nestor tune) depend on.
//
// A Machine has two parts. The static part (Host) comes from the system:
// cores, cache sizes from sysfs, the vector width and registers from the
// CPU flags, and a Fingerprint naming that kind of hardware. The measured
// part (Measure) comes from micro-benchmarks, small C programs under
// bench/ built with the C compiler at -O3 -march=native -fopenmp: peak FMA
// throughput and latency, load and store throughput, read bandwidth of
// each level of the memory hierarchy with one thread and with all, the
// cache sizes as the knees of a bandwidth sweep, and the cost of an
// OpenMP fork+join and of a barrier at each thread count, and of a fork
// that wakes a sleeping team (passive wait: what code generation weighs a
// parallel loop's work against, ForkWork). nestor machine
// measures once and caches the result as JSON (Save); Load reads it back
// for this host's fingerprint, or, where nothing was measured, returns
// Nominal: the host with throughputs that no current x86 core exceeds
// and costs no lower than the real ones, marked Measured false.
//
// # Invariants
//
// Every size is positive: where the system does not say, a documented
// default stands in. Every throughput and cost of a Machine from Measure,
// Nominal or Load is positive; rates are in bytes or flops per second,
// times in seconds. Peaks (throughputs, bandwidths) are the fastest of
// several samples, costs keep both the fastest and the median sample, so
// a lower bound can use the fastest: the measurements are taken on a
// possibly loaded machine (LoadAvg records the load), and load only ever
// makes a sample slower. To keep other processes out, the kernels time
// each thread's CPU time (with several threads, Read's All adds the
// threads' rates: on an idle machine the bandwidth they share, under load
// possibly more), and fork and barrier time every operation on the wall
// clock, a sample being the median operation of its run. A fork still
// waits for its threads to be scheduled: on a loaded machine its median
// can be the scheduler's latency (milliseconds at a load average of 15 on
// two cores), while the fastest fork stays near the idle figure.
//
// # Limits
//
// The benchmarks are x86-minded: where the compiler cannot build them
// (no OpenMP, no GNU C vector extensions) Measure fails and Load keeps the
// nominal values. Cache sizes the system does not report keep their
// defaults in L1, L2 and L3 (and in the fingerprint), even when the
// sweep's knees show other sizes: the knees are estimates, recorded
// apart in Knees.
package model
