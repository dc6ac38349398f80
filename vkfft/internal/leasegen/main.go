// Command leasegen writes package vkfft's lease_methods.go: for every lease type (a struct
// embedding lease, with its plan in field p), one method per exported method of the
// plan's type that checks the lease, then calls the plan, so that a leased plan is used
// exactly like an owned one. Close is left out (Release does it), and so is any method a
// lease type declares by hand. Run by go generate in vkfft; with -check it fails when
// lease_methods.go is not what it would write.
//
// It type-checks vkfft's files (all but its own output, so a stale or broken output never
// stops it) against export data of vkfft's imports, built without cgo: the method sets
// are the same with or without the C core, and no C needs compiling.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// outName is the file leasegen writes, in the package's directory.
const outName = "lease_methods.go"

// skipped are the plan methods a lease does not forward: Release replaces Close.
var skipped = map[string]bool{"Close": true}

func main() {
	check := flag.Bool("check", false, "fail if "+outName+" is out of date instead of writing it")
	dir := flag.String("dir", ".", "package vkfft's directory")
	flag.Parse()
	if err := run(*dir, *check); err != nil {
		fmt.Fprintln(os.Stderr, "leasegen:", err)
		os.Exit(1)
	}
}

func run(dir string, check bool) error {
	out, err := generate(dir)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, outName)
	if check {
		have, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if !bytes.Equal(have, out) {
			return fmt.Errorf("%s is out of date: run go generate ./vkfft", path)
		}
		return nil
	}
	return os.WriteFile(path, out, 0o644)
}

// listing is what go list says of a package.
type listing struct {
	Dir            string
	ImportPath     string
	GoFiles        []string
	CgoFiles       []string
	IgnoredGoFiles []string
	Imports        []string
}

// generate returns lease_methods.go for the package in dir.
func generate(dir string) ([]byte, error) {
	var l listing
	raw, err := goCmd(dir, "list", "-json=Dir,ImportPath,GoFiles,CgoFiles,IgnoredGoFiles,Imports", ".")
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	if len(l.CgoFiles) > 0 {
		return nil, fmt.Errorf("%s imports \"C\" in %v; leasegen reads a pure Go package", l.ImportPath, l.CgoFiles)
	}
	fset := token.NewFileSet()
	files, err := parseFiles(fset, l.Dir, l.GoFiles)
	if err != nil {
		return nil, err
	}
	pkg, err := typeCheck(fset, dir, l, files)
	if err != nil {
		return nil, err
	}
	leases := leaseTypes(pkg)
	if len(leases) == 0 {
		return nil, fmt.Errorf("%s has no lease types (structs embedding lease with their plan in field p)", l.ImportPath)
	}
	wrapped := map[string]bool{}
	for _, lt := range leases {
		wrapped[lt.plan.Obj().Name()] = true
	}
	tagged, err := parseFiles(fset, l.Dir, l.IgnoredGoFiles)
	if err != nil {
		return nil, err
	}
	if err := refuseTaggedMethods(fset, tagged, wrapped); err != nil {
		return nil, err
	}
	return render(pkg, leases)
}

// goCmd runs the go command in dir, without cgo, and returns its standard output.
func goCmd(dir string, args ...string) ([]byte, error) {
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = "go"
		if _, err := exec.LookPath(gobin); err != nil { // make's GO need not be on PATH
			gobin = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
	}
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// parseFiles parses names in dir, leaving out leasegen's own output.
func parseFiles(fset *token.FileSet, dir string, names []string) ([]*ast.File, error) {
	var files []*ast.File
	for _, name := range names {
		if name == outName {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// typeCheck type-checks files as package l, importing from the export data go list builds.
func typeCheck(fset *token.FileSet, dir string, l listing, files []*ast.File) (*types.Package, error) {
	exports := map[string]string{}
	if len(l.Imports) > 0 {
		args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}, l.Imports...)
		raw, err := goCmd(dir, args...)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				exports[k] = v
			}
		}
	}
	lookup := func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	pkg, err := conf.Check(l.ImportPath, fset, files, nil)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s without %s: %w", l.ImportPath, outName, err)
	}
	return pkg, nil
}

// leaseType is one lease type and the plan type it wraps, as its field p names it
// (instantiated with the lease's own type parameters).
type leaseType struct {
	lease *types.Named
	field *types.Var   // p
	plan  *types.Named // the origin of p's type, for doc links
}

