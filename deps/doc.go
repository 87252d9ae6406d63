// Package deps computes the memory-based dependences of an ir.Program as
// exact integer polyhedra.
//
// For every ordered pair of accesses (a of statement S, b of statement T)
// to the same array, at least one of them a write, and for every loop depth
// at which an instance of S can precede an instance of T in the original
// schedule, [Analyze] builds the dependence polyhedron
//
//	{ (s, t) : s ∈ D_S, t ∈ D_T, f_a(s) = f_b(t), s ≺_k t }
//
// over the counters s of S, t of T, their floor-division locals, and the
// parameters. s ≺_k t says "S's instance runs first, and loop k is the
// outermost loop where they differ": the counters of the common loops
// outside k are equal and Dir_k·t_k ≥ Dir_k·s_k + 1. Depth c+1, for c common
// loops, is the loop-independent case: every common counter equal and S
// textually before T. A polyhedron with no integer point (exactly, by
// poly's integer emptiness) is dropped; what remains is an [Edge]: a flow
// (write then read), anti (read then write) or output (write then write)
// dependence, carried at its depth.
//
// # Summaries
//
// Per common loop an Edge has the distance Dir_k·(t_k − s_k) — positive
// means "later in execution order" whichever way the loop counts — as an
// exact integer interval over all parameter values, with infinite ends
// where the distance is unbounded, and the direction that follows from it
// (<, =, >, <=, >=, *). A self dependence of a statement whose update has
// the form x = x op y (or x op= y), between its write and its read of x, is
// marked Reduction: a scheduler may relax it when assoc proves op
// associative.
//
// # Invariants
//
// Every Edge's polyhedron is non-empty and lies inside the product of the
// two domains; the union of all edges of a kind is the memory-based
// relation isl computes as (W;R⁻¹) ∩ ≺ (the test compares them as sets on
// every corpus kernel). When poly cannot decide emptiness (a branch and
// bound limit), the edge is kept: a dependence is never dropped on doubt.
package deps
