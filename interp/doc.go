// Package interp is nestor's reference interpreter: it executes an
// ir.Program on concrete arrays with the semantics of C on x86-64, and is
// the oracle that unit tests of every transformation compare against.
//
// # Memory
//
// A [Memory] holds one buffer per array of the program, laid out as C lays
// it out: row-major, little-endian, each element ir.Type.Size() bytes, the
// sizes being the array's Dims evaluated at the parameters. A dump written
// by a C harness can be copied into [Memory.Bytes] and results compared
// byte for byte. long double elements hold the x87 80-bit format in 16
// bytes (6 bytes of zero padding).
//
// # Order
//
// [Instances] enumerates statement instances in the original order: the
// lexicographic order of the 2d+1 schedule vectors (ir.Less). It walks the
// loop tree the Beta vectors describe. At a loop shared by several
// statements, the counter runs over the hull of the statements' own ranges,
// each range computed from that statement's constraints whose innermost
// counter is the loop's (constraints with local variables only filter), and
// every point is finally tested with ir.Domain.Contains, so bounds that are
// loose only cost time. A counter without a lower or an upper bound is an
// error. [Run] executes each instance as it is enumerated.
//
// # Arithmetic
//
// Values are computed in their C type (Expr.Type):
//   - float: every operation rounds to float32 (Go float32 arithmetic, one
//     operation at a time, so nothing is fused); double is float64; long
//     double is computed as float64 too, which real x87 code does not do.
//   - Signed overflow (+ - * / % unary -, and << of a negative value or
//     into the sign bit or beyond), integer division or remainder by zero,
//     a shift count outside [0, width), and float-to-integer conversion of
//     NaN or of a value whose truncation does not fit are undefined in C
//     and are errors here.
//   - Unsigned arithmetic wraps. Conversion of an integer to a narrower
//     signed type wraps modulo 2^width and >> of a negative value is
//     arithmetic: both are implementation-defined, and this is what gcc does.
//   - Floating-point division by zero and double-to-float overflow give
//     infinities (IEEE 754, C Annex F).
//   - Comparisons, !, && and || yield int 0 or 1; && || and ?: evaluate only
//     the operands C evaluates. Conversion to _Bool yields 1 for any nonzero
//     value (NaN included).
//   - Math functions (ir.MathFuncs) use Go's math package in float64; the
//     float forms (sqrtf, ...) round that result to float32, and the long
//     double forms compute in float64. glibc's results are correctly
//     rounded for sqrt, fabs, fmin, fmax, fdim, fmod, remainder, copysign
//     and the rounding functions (floor, ceil, round, trunc, rint,
//     nearbyint), where Go agrees; the others (exp, exp2, expm1, log,
//     log10, log2, log1p, pow, cbrt, hypot, the trigonometric and
//     hyperbolic functions, erf, erfc, tgamma) may differ from glibc in the
//     last place or two, and the float forms of glibc compute in float,
//     not by rounding a double. Tests therefore compare the interpreter
//     only with itself (original against optimized program, bit for bit),
//     and compiled code only with compiled code (nestor check, which
//     links both with the same libm). fmax and fmin return the other
//     operand when one is NaN, as C does. A call of a function that is not
//     one of ir.MathFuncs (a const or pure function of the source) is an
//     error: the interpreter cannot evaluate it.
//
// A compound assignment executes ir.Stmt.Value, which makes C's implicit
// conversions explicit. Every error is an [*Error] naming the statement and
// the iteration point; an out-of-bounds access also names the array, the
// subscripts as written and their values.
//
// # Limits
//
// This is an oracle, not a fast interpreter: expressions are walked as
// trees for every instance (about 10^7 instances take seconds). The first
// dimension of an array parameter declared A[][n] must be given in the IR:
// the interpreter does not infer it.
package interp
