package frontend

import (
	"modernc.org/cc/v4"

	"nestor/ir"
)

// pureCall is a call of a function declared __attribute__((pure)).
type pureCall struct {
	at   cc.Node
	name string
}

// funcAttr returns "const" when some declaration of the function d in the
// translation unit carries __attribute__((const)), else "pure" for
// __attribute__((pure)), else "". A const function's value depends on its
// arguments only (GCC: it reads no memory that can change); a pure one
// may also read global memory, but writes none.
func (b *builder) funcAttr(d *cc.Declarator) string {
	name := d.Name()
	if a, ok := b.attrs[name]; ok {
		return a
	}
	attr := ""
	note := func(n cc.Node) {
		walk(n, func(n cc.Node) bool {
			if av, ok := n.(*cc.AttributeValue); ok {
				switch av.Token.SrcStr() {
				case "const", "__const__", "__const":
					attr = "const"
				case "pure", "__pure__":
					if attr == "" {
						attr = "pure"
					}
				}
			}
			return true
		})
	}
	for l := b.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			if fd := ed.FunctionDefinition; fd != nil && fd.Declarator != nil && fd.Declarator.Name() == name {
				note(fd.DeclarationSpecifiers)
				note(fd.Declarator)
			}
		case cc.ExternalDeclarationDecl:
			decl := ed.Declaration
			if decl == nil {
				continue
			}
			for il := decl.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
				if id := il.InitDeclarator; id != nil && id.Declarator != nil && id.Declarator.Name() == name {
					note(decl)
				}
			}
		}
	}
	if b.attrs == nil {
		b.attrs = map[string]string{}
	}
	b.attrs[name] = attr
	return attr
}

// checkPure refuses the region's calls of pure functions unless nothing
// the region writes is visible to them. A pure function may read global
// memory and, through pointers it can reach, the arrays of function
// parameters; nestor does not know which, so it would have to keep every
// such call in place relative to every write. Instead it accepts a pure
// call only when the region writes nothing but locals of the enclosing
// function whose address is never taken: then the call is a value of its
// arguments for the whole region, as a const call is.
func (b *builder) checkPure() {
	if len(b.pureCalls) == 0 {
		return
	}
	written := map[int]bool{}
	for _, s := range b.prog.Stmts {
		written[s.Accesses[0].Array] = true
	}
	for d, k := range b.arrays {
		if k < 0 || !written[k] {
			continue
		}
		if st := b.prog.Arrays[k].Storage; (st == ir.FuncLocal || st == ir.ScopLocal) && !d.IsStatic() && !d.AddressTaken() {
			continue
		}
		for _, c := range b.pureCalls {
			b.unsupported(c.at, "call to %s, declared __attribute__((pure)): it may read %s, which the region writes (declare it __attribute__((const)) if it reads only its arguments)", c.name, d.Name())
		}
		return
	}
}
