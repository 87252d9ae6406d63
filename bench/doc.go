// Package bench times kernels as nestor and its peers build them: the
// original file compiled by gcc -O3 -march=native (the baseline), nestor's
// output compiled the same way, clang-16 with Polly (sequential and
// -polly-parallel) when it is installed, and, for gemm, OpenBLAS's
// cblas_dgemm on the same problem.
//
// Every version is built from check's harness (check.Harness), so all of
// them run the kernel on the same seeded inputs, and the outputs of each are
// compared with the baseline's with check's tolerances: a speedup is only
// reported as such when the results agree. A round runs every version once,
// one fresh process each, in turns (the starting version rotates from round
// to round), so that the drift of a shared machine hits all of them alike;
// a version's time is the median over the rounds of the kernel's time as
// the harness measures it (the kernel call only, inputs refilled untimed).
// Sequential versions (gcc, polly) run with OMP_NUM_THREADS=1; parallel
// ones (nestor, polly-par, openblas) at each thread count of
// Config.Threads.
//
// # Invariants
//
//   - Speedups are ratios of medians measured in the same run: the baseline
//     at one thread over the version at its thread count.
//   - A geometric mean covers only the kernels whose version ran and
//     agreed with the baseline; the report says over how many.
//   - One kernel's failure (a parse error, a build failure, a crash, a
//     timeout of one run) is reported in its row and never stops the
//     others; only cancelling the context stops Run.
//
// # Limits
//
// nestor's optimizer runs in process and cannot be interrupted: a kernel
// whose optimization takes longer than Config.Timeout is reported as
// failed and its goroutine is abandoned. OpenBLAS is run only on gemm, the
// kernel whose computation is one BLAS call (C = alpha·A·B + beta·C), and
// its first call is made untimed (thread pool and buffers), which favours
// the library.
package bench
