// Package ir is nestor's semantic backbone: the static-control part of a C
// function as parameters, arrays, and statements with polyhedral iteration
// domains, affine accesses and typed scalar bodies.
//
// # The model
//
// A [Program] is one scop region. Its parameters are the symbolic sizes (int
// variables the region reads but never writes). Its arrays are the memory
// it touches; a scalar variable is an array with no dimensions. Each [Stmt]
// is one assignment executed once for every integer point of its [Domain]:
// the values of its surrounding loop counters, outermost first, that satisfy
// affine constraints over those counters, the parameters, and local
// variables defined by floor division by a positive constant ([Div]). Loop
// bounds with min and max become several constraints; an affine if guard
// becomes constraints; a loop with constant stride s becomes a Div local q =
// floor((i - lb)/s) with the equality i - lb - s*q = 0.
//
// The original execution order is explicit. A statement with d loops has the
// 2d+1 schedule (Beta[0], Dir[0]*i_1, Beta[1], ..., Dir[d-1]*i_d, Beta[d]):
// Beta[k] is the statement's position among the children of its k-th
// enclosing loop (or of the region for k = 0), and Dir[k] is +1 for a loop
// whose counter increases and -1 for one that decreases. Instances execute
// in the lexicographic order of these vectors; [Program.Less] compares them.
// The vectors describe a tree of loops (statements sharing a prefix share
// those loops); passes read it through loops.go ([Children],
// [Program.ChildrenOf], [Stmt.In], [SameLoops], [CommonLoops]), never by
// comparing Beta prefixes themselves.
//
// # Invariants
//
// [Check] verifies all of them; tests run it after every pass.
//   - Every Aff has exactly as many coefficients as its space has variables:
//     len(Iter) = depth of the statement (0 for array sizes and the context),
//     len(Param) = len(Program.Params), len(Local) = len(Domain.Divs) inside
//     a domain and 0 elsewhere.
//   - A Div has Den > 0 and its numerator only uses earlier locals.
//   - Accesses[0] is the statement's only write; a compound assignment
//     (Op != Assign) has Accesses[1] reading the same element.
//   - Every Load names an existing read access, and the subscripts of an
//     access match the rank of its array.
//   - An array of structs (Array.Members) has distinct member names and
//     the constant len(Members) as its last dimension, and every access
//     subscripts that dimension with a constant member index.
//   - Beta vectors have len(Iters)+1 entries and are pairwise distinct;
//     statements that share a loop (a common Beta prefix of length k+1 with
//     k loops) agree on the names and directions of those k loops.
//   - Expression types are consistent: binary arithmetic operands have the
//     type of the result (conversions are explicit Cast nodes, Implicit when
//     C inserted them), comparisons and logical operators yield Int.
//
// # Limits
//
// Bodies are single assignments; there are no calls with side effects and no
// pointers. Structs are modeled only as arrays of structs whose members
// share one scalar type (Array.Members), each member a slot of a last,
// constant dimension. Sizes and subscripts are affine without floor division (the
// front end splits a statement whose subscript is affine piecewise, such
// as t % 2, into one statement per piece).
package ir
