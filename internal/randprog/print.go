package randprog

import (
	"fmt"
	"strings"
)

// print returns the C file of the generated program.
func (g *gen) print(seed int64, p *Program) string {
	var b strings.Builder
	fmt.Fprintf(&b, `/*
 * Random static-control program from nestor/internal/randprog, seed %d:
 * %d statements, loop depth %d, %d statement instances.
 * The arrays fit n = N = %d and m = M = %d exactly; other values may access
 * them out of bounds.%s
 */
#define N %d
#define M %d
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

`, seed, p.Stmts, p.Depth, p.Instances, g.size[varN], g.size[varM], tempsLine(p.Temps), g.size[varN], g.size[varM])
	var params []string
	for _, v := range []int{varN, varM} {
		if _, ok := p.Params[varNames[v]]; ok {
			params = append(params, "int "+varNames[v])
		}
	}
	if g.alpha {
		params = append(params, "double alpha")
	}
	for _, a := range g.arrays {
		if !g.used(a) {
			continue
		}
		t := "double"
		if a.isInt {
			t = "int"
		}
		decl := t + " " + a.name
		for _, d := range a.dims {
			decl += fmt.Sprintf("[%d]", d)
		}
		params = append(params, decl)
	}
	fmt.Fprintf(&b, "void %s(%s)\n{\n", p.Kernel, strings.Join(params, ", "))
	for _, t := range g.temps {
		fmt.Fprintf(&b, "  %s\n", tempDecl(t))
	}
	b.WriteString("#pragma scop\n")
	for _, n := range g.body {
		g.printNode(&b, n, 1)
	}
	b.WriteString("#pragma endscop\n")
	for _, s := range g.after {
		g.printNode(&b, s, 1)
	}
	b.WriteString("}\n")
	return b.String()
}

// tempsLine returns the header's line naming the temporaries' shapes, ""
// when there are none.
func tempsLine(temps []string) string {
	if len(temps) == 0 {
		return ""
	}
	return "\n * Scalar temporaries: " + strings.Join(temps, ", ") + "."
}

func indent(b *strings.Builder, level int) {
	b.WriteString(strings.Repeat("  ", level))
}

func (g *gen) printNode(b *strings.Builder, n node, level int) {
	switch n := n.(type) {
	case *loop:
		indent(b, level)
		fmt.Fprintf(b, "for (%s)", n.header())
		if len(n.body) == 1 {
			b.WriteString("\n")
			g.printNode(b, n.body[0], level+1)
			return
		}
		b.WriteString(" {\n")
		for _, c := range n.body {
			g.printNode(b, c, level+1)
		}
		indent(b, level)
		b.WriteString("}\n")
	case *guard:
		var cs []string
		for _, c := range n.conds {
			cs = append(cs, c.x.String()+" "+c.op+" "+c.y.String())
		}
		indent(b, level)
		fmt.Fprintf(b, "if (%s)\n", strings.Join(cs, " && "))
		g.printNode(b, n.then, level+1)
		if n.els != nil {
			indent(b, level)
			b.WriteString("else\n")
			g.printNode(b, n.els, level+1)
		}
	case *stmt:
		indent(b, level)
		if n.lhs.arr.isInt {
			fmt.Fprintf(b, "%s = (%s) %% %d;\n", n.lhs, exprString(n.rhs, 0), intMod)
			return
		}
		fmt.Fprintf(b, "%s %s %s;\n", n.lhs, n.op, exprString(n.rhs, 0))
	}
}

// header returns the three clauses of l's for statement, the bounds
// written one of the equivalent ways form picks.
func (l *loop) header() string {
	v := varNames[l.level]
	start, ends, cmp, adjust, combine := l.lower, l.upper, "<=", int64(1), "MIN"
	first, step := "MAX", "++"
	if l.down {
		start, ends, cmp, adjust, combine = l.upper, l.lower, ">=", -1, "MAX"
		first, step = "MIN", "--"
	}
	if l.step != 1 {
		step = " += " + fmt.Sprint(l.step)
		if l.down {
			step = " -= " + fmt.Sprint(l.step)
		}
	}
	var conds []string
	switch {
	case l.form == 0 && len(ends) == 2:
		conds = append(conds, fmt.Sprintf("%s %s %s(%s, %s)", v, cmp, combine, ends[0], ends[1]))
	case l.form == 0:
		conds = append(conds, fmt.Sprintf("%s %s %s", v, cmp, ends[0]))
	default: // strict comparisons: i < u + 1, i > l - 1
		for _, e := range ends {
			conds = append(conds, fmt.Sprintf("%s %s %s", v, cmp[:1], e.addConst(adjust)))
		}
	}
	init := start[0].String()
	if len(start) == 2 {
		init = fmt.Sprintf("%s(%s, %s)", first, start[0], start[1])
	}
	return fmt.Sprintf("int %s = %s; %s; %s%s", v, init, strings.Join(conds, " && "), v, step)
}

// Operator precedence for printing: + and - bind looser than *.
func prec(op byte) int {
	if op == '*' {
		return 2
	}
	return 1
}

// exprString prints e inside an operator of precedence outer (0: none),
// with the parentheses C needs to keep the tree's grouping.
func exprString(e expr, outer int) string {
	switch e := e.(type) {
	case *access:
		return e.String()
	case constExpr:
		return string(e)
	case iterExpr:
		return varNames[e]
	case scalarExpr:
		return string(e)
	case *binExpr:
		p := prec(e.op)
		// The right operand of an operator of the same precedence gets
		// parentheses: a - (b + c), a * (b * c).
		s := exprString(e.x, p) + " " + string(e.op) + " " + exprString(e.y, p+1)
		if p < outer {
			s = "(" + s + ")"
		}
		return s
	}
	panic(fmt.Sprintf("randprog: unknown expression %T", e))
}
