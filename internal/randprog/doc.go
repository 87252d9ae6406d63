// Package randprog generates random small static-control programs and
// tests the optimizer on them differentially: every program is optimized
// by pipeline.Optimize and the result is proved equal to the original by
// execution with check.Compare (and, where the optimized file parses
// again, by the reference interpreter).
//
// [Generate] draws, from a seed, one C file with a kernel function holding
// one #pragma scop region: 2 to 4 statements in loop nests of depth at
// most 3, perfect and imperfect, fused and separate; loop bounds affine in
// the outer counters and the size parameters n and m (rectangular,
// triangular, banded, reversed; max and min as macros, strict and non-strict
// comparisons, loops counting down, steps of 2); affine if guards, with
// else; subscripts with offsets (i+1, i-1), transposes, sums of counters,
// reversals and constants, so that the region has flow, anti and output
// dependences, loop-carried and loop-independent ones, stencils and
// reductions (x[i] += A[i][j] * ...). Bodies compute in double, a few in
// int.
//
// About a third of the programs (Config.TempPercent) also get one or two
// scalar temporaries, t0 and t1, locals of the kernel declared before the
// region, for package expand: each in a shape of tempShapes (temp.go), in
// one of the program's loops or in a new nest. The plain shape kills the
// temporary at the top of a loop body, accumulates into it in an inner
// loop and stores it after (symm, matvec), once, in two nests (ludcmp),
// or in a new nest that expansion makes parallel; the others are ones
// expansion must refuse or get right: a read before
// the kill, a kill under an if (the store under the same if or not), a
// kill in both branches of an if/else, a read after the loop at the top
// level or after the region, a loop that also carries a dependence through
// an array, and a scalar reduction at the top level.
//
// # Invariants
//
//   - The same seed and Config give the same program, byte for byte. A
//     program without temporaries is the one the seed gives with
//     TempPercent 0: the temporaries are drawn after the program, from a
//     random stream of their own, so seeds noted before they existed
//     still name the same programs (those that now get temporaries keep
//     their statements, with the temporaries' added; the arrays are sized,
//     and subscripts shifted, for the new accesses too).
//   - At the parameter values of Program.Params (also the file's macros N
//     and M, so `nestor check FILE` needs no flags) every access stays in
//     its array's bounds: the generator enumerates every instance, shifts
//     each array dimension's subscripts by one constant so that they start
//     at 0 (which keeps every dependence), and sizes the dimension to the
//     range exactly. Other parameter values may access out of bounds.
//   - Every statement executes at least once, and no operation has
//     undefined behaviour: int statements reduce their value modulo 1009,
//     so their bounded terms never overflow; double arithmetic may at worst
//     reach infinities, which C defines. A temporary the program reads
//     before writing it, at the values of Program.Params, is initialized
//     at its declaration.
//
// # Tests
//
// TestGenerate checks the promises above on 200 seeds under the
// interpreter (no C compiler needed), TestDependences that the programs
// have every kind of dependence, TestTemps the share and shapes of the
// temporaries on 1000 seeds. TestDiff runs 30 seeds by default (5 with
// -short), in parallel, each through four option sets (the defaults, no
// tiling, no parallel loops, 4x3x2 tiles): the optimizer runs in a child
// process, killed past -randprog.limit (20 s; a program this small
// optimizes in well under a second), and the result is compared with the
// original under the interpreter where the frontend reads it back (all
// arrays but the locals only the region uses, dead after it), and always
// by check.Compare (gcc -O3, -ffp-contract=off, so results agree
// bit for bit). The acceptance run of the issue is a thousand seeds:
//
//	go test ./internal/randprog -run TestDiff -randprog.n 1000 -timeout 2h -v
//
// whose last TestDiff line sums up the outcomes, with the programs that
// have temporaries and how many of them some option set expanded. The seeds of knownSeeds,
// failures found earlier, always run. To reproduce failures and see one
// program:
//
//	go test ./internal/randprog -run TestDiff -randprog.seeds 557,240 -v
//	go test ./internal/randprog -run TestDump -randprog.seed 557 -v
//
// -randprog.temps 0 gives the programs seeds had before temporaries
// existed (557 and 606 of knownSeeds, 240 of slowSeeds have some now).
//
// # Limits
//
// The temporaries are double or int scalars, never arrays, and only t0 and
// t1; the programs have no calls, no float or long double, and one region
// per file; array sizes are constants, fitted to
// the drawn parameter values.
package randprog
