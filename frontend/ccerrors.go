package frontend

import (
	gotoken "go/token"
	"regexp"
	"strings"

	"modernc.org/cc/v4"
)

// ccSuffix matches the source location of cc's own code that its messages
// end with: " (check.go:5317:check:)".
var ccSuffix = regexp.MustCompile(`\s*\(\w+\.go:\d+(:\w*)*:?\)\s*$`)

// userErrors rewrites cc's messages in the user's terms: the location in
// cc's code is dropped, an undefined name reads "undeclared identifier
// 'x'", and the messages cc prints about its own state ("TODO ...
// missed/failed type check") or that only follow from an undeclared name
// (an operand of "<invalid type>", any message on the line of one) are replaced by the undeclared names
// found by parsing the file again without type checking. Each message
// keeps its position.
func userErrors(cfg *cc.Config, srcs []cc.Source, path string, errs ErrorList) ErrorList {
	var out ErrorList
	undeclared := undeclaredNames(cfg, srcs, path)
	lines := map[gotoken.Position]bool{} // lines with an undeclared name
	for _, e := range undeclared {
		out = append(out, e)
		lines[gotoken.Position{Filename: e.Pos.Filename, Line: e.Pos.Line}] = true
	}
	internal := 0
	for _, e := range errs {
		msg := ccSuffix.ReplaceAllString(e.Msg, "")
		switch {
		case strings.HasPrefix(msg, "TODO "):
			internal++
			continue
		case strings.HasPrefix(msg, "undefined: "):
			msg = "undeclared identifier '" + strings.TrimPrefix(msg, "undefined: ") + "'"
		case strings.Contains(msg, "<invalid type>") && len(undeclared) > 0,
			lines[gotoken.Position{Filename: e.Pos.Filename, Line: e.Pos.Line}]:
			continue
		}
		out = append(out, &Error{Pos: e.Pos, Msg: msg})
	}
	if len(out) == 0 && internal > 0 {
		out.Add(gotoken.Position{Filename: path, Line: 1, Column: 1}, "the C type checker rejected this file without saying where (an undeclared name or type is the usual cause)")
	}
	out.Sort()
	return out
}

// undeclaredNames parses the sources without type checking and returns an
// error for each identifier of the file at path used in an expression
// (other than as the callee of a call, which C89 declares implicitly)
// that no enclosing scope declares.
func undeclaredNames(cfg *cc.Config, srcs []cc.Source, path string) (out ErrorList) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	ast, err := cc.Parse(cfg, srcs)
	if err != nil || ast == nil {
		return nil
	}
	callee := map[*cc.PrimaryExpression]bool{}
	walk(ast.TranslationUnit, func(n cc.Node) bool {
		switch n := n.(type) {
		case *cc.PostfixExpression:
			if n.Case == cc.PostfixExpressionCall {
				if pe, ok := unparen(n.PostfixExpression).(*cc.PrimaryExpression); ok {
					callee[pe] = true
				}
			}
		case *cc.PrimaryExpression:
			if n.Case != cc.PrimaryExpressionIdent || callee[n] {
				break
			}
			pos := goPos(n.Position())
			name := n.Token.SrcStr()
			if pos.Filename != path || strings.HasPrefix(name, "__builtin") || declared(n.LexicalScope(), name) {
				break
			}
			out.Add(pos, "undeclared identifier '"+name+"'")
		}
		return true
	})
	return out
}

// declared reports whether s or a scope around it declares name.
func declared(s *cc.Scope, name string) bool {
	for ; s != nil; s = s.Parent {
		if len(s.Nodes[name]) > 0 {
			return true
		}
	}
	return false
}
