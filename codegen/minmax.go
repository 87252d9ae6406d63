package codegen

import "nestor/ir"

// fmin and fmax are calls into the C library unless the compiler may
// ignore NaNs and the sign of zero (-ffast-math): one call per element,
// no vector loop, and the values go to memory and back around each call.
// nestor prints them as the comparisons they stand for, which compilers
// vectorize (nestor_fmin and nestor_fmax in print.go's macros):
//
//	fmin(x, y) = (x <= y) | (y != y) ? x : y
//	fmax(x, y) = (x >= y) | (y != y) ? x : y
//
// (| rather than ||: no branch between the comparisons, and gcc makes
// two vector compares, an or of their masks and a blend; with || it kept
// a branch in the vector loop and minmax's chunks ran 2.5x slower.)
//
// These are C's functions exactly on every number and quiet NaN: the
// smaller (larger) of two numbers, the number when one argument is a NaN,
// and on equal arguments the first. Between -0 and +0 C leaves the choice
// open: glibc's double and float functions take the first, as the macros
// do, its long double ones and gcc's constant folding the second. The
// macros differ from the library on a signaling NaN, which the
// library quiets and returns and the macro may pass over, and in the
// floating-point exception flags an ordered comparison of a NaN raises;
// C programs read neither without FENV_ACCESS. Each macro evaluates its
// arguments twice, so it replaces only calls whose arguments call no
// function the compiler does not inline (inlined).
var minMaxMacros = map[string]string{
	"fmin": "nestor_fmin", "fminf": "nestor_fmin", "fminl": "nestor_fmin",
	"fmax": "nestor_fmax", "fmaxf": "nestor_fmax", "fmaxl": "nestor_fmax",
}

// inlinedCall reports whether the compiler computes c in registers, with
// no call: a function it inlines, or fmin and fmax as nestor prints them.
func inlinedCall(c *ir.Call) bool {
	if inlined[c.Fn] {
		return true
	}
	m, ok := minMaxForm(c).(*ir.Call)
	return ok && isMacro(m.Fn)
}

// isMacro reports whether fn is one of the macros minMaxMacros names.
func isMacro(fn string) bool { return fn == "nestor_fmin" || fn == "nestor_fmax" }

// plainArgs reports whether args call only functions the compiler inlines
// (inlined), so that evaluating them twice costs nothing, or, nested at
// most macros deep, the macros themselves (a clamp, fmax(fmin(x, hi), lo),
// is one deep): each level doubles the text.
func plainArgs(args []ir.Expr, macros int) bool {
	plain := true
	for _, a := range args {
		ir.Walk(a, func(e ir.Expr) bool {
			if d, ok := e.(*ir.Call); ok && !inlined[d.Fn] {
				plain = macros > 0 && isMacro(d.Fn) && plainArgs(d.Args, macros-1)
			}
			return plain
		})
	}
	return plain
}

// inlineMinMax returns e in minMaxForm and marks the macros it calls
// used.
func (pr *printer) inlineMinMax(e ir.Expr) ir.Expr {
	e = minMaxForm(e)
	ir.Walk(e, func(x ir.Expr) bool {
		if c, ok := x.(*ir.Call); ok && isMacro(c.Fn) {
			pr.used[c.Fn] = true
		}
		return true
	})
	return e
}

// minMaxForm returns e with its calls of fmin and fmax that take plain
// arguments replaced by the macros (e itself when there are none). The
// arguments' implicit conversions become casts: the macro's comparison
// and result then have the function's type, as the call's have.
func minMaxForm(e ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *ir.Unary:
		if x := minMaxForm(e.X); x != e.X {
			c := *e
			c.X = x
			return &c
		}
	case *ir.Binary:
		x, y := minMaxForm(e.X), minMaxForm(e.Y)
		if x != e.X || y != e.Y {
			c := *e
			c.X, c.Y = x, y
			return &c
		}
	case *ir.Cond:
		k, x, y := minMaxForm(e.C), minMaxForm(e.X), minMaxForm(e.Y)
		if k != e.C || x != e.X || y != e.Y {
			c := *e
			c.C, c.X, c.Y = k, x, y
			return &c
		}
	case *ir.Cast:
		if x := minMaxForm(e.X); x != e.X {
			c := *e
			c.X = x
			return &c
		}
	case *ir.Call:
		args := e.Args
		for k, a := range e.Args {
			if x := minMaxForm(a); x != a {
				if &args[0] == &e.Args[0] {
					args = append([]ir.Expr(nil), e.Args...)
				}
				args[k] = x
			}
		}
		if name := minMaxMacros[e.Fn]; name != "" && plainArgs(args, 1) {
			explicit := make([]ir.Expr, len(args))
			for k, a := range args {
				explicit[k] = a
				if c, ok := a.(*ir.Cast); ok && c.Implicit {
					x := *c
					x.Implicit = false
					explicit[k] = &x
				}
			}
			return &ir.Call{Fn: name, Args: explicit, T: e.T}
		}
		if len(args) > 0 && &args[0] != &e.Args[0] {
			return &ir.Call{Fn: e.Fn, Args: args, T: e.T}
		}
	}
	return e
}
