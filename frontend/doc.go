// Package frontend turns C source into ir.Programs: it preprocesses and
// parses a file with modernc.org/cc/v4 (with the system compiler's
// predefined macros, -I folders searched for both "..." and <...>, and -D
// definitions), finds the regions marked #pragma scop / #pragma endscop by
// scanning the raw lines, and translates each into an ir.Program.
//
// # The subset
//
// A region is whole statements of one block of one function body (main
// included; the pragmas may enclose the whole body). Inside it: for loops
// "for (i = lb; cond; step)" (or "int i = lb") with a constant step ≠ 0
// (++, --, += c, -= c, i = i ± c); conditions are && of comparisons <,
// <=, >, >=, == of affine expressions in the counters and parameters,
// with min and max written as "a < b ? a : b" (and the >, <=, >= and
// swapped forms, as MIN/MAX macros expand to), floor and ceiling division
// as nestor's nestor_floord/nestor_ceild expand, division by a positive
// constant, and x % c for a constant c > 0. A step s ≠ ±1 adds the local
// q = ⌊(i − lb)/s⌋ with i − lb − s·q = 0, except when a subscript of its
// body divides the counter (A[i/3] in "i += 3"): such a loop is counted by
// its trip number k ≥ 0, the counter read everywhere as lb + s·k, so that
// i/3 is affine when 3 divides lb's coefficients (normalize in stmt.go;
// the counter's value after such a loop is not known). A loop without
// initialization,
// "for (; i < n; i++)", starts from the counter's known value (below). If
// statements with such conditions guard their branches; an else branch
// needs a condition that is one inequality. An if whose condition reads
// memory (argmin's "if (a[i] < m) { m = a[i]; k = i; }") may only assign
// scalars: it becomes one select per assignment over the condition,
// evaluated once before them into a region-local int (select.go). Bodies
// are "lhs = rhs;" and "lhs op= rhs;", chained ("a1 = a5 = k;": the inner
// assignment runs first and the outer one reads its left side back), with
// lhs an array element with affine subscripts or a scalar, or a member of
// either ("b[i][j].re", "z.im", "p->re" for p[0].re) when the struct's
// members share one scalar type without padding: the variable is then an
// ir.Array with Members, the member a constant last subscript, declarations
// "T x = e;" (a region-local scalar), "T *p = __builtin_malloc(sizeof(T)
// * (e));" (a region-local heap array of e elements, as nestor's output
// expands a scalar; its free is nothing), and "(void)x;" (nothing). Right-hand
// sides use arithmetic, comparisons, logical operators, ?:, casts, the
// pure math functions of ir.MathFuncs, and calls of functions declared
// __attribute__((const)) (a value of their arguments) or
// __attribute__((pure)) (accepted only when the region writes nothing but
// locals whose address is never taken, which such a function cannot
// read; see call.go); conversions C inserts become implicit ir.Casts.
// Subscripts are affine; "(e1, e2)" is e2 when e1 has no effect; x / c
// is accepted when c divides every coefficient of x.
//
// C's / and % truncate toward zero. In subscripts and for %, the
// dividend is proved non-negative with poly wherever the statement runs
// (else the construct is refused with that reason), so that truncation is
// floor division. Division in loop bounds and guards is taken as floor
// division without that proof: it agrees for the non-negative numerators
// of PolyBench and Pluto-style bounds, and nestor_floord is floor
// division by construction.
//
// # Piecewise values and case splits (split.go, counter.go)
//
// Some values are affine only piecewise: x % c in a subscript (one piece
// per residue), a min on the small side or a max on the large side of a
// bound (one per operand that is the extremum: nestor's own output bounds
// loops so), and a loop counter read after its loop (one piece per bound
// that ended the loop, and one where the loop never ran). Each is a
// placeholder local; a statement that uses one becomes one statement per
// feasible case, with the case's conditions in its domain and its value
// substituted, in consecutive Beta positions (at most one copy runs at any
// iteration point, so the original order is kept). A counter's value is
// known after "int t = e;" in the region (e affine, or a min or max of
// affine expressions) or after its loop, in the scope
// (loop body or if branch) that set it; it is read in subscripts and
// bounds, and in expressions when it is affine in one piece.
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
// Pointers (other than "T *p" parameters, described with Pointer set, and
// "T (*A)[n]" parameters, described as "T A[][n]"; "struct s *p" is
// described as "struct s p[][members]"), unions, structs with members of
// different types, padding, nested structs or array members, whole-struct
// reads and writes, arrays of structs declared inside the region,
// while/do/goto/break/continue/return/switch, calls other than the above,
// increments inside expressions, comma assignments, and non-affine
// subscripts or bounds are rejected. A subscript that needs a floor
// division (i/3 where i starts at n in a loop with step 3, or the counter
// a loop with a step leaves) is rejected: subscripts stay affine in the
// counters and parameters.
package frontend
