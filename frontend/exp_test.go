package frontend

import (
	"fmt"
	"os"
	"runtime"
	"testing"

	"modernc.org/cc/v4"
)

func TestExp(t *testing.T) {
	cfg, err := cc.NewConfig(runtime.GOOS, runtime.GOARCH)
	if err != nil {
		t.Fatal(err)
	}
	cfg.IncludePaths = append(cfg.IncludePaths, "/tmp/exp")
	cfg.SysIncludePaths = append(cfg.SysIncludePaths, "/tmp/exp")
	src, _ := os.ReadFile("/tmp/exp/k.c")
	ast, err := cc.Translate(cfg, []cc.Source{{Name: "<predefined>", Value: cfg.Predefined}, {Name: "<builtin>", Value: cc.Builtin}, {Name: "/tmp/exp/k.c", Value: src}})
	if err != nil {
		t.Fatal(err)
	}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed.Case == cc.ExternalDeclarationFuncDef {
			fd := ed.FunctionDefinition
			if fd.Declarator.Name() != "kernel" {
				continue
			}
			fmt.Println(fd.CompoundStatement)
			for _, tok := range cc.NodeTokens(fd.CompoundStatement) {
				fmt.Println(tok.Position(), tok.SrcStr(), tok.Seq())
			}
		}
	}
}