// leaseTypes returns pkg's lease types, by name.
func leaseTypes(pkg *types.Package) []leaseType {
	var out []leaseType
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || !tn.Exported() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		st, ok := named.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		var embedsLease bool
		var field *types.Var
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if f.Embedded() && f.Name() == "lease" {
				embedsLease = true
			}
			if f.Name() == "p" {
				field = f
			}
		}
		if !embedsLease || field == nil {
			continue
		}
		ptr, ok := field.Type().(*types.Pointer)
		if !ok {
			continue
		}
		plan, ok := ptr.Elem().(*types.Named)
		if !ok {
			continue
		}
		out = append(out, leaseType{lease: named, field: field, plan: plan.Origin()})
	}
	return out
}

// refuseTaggedMethods fails when a build-tagged file (one go list leaves out of the
// default build) declares a method of a wrapped plan type: its lease method would need
// the same constraint, which this generator does not write.
func refuseTaggedMethods(fset *token.FileSet, files []*ast.File, wrapped map[string]bool) error {
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || !fd.Name.IsExported() {
				continue
			}
			if base := receiverBase(fd.Recv.List[0].Type); wrapped[base] {
				return fmt.Errorf("%s: %s.%s is in a build-tagged file: leases forward untagged methods only "+
					"(move it to an untagged file, or declare the lease's method by hand under the same tag)",
					fset.Position(fd.Pos()), base, fd.Name.Name)
			}
		}
	}
	return nil
}

