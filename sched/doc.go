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
package sched
