// Package sched computes affine schedules from dependence polyhedra with
// Farkas' lemma.
//
// This first piece decides the legality of one schedule row on one
// dependence the way a Farkas-based scheduler does: the affine form
// φ_T·t + ω_T − φ_S·s − ω_S is non-negative on a polyhedron
// { x : A·x + c ≥ 0, E·x + g = 0 } if and only if it equals
// λ0 + λ·(A·x + c) + μ·(E·x + g) for some λ0, λ ≥ 0 and free μ (the affine
// form of Farkas' lemma, for a non-empty polyhedron). Matching the
// coefficients of every variable and of the constant gives linear
// equalities in the multipliers; the row is legal when they have a rational
// solution, decided exactly by poly's simplex.
//
// With the offset canonicalization of package deps it reproduces the
// LoopModels note: the 0-based triangular solve admits the Δω = 0 schedule
// only after the change of variables.
//
// Compute builds Pluto's scheduler on the same lemma. Per edge, the
// polyhedron's equalities are substituted into the form first (each
// removes a free multiplier and an equation), its redundant rows dropped
// (each costs a multiplier), and the multipliers eliminated exactly over
// the rationals (poly.EliminateRational), for legality and for the bound
// u·p + w; edges of one statement pair and one polyhedron share the
// result. Of the rows of one statement pair, those implied by another and
// the non-negativity of the unknowns are dropped. Each loop row is then
// the integer lexicographic minimum of the scheduling problem
// (poly.LexMinWork). A statement whose rows already span its
// counters gets constant rows, except that, when no row exists otherwise,
// a band of two or more rows none of them parallel (a time-skewed band)
// may give it a row that combines its earlier ones, as Pluto does, rather
// than end (fdtd-2d: ey[0][j] = … takes [t, t + j, t] and the band stays
// three deep, its stride-1 loop innermost); ApplyPlan turns such a row
// into an equality of the loop counters. Compute never does more work than
// Options.Budget (DefaultBudget when zero), counted in poly.Work units by
// every elimination and simplex it runs, so the limit holds whatever the
// input (a 12-deep nest) and its outcome does not depend on the machine or
// its load: past it Compute returns an error wrapping ErrNoSchedule, and
// the caller keeps the original order. When the constants of a program
// with constant sizes overflow int64, Compute schedules it with those
// constants as parameters (lift.go) and lowers the schedule back.
package sched
