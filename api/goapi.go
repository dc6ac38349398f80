package api

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
)

// Surface lists the exported API of pkg, one line per name, sorted, in the form of Go's
// api/*.txt files: "pkg P, func F(int) error", "pkg P, method (*T) M() error",
// "pkg P, type T struct, F int", ... Parameter names are left out: renaming one changes
// no caller.
func Surface(pkg *types.Package) []string {
	q := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Path()
	}
	prefix := "pkg " + pkg.Path() + ", "
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, prefix+fmt.Sprintf(format, args...)) }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch o := obj.(type) {
		case *types.Const:
			add("const %s %s = %s", name, types.TypeString(o.Type(), q), o.Val().ExactString())
		case *types.Var:
			add("var %s %s", name, types.TypeString(o.Type(), q))
		case *types.Func:
			sig := o.Type().(*types.Signature)
			add("func %s%s%s", name, typeParams(sig.TypeParams(), q), signature(sig, q))
		case *types.TypeName:
			typeLines(o, q, add)
		}
	}
	sort.Strings(lines)
	return lines
}

func typeLines(o *types.TypeName, q types.Qualifier, add func(string, ...any)) {
	name := o.Name()
	if o.IsAlias() {
		add("type %s = %s", name, types.TypeString(o.Type(), q))
		return
	}
	named := o.Type().(*types.Named)
	tparams := typeParams(named.TypeParams(), q)
	under := named.Underlying()
	switch u := under.(type) {
	case *types.Struct:
		add("type %s%s struct", name, tparams)
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if !f.Exported() {
				continue
			}
			if f.Embedded() {
				add("type %s%s struct, embedded %s", name, tparams, types.TypeString(f.Type(), q))
			} else {
				add("type %s%s struct, %s %s", name, tparams, f.Name(), types.TypeString(f.Type(), q))
			}
		}
	case *types.Interface:
		if u.IsMethodSet() {
			add("type %s%s interface, unexported methods", name, tparams)
		}
		add("type %s%s %s", name, tparams, types.TypeString(u, q))
	default:
		add("type %s%s %s", name, tparams, types.TypeString(under, q))
	}
	recvArgs := ""
	if tp := named.TypeParams(); tp.Len() > 0 {
		var ns []string
		for i := 0; i < tp.Len(); i++ {
			ns = append(ns, tp.At(i).Obj().Name())
		}
		recvArgs = "[" + strings.Join(ns, ", ") + "]"
	}
	for i := 0; i < named.NumMethods(); i++ {
		m := named.Method(i)
		if !m.Exported() {
			continue
		}
		sig := m.Type().(*types.Signature)
		recv := name + recvArgs
		if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
			recv = "*" + recv
		}
		add("method (%s) %s%s", recv, m.Name(), signature(sig, q))
	}
	// methods promoted from embedded fields are part of the type's API too
	if _, ok := under.(*types.Struct); ok {
		seen := map[string]bool{}
		for _, t := range []types.Type{named, types.NewPointer(named)} {
			ms := types.NewMethodSet(t)
			for i := 0; i < ms.Len(); i++ {
				sel := ms.At(i)
				m := sel.Obj().Name()
				if len(sel.Index()) < 2 || !sel.Obj().Exported() || seen[m] {
					continue
				}
				seen[m] = true
				recv := name + recvArgs
				if _, ptr := t.(*types.Pointer); ptr {
					recv = "*" + recv
				}
				add("method (%s) %s%s", recv, m, signature(sel.Type().(*types.Signature), q))
			}
		}
	}
}

func typeParams(tp *types.TypeParamList, q types.Qualifier) string {
	if tp.Len() == 0 {
		return ""
	}
	var ps []string
	for i := 0; i < tp.Len(); i++ {
		p := tp.At(i)
		ps = append(ps, p.Obj().Name()+" "+types.TypeString(p.Constraint(), q))
	}
	return "[" + strings.Join(ps, ", ") + "]"
}

// signature writes a signature without parameter names.
func signature(sig *types.Signature, q types.Qualifier) string {
	var b strings.Builder
	b.WriteString("(")
	for i := 0; i < sig.Params().Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			b.WriteString("..." + types.TypeString(t.(*types.Slice).Elem(), q))
		} else {
			b.WriteString(types.TypeString(t, q))
		}
	}
	b.WriteString(")")
	switch n := sig.Results().Len(); n {
	case 0:
	case 1:
		b.WriteString(" " + types.TypeString(sig.Results().At(0).Type(), q))
	default:
		var rs []string
		for i := 0; i < n; i++ {
			rs = append(rs, types.TypeString(sig.Results().At(i).Type(), q))
		}
		b.WriteString(" (" + strings.Join(rs, ", ") + ")")
	}
	return b.String()
}