// receiverBase is the type name of a receiver expression: P in *P[T, U].
func receiverBase(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// render writes the file: for each lease type, by name, its forwarding methods by name.
func render(pkg *types.Package, leases []leaseType) ([]byte, error) {
	imports := map[string]string{}
	qual := qualifier(pkg, imports)
	var body bytes.Buffer
	for _, lt := range leases {
		own := types.NewMethodSet(types.NewPointer(lt.lease))
		ms := types.NewMethodSet(lt.field.Type())
		for i := 0; i < ms.Len(); i++ {
			fn, ok := ms.At(i).Obj().(*types.Func)
			if !ok || !fn.Exported() || skipped[fn.Name()] || own.Lookup(pkg, fn.Name()) != nil {
				continue
			}
			m, err := forwarder(lt, fn, qual)
			if err != nil {
				return nil, err
			}
			body.WriteString(m)
			body.WriteString("\n")
		}
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by leasegen from the plan types' method sets; DO NOT EDIT.\n\n")
	b.WriteString("package " + pkg.Name() + "\n\n")
	if len(imports) > 0 {
		paths := make([]string, 0, len(imports))
		for p := range imports {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		b.WriteString("import (\n")
		for _, p := range paths {
			b.WriteString("\t" + strconv.Quote(p) + "\n")
		}
		b.WriteString(")\n\n")
	}
	b.WriteString(`// Each exported method of a leased plan's type, on its lease (Close excepted: Release
// does it), so that a leased plan is used exactly like an owned one: each checks the lease,
// then calls the plan. Value-returning methods return zero values once the lease is
// released. A method declared by hand on a lease type is left to it. After adding or
// changing a plan method, run go generate ./vkfft.

`)
	b.Write(body.Bytes())
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated file: %w\n%s", err, b.Bytes())
	}
	return src, nil
}

// qualifier names pkg's types bare and other packages' by package name, recording those
// in imports (path to name) for the file's import block.
func qualifier(pkg *types.Package, imports map[string]string) types.Qualifier {
	return func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		imports[p.Path()] = p.Name()
		return p.Name()
	}
}

// forwarder renders the lease method that forwards to fn.
func forwarder(lt leaseType, fn *types.Func, qual types.Qualifier) (string, error) {
	sig := fn.Type().(*types.Signature)
	name := fn.Name()
	where := lt.lease.Obj().Name() + "." + name

	params := sig.Params()
	argNames := make([]string, params.Len())
	for i := range argNames {
		n := params.At(i).Name()
		if n == "" || n == "_" {
			n = fmt.Sprintf("a%d", i)
		}
		if n == "l" {
			return "", fmt.Errorf("%s: a parameter is named l, the lease method's receiver", where)
		}
		argNames[i] = n
	}
	paramList := fieldList(params, argNames, sig.Variadic(), qual)

	results := sig.Results()
	var resNames []string
	for i := 0; i < results.Len(); i++ {
		if n := results.At(i).Name(); n != "" && n != "_" {
			resNames = append(resNames, n)
		}
	}
	if len(resNames) != results.Len() {
		resNames = nil // some unnamed: leave all unnamed
	}
	resultList := fieldList(results, resNames, false, qual)
	if results.Len() > 1 || len(resNames) > 0 {
		resultList = "(" + resultList + ")"
	}

	n := results.Len()
	returnsErr := n > 0 && types.Identical(results.At(n-1).Type(), types.Universe.Lookup("error").Type())
	var zeros []string
	for i := 0; i < n; i++ {
		if returnsErr && i == n-1 {
			break
		}
		zeros = append(zeros, zeroValue(results.At(i).Type(), qual))
	}

	call := "l." + lt.field.Name() + "." + name + "(" + strings.Join(argNames, ", ")
	if sig.Variadic() {
		call += "..."
	}
	call += ")"

	planName := lt.plan.Obj().Name()
	op := opName(name)
	var doc, guard string
	switch {
	case returnsErr:
		released := "an error wrapping ErrClosed"
		if len(zeros) > 0 {
			released = zerosPhrase(zeros) + " and " + released
		}
		doc = fmt.Sprintf("%s is [%s.%s] on the leased plan; %s once released", name, planName, name, released)
		ret := append(append([]string{}, zeros...), "err")
		guard = fmt.Sprintf("if err := l.check(%q); err != nil {\n\treturn %s\n}\nreturn %s", op, strings.Join(ret, ", "), call)
	case n > 0:
		doc = fmt.Sprintf("%s is [%s.%s] of the leased plan; %s once released", name, planName, name, zerosPhrase(zeros))
		guard = fmt.Sprintf("if l.check(%q) != nil {\n\treturn %s\n}\nreturn %s", op, strings.Join(zeros, ", "), call)
	default:
		doc = fmt.Sprintf("%s is [%s.%s] on the leased plan; it does nothing once released", name, planName, name)
		guard = fmt.Sprintf("if l.check(%q) != nil {\n\treturn\n}\n%s", op, call)
	}

	var tparams []string
	for i := 0; i < lt.lease.TypeParams().Len(); i++ {
		tparams = append(tparams, lt.lease.TypeParams().At(i).Obj().Name())
	}
	recv := lt.lease.Obj().Name()
	if len(tparams) > 0 {
		recv += "[" + strings.Join(tparams, ", ") + "]"
	}
	return fmt.Sprintf("%sfunc (l %s) %s(%s) %s {\n%s\n}\n", comment(doc+"."), recv, name, paramList, resultList, guard), nil
}

// commentWidth is where comment() wraps, the width the package's hand-written comments keep.
const commentWidth = 90

// comment renders text as // lines of at most commentWidth columns (a longer word stays whole).
func comment(text string) string {
	var b strings.Builder
	line := "//"
	for _, w := range strings.Fields(text) {
		if len(line) > 2 && len(line)+1+len(w) > commentWidth {
			b.WriteString(line + "\n")
			line = "//"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
	return b.String()
}

// fieldList renders a parameter or result list, merging neighbours of one type
// ("dst, src []T") as gofmt's authors would write it.
func fieldList(t *types.Tuple, names []string, variadic bool, qual types.Qualifier) string {
	typeOf := func(i int) string {
		if variadic && i == t.Len()-1 {
			return "..." + types.TypeString(t.At(i).Type().(*types.Slice).Elem(), qual)
		}
		return types.TypeString(t.At(i).Type(), qual)
	}
	var parts []string
	for i := 0; i < t.Len(); i++ {
		ty := typeOf(i)
		if names == nil {
			parts = append(parts, ty)
			continue
		}
		if i+1 < t.Len() && typeOf(i+1) == ty {
			parts = append(parts, names[i])
			continue
		}
		parts = append(parts, names[i]+" "+ty)
	}
	return strings.Join(parts, ", ")
}

// zeroValue is the expression of t's zero value.
func zeroValue(t types.Type, qual types.Qualifier) string {
	if _, ok := t.(*types.TypeParam); ok {
		return "*new(" + types.TypeString(t, qual) + ")"
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Kind() == types.UnsafePointer:
			return "nil"
		default:
			return "0"
		}
	case *types.Struct, *types.Array:
		return types.TypeString(t, qual) + "{}"
	default: // pointers, slices, maps, channels, functions, interfaces
		return "nil"
	}
}

// zerosPhrase says in the doc comment what a released lease returns.
func zerosPhrase(zeros []string) string {
	if len(zeros) == 1 {
		return zeros[0]
	}
	for _, z := range zeros {
		if z != "0" {
			return "zero values"
		}
	}
	return "zeros"
}

// opName is the operation an error names: the method's words, lower case
// ("ForwardAsync" → "forward async"), as the plans' own errors name theirs.
func opName(method string) string {
	var words []string
	start := 0
	rs := []rune(method)
	for i := 1; i < len(rs); i++ {
		if unicode.IsUpper(rs[i]) && !unicode.IsUpper(rs[i-1]) {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	words = append(words, string(rs[start:]))
	return strings.ToLower(strings.Join(words, " "))
}
