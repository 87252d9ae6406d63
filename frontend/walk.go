package frontend

import (
	"reflect"

	"modernc.org/cc/v4"
)

// walk calls f on n and on every AST node below it, depth first in field
// order, stopping a branch when f returns false. It follows the exported
// fields of cc's AST structs (tokens are not nodes here).
func walk(n cc.Node, f func(cc.Node) bool) {
	if n == nil {
		return
	}
	v := reflect.ValueOf(n)
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return
	}
	if !f(n) {
		return
	}
	walkValue(v, f)
}

func walkValue(v reflect.Value, f func(cc.Node) bool) {
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	for k := 0; k < t.NumField(); k++ {
		sf := t.Field(k)
		if !sf.IsExported() || sf.Anonymous {
			continue
		}
		fv := v.Field(k)
		switch fv.Kind() {
		case reflect.Pointer, reflect.Interface:
			if fv.IsNil() {
				continue
			}
			if fv.Kind() == reflect.Pointer && fv.Elem().Kind() != reflect.Struct {
				continue
			}
			if n, ok := fv.Interface().(cc.Node); ok {
				if _, isTok := n.(cc.Token); isTok {
					continue
				}
				if _, isTok := n.(*cc.Token); isTok {
					continue
				}
				walk(n, f)
			}
		}
	}
}
