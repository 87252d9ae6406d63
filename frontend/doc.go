// Package frontend turns C source into ir.Programs: it preprocesses and
// parses a file with modernc.org/cc/v4 (with the system compiler's
// predefined macros, -I folders searched for both "..." and <...>, and -D
// definitions), finds the regions marked #pragma scop / #pragma endscop by
// scanning the raw lines, and translates each into an ir.Program.
//
// # The subset
//
// A region is whole statements of one block of one function body. Inside
// it: for loops "for (i = lb; cond; step)" (or "int i = lb") with a
// constant step ≠ 0 (++, --, += c, -= c, i = i ± c); conditions are && of
// comparisons <, <=, >, >=, == of affine expressions in the counters and
// parameters, with min and max written as "a < b ? a : b" (and the >, <=,
// >= and swapped forms, as MIN/MAX macros expand to) on the convex side,
// and division by a positive constant. A step s ≠ ±1 adds the local
// q = ⌊(i − lb)/s⌋ with i − lb − s·q = 0. If statements with such
// conditions guard their branches; an else branch needs a condition that
// is one inequality. An if whose condition reads memory (argmin's
// "if (a[i] < m) { m = a[i]; k = i; }") may only assign scalars: it
// becomes one select per assignment over the condition, evaluated once
// before them into a region-local int (select.go). Bodies are
// "lhs = rhs;" and "lhs op= rhs;" with lhs
// an array element with affine subscripts or a scalar, and declarations
// "T x = e;" (a region-local scalar). Right-hand sides use arithmetic,
// comparisons, logical operators, ?:, casts and the pure math functions of
// ir.MathFuncs; conversions C inserts become implicit ir.Casts.
//
// Division in bounds and guards is floor division. C's / truncates toward
// zero, which agrees for the non-negative numerators of PolyBench and
// Pluto-style bounds; a negative numerator would be rounded differently.
//
// Parameters are the integer variables declared outside the region, never
// written in it, and read in it or in the sizes of its arrays or of the
// function's array parameters: function parameters first, in signature
// order, then others in order of declaration. Other variables become
// arrays (scalars have rank 0) in order of first use; their Storage says
// who declares them. Counters declared outside the region go to
// Program.Vars.
//
// # Errors
//
// User errors come back as an ErrorList, sorted, one per line, printing
// as "file:line:col: msg"; constructs outside the subset read
// "not a static control part: <why>". Every statement of a region is
// translated even after an error, so all its errors are reported. A panic
// inside cc on malformed input becomes a user error at the file's start;
// any other failure is an internal error ("frontend: internal error: ...").
//
// # Invariants
//
// Every returned Program passes ir.Check. Statements are named S0, S1, ...
// in textual order, with Pos at their first token (a macro's invocation
// for expanded text) and Text the source collapsed to single blanks.
// Scop.Start/End/Indent/Pos are as api.go documents; Src[Start:End] holds
// exactly the region's statements. File.Funcs lists every function
// defined in the file itself; a function with a scop shares the *Func of
// its first Scop.
//
// # Limits
//
// Pointers (other than "T *p" parameters, described with Pointer set),
// struct members, while/do/goto/break/continue/return/switch, calls other
// than math functions, increments inside expressions, chained and comma
// assignments, and non-affine subscripts or bounds are rejected. Counters
// may not be read outside their loop. Subscripts cannot use division.
package frontend
