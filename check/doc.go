// Package check proves an optimized kernel equal to the original by
// execution, and times both.
//
// [Compare] generates one C harness per variant. A harness includes the
// kernel's file (so it sees the file's macros, static functions and
// globals; the file's own main is renamed away), allocates every array
// parameter of the kernel function on the heap with its declared shape,
// fills every array and scalar with a seeded pseudo-random generator, calls
// the file's init_array when its parameters match the kernel's by name, and
// calls the kernel. Both harnesses are compiled with the same compiler and
// flags (cc -O3 -march=native -fopenmp by default), run on the same inputs,
// and every array the kernel can write is compared: integers exactly,
// floating point within a relative tolerance, each array reported with its
// worst element. The kernel is then timed in alternating runs of the two
// executables (one fresh process per run, inputs refilled untimed) at each
// thread count of Options.Threads (1 and the number of CPUs by default),
// and the medians and their ratio are reported per thread count. The runs
// get OMP_WAIT_POLICY=passive unless the user set a wait policy: on a
// loaded machine, threads spinning at barriers made 2-thread times 50
// times slower (gemm MEDIUM, 2 cores at load 15: 42 ms instead of 0.4 ms). The build folder is removed
// unless Options.KeepDir names it, the comparison fails, or the results
// differ; errors and reports say where it is.
//
// When the regions are in main (Pluto's examples), the harness fills the
// globals and calls the whole main, renamed, with argc = 1; both variants
// are then built from copies of their files whose last region of main
// ends by writing main's variables that the regions write (capture.go),
// and those are compared with the globals.
//
// # Invariants
//
//   - Both variants see bit-identical inputs: the fill restarts from the same
//     seed before every run, and init_array runs after it.
//   - A Result with Match set means every compared element agreed within the
//     tolerance of its type; any disagreement, NaN where the original has a
//     number, or infinity of the wrong sign clears it, unless the
//     optimized float array is within the tolerance of a long double run of
//     the original (reference.go: the original's own rounding exceeded the
//     tolerance, as a long float sum's does once nestor factors it under
//     --assoc-math; ArrayResult.Reference says which variant is closer). A
//     tolerance the user sets (Options.RTol, Exact) gets no reference.
//   - The harness never inlines the kernel into the timing code: it calls it
//     through a volatile function pointer, so the timed code is the
//     kernel as a separate function compiled once.
//
// # Harness protocol
//
// A harness executable takes a mode and a file: "in FILE" writes the inputs
// (every array and scalar after fill and init_array) and exits; "out FILE"
// runs the kernel once and writes every compared array; "time" only runs.
// Every mode prints a manifest on standard output, one line per value,
// "nestor-param NAME VALUE" and "nestor-array NAME RANK DIMS...", and the
// kernel modes "nestor-time NANOSECONDS". [Execute]'s harness includes a
// copy of the file whose region starts with a line that, in mode "in" only,
// appends every function local of the scop to the file as the region
// starts (the kernel runs once for that, after the inputs were written),
// then a #line directive, so messages still name the user's file and line.
// Data files are the values in manifest order, raw bytes in the machine's
// layout (long double is written as double).
//
// An array of structs (ir.Array.Members, complex numbers as struct cpx) is
// allocated, filled and compared as the array of its members it is in
// memory: b[n][n] of struct cpx is double[n][n][2]; a struct passed by
// value is declared with its type as written (frontend.FuncParam.Struct)
// and filled as the array of its members.
//
// # Limits
//
// An array parameter whose first size is left out ("A[][n]", "double *A")
// needs the size from the scop's array; without one Compare fails. Symbolic
// sizes that are not parameters of the kernel function (globals, locals)
// cannot be set by the harness. Global arrays are sized with sizeof, so a
// global pointer is not supported. A timed run repeats a short kernel on
// refilled inputs until 20 ms of kernel time add up (or a second of wall
// time, refills included, has passed) and reports the mean per call, so
// microsecond kernels time reliably; refilling between calls keeps every
// call on the same inputs, at the price of a cold cache.
package check
