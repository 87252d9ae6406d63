// Package reroll turns statements unrolled by hand back into loops.
//
// Legacy C often unrolls a loop by writing its body several times, each
// copy with its subscripts moved by a constant:
//
//	for (i = 0; i < n; i += 4) {
//	  y[i]   = y[i]   + a * x[i];
//	  y[i+1] = y[i+1] + a * x[i+1];
//	  y[i+2] = y[i+2] + a * x[i+2];
//	  y[i+3] = y[i+3] + a * x[i+3];
//	}
//
// [Reroll] finds such runs and replaces each by one statement in a new
// innermost loop, y[i + u] = y[i + u] + a * x[i + u] for 0 ≤ u ≤ 3,
// which the scheduler can then tile, fuse and vectorize like any loop.
//
// # Runs
//
// A run is count ≥ 2 copies of a body of one or more statements: sibling
// statements in one loop (or at the top of the region), consecutive
// (nothing, not even a loop, between them), where statement t of copy u
// is isomorphic to statement t of copy 0 and every integer in which they
// differ moves in arithmetic progression with u. Isomorphic means the
// same assignment operator, the same body tree (node kinds, operators,
// types, functions, counters, parameters, and access numbers), the same
// arrays accessed in the same order with the same counter and parameter
// coefficients in every subscript, and the same domain except for the
// constants of its constraints (a guard "i + u < n" of a remainder may
// move too; the floor-division locals must be equal). What may move:
// the constants of subscripts and domain constraints, and the body's
// integer literals of types int, unsigned, long and unsigned long. Float
// literals must be equal, or be integers (at most 2^24 in magnitude, so
// exact) in progression, which become a cast of the integer progression.
// A body reading a scalar (s += x[i]; s += x[i+1]; ...: a constant
// subscript list of length zero) is a run like any other.
//
// Bodies of several statements are found too: three copies of a pair,
// A0 B0 A1 B1 A2 B2, become a loop over u whose body is A0 B0. Among the runs of one
// loop's children Reroll takes the one with the most copies (then the
// one that covers the most statements, the earliest, the one with the
// shortest body), replaces it, and starts again, so the rest of the children and the new loop's body
// get their turn: the four statements of a 2×2 unrolled pair of loops
// (a[i][j], a[i][j+1], a[i+1][j], a[i+1][j+1]) become a loop over u with
// a body of two statements, then a loop over v inside it, a[i+u][j+v].
//
// # Invariants
//
// The execution order is exactly the original one, so the rewrite is
// legal whatever the dependences: the copies at beta position b, b+1,
// ..., b+count·period-1 of a loop at counters i become the instances
// (i, u) of the new loop at position b, body statement t at position
// (b, u, t), and (…, i, b + u·period + t) and (…, i, b, u, t) sort the
// same way against each other and against every other instance. Each
// instance computes what its copy computed: subscripts, guards and
// literals take the copy's values at its u, and a literal progression is
// computed in the literal's type as c0 ± |d|·u, whose intermediate
// values stay in the range the copies' values span (no new overflow).
// Siblings after the run move up so their positions stay consecutive.
// The new counter increases and is named u, or u1, u2, ... when a loop
// around it, a parameter, an array or a variable of the region has that
// name. The result passes ir.Check; the input is never modified.
//
// # Limits
//
// A coefficient of a counter or a parameter that changes between copies
// (a[i], a[2*i], a[3*i]) is no progression in u that stays affine, so such
// copies are not rerolled; neither are copies whose bodies differ by a
// counter reference (x[i] = i; x[i+1] = i + 1), copies of different
// domains other than by constants, nor copies of loops (only statements
// are rerolled). A run that is not a progression as a whole is
// rerolled in the longest part that is (offsets 0, 1, 3: the first two).
package reroll
