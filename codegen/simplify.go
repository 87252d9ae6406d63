package codegen

import (
	"slices"

	"nestor/ir"
	"nestor/poly"
)

// simplify removes the guards that the enclosing loops' bounds, the
// enclosing guards and the program's context imply. A guard c is implied
// by the known constraints K when K ∧ ¬c has no integer point (c is
// aff ≥ 0, so ¬c is −aff − 1 ≥ 0), over the counters and the parameters
// together; when poly cannot decide (a limit or an overflow) the guard
// stays. Guards with modulo or floor-division terms always stay. An If
// left with no guard is replaced by its body.
func simplify(p *ir.Program, b *Block) {
	depth := 0
	for _, s := range p.Stmts {
		depth = max(depth, s.Depth())
	}
	np := len(p.Params)
	var known []poly.Constraint
	for _, c := range p.Context {
		known = append(known, toPoly(c.Aff, c.Eq, depth, np))
	}
	b.Body = simplifyNodes(b.Body, known, depth, np)
}

func simplifyNodes(ns []Node, known []poly.Constraint, depth, np int) []Node {
	var out []Node
	for _, n := range ns {
		switch n := n.(type) {
		case *Loop:
			inner := slices.Clone(known)
			if n.Step == 1 {
				inner = append(inner, boundRows(n.Lower, n.Level, true, depth, np)...)
				inner = append(inner, boundRows(n.Upper, n.Level, false, depth, np)...)
			}
			n.NonEmpty = nonEmpty(known, n, depth, np)
			n.Body = simplifyNodes(n.Body, inner, depth, np)
			out = append(out, n)
		case *If:
			keep := slices.Clone(n.Conds)
			for k := 0; k < len(keep); {
				c := keep[k]
				if c.Mod > 0 || usesLocals(c.Aff) {
					k++
					continue
				}
				// Implied by what is known and the other guards kept.
				others := slices.Clone(known)
				for j, d := range keep {
					if j != k && d.Mod == 0 && !usesLocals(d.Aff) {
						others = append(others, toPoly(d.Aff, d.Eq, depth, np))
					}
				}
				if guardImplied(others, c, depth, np) {
					keep = slices.Delete(keep, k, k+1)
					continue
				}
				k++
			}
			inner := slices.Clone(known)
			for _, c := range keep {
				if c.Mod == 0 && !usesLocals(c.Aff) {
					inner = append(inner, toPoly(c.Aff, c.Eq, depth, np))
				}
			}
			body := simplifyNodes(n.Body, inner, depth, np)
			if len(keep) == 0 {
				out = append(out, body...)
				continue
			}
			n.Conds, n.Body = keep, body
			out = append(out, n)
		default:
			out = append(out, n)
		}
	}
	return mergeIfs(out)
}

// guardImplied reports whether the known constraints imply guard c.
func guardImplied(known []poly.Constraint, c Cond, depth, np int) bool {
	holds := func(a ir.Aff) bool { // known ⇒ a ≥ 0
		not := toPoly(neg(a), false, depth, np)
		not.Coef[len(not.Coef)-1]--
		set, err := poly.NewSet(space(depth, np), append(slices.Clone(known), not)...)
		if err != nil {
			return false
		}
		empty, err := set.IsEmpty()
		return err == nil && empty
	}
	if !holds(c.Aff) {
		return false
	}
	return !c.Eq || holds(neg(c.Aff))
}

// boundRows returns the constraints a loop's bound terms give its counter
// at level k: counter ≥ each term of a lower bound (the max of its terms),
// ≤ each term of an upper bound. A term that is itself a min in a lower
// bound (or a max in an upper one) gives nothing: it is a disjunction.
func boundRows(bs []Bound, k int, lower bool, depth, np int) []poly.Constraint {
	var out []poly.Constraint
	for _, b := range bs {
		switch {
		case len(b.Of) > 0 && b.Min != lower:
			out = append(out, boundRows(b.Of, k, lower, depth, np)...)
		case len(b.Of) > 0:
			// a disjunction: no conjunctive fact
		case !usesLocals(b.Aff):
			// lower: den·i ≥ aff, i.e. den·i − aff ≥ 0; upper: aff − den·i ≥ 0.
			a := neg(b.Aff)
			if !lower {
				a = b.Aff
			}
			r := toPoly(a, false, depth, np)
			if lower {
				r.Coef[k] += b.Den
			} else {
				r.Coef[k] -= b.Den
			}
			out = append(out, r)
		}
	}
	return out
}

func space(depth, np int) poly.Space {
	sp := poly.Space{Dims: make([]string, depth), Params: make([]string, np)}
	for k := range sp.Dims {
		sp.Dims[k] = "c" + string(rune('0'+k%10)) + string(rune('a'+k/10))
	}
	for k := range sp.Params {
		sp.Params[k] = "p" + string(rune('0'+k%10)) + string(rune('a'+k/10))
	}
	return sp
}

// toPoly converts an affine form over the counters and parameters to a
// poly row over (depth counters, np parameters, 1).
func toPoly(a ir.Aff, eq bool, depth, np int) poly.Constraint {
	coef := make([]int64, depth+np+1)
	copy(coef, a.Iter)
	copy(coef[depth:], a.Param)
	coef[depth+np] = a.Const
	return poly.Constraint{Eq: eq, Coef: coef}
}

// nonEmpty reports whether the known constraints imply that loop l runs
// at least once: every leaf of its lower bound (a max) is at most every
// leaf of its upper bound (a min), both with denominator 1.
func nonEmpty(known []poly.Constraint, l *Loop, depth, np int) bool {
	if len(l.Lower) == 0 || len(l.Upper) == 0 {
		return false
	}
	for _, lo := range l.Lower {
		for _, up := range l.Upper {
			if len(lo.Of) > 0 || len(up.Of) > 0 || lo.Den != 1 || up.Den != 1 || usesLocals(lo.Aff) || usesLocals(up.Aff) {
				return false
			}
			if !guardImplied(known, Cond{Aff: sub(up.Aff, lo.Aff)}, depth, np) {
				return false
			}
		}
	}
	return true
}
