package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// vkfft's lease_methods.go is what leasegen writes: a plan method added or changed
// without regenerating would leave leases behind their plans.
func TestLeaseMethodsAreCurrent(t *testing.T) {
	require.NoError(t, run("../..", true))
}

func TestOpName(t *testing.T) {
	for _, tc := range []struct{ method, want string }{
		{"Forward", "forward"},
		{"ForwardAsync", "forward async"},
		{"ForwardInPlaceBuffer", "forward in place buffer"},
		{"ComplexLen", "complex len"},
		{"ForwardR2C", "forward r2 c"},
		{"X", "x"},
	} {
		require.Equal(t, tc.want, opName(tc.method), tc.method)
	}
}

func TestZeroValue(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	other := types.NewPackage("example.com/q", "q")
	named := func(p *types.Package, name string, u types.Type) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, p, name, nil), u, nil)
	}
	imports := map[string]string{}
	qual := qualifier(pkg, imports)
	for _, tc := range []struct {
		name string
		typ  types.Type
		want string
	}{
		{"int", types.Typ[types.Int], "0"},
		{"float", types.Typ[types.Float64], "0"},
		{"named int", named(pkg, "Backend", types.Typ[types.Int]), "0"},
		{"bool", types.Typ[types.Bool], "false"},
		{"string", types.Typ[types.String], `""`},
		{"unsafe pointer", types.Typ[types.UnsafePointer], "nil"},
		{"pointer", types.NewPointer(types.Typ[types.Int]), "nil"},
		{"slice", types.NewSlice(types.Typ[types.Byte]), "nil"},
		{"error", types.Universe.Lookup("error").Type(), "nil"},
		{"struct", named(pkg, "Config", types.NewStruct(nil, nil)), "Config{}"},
		{"other package's struct", named(other, "Duration", types.NewStruct(nil, nil)), "q.Duration{}"},
		{"array", types.NewArray(types.Typ[types.Int], 2), "[2]int{}"},
		{"type parameter", types.NewTypeParam(types.NewTypeName(token.NoPos, pkg, "T", nil), types.NewInterfaceType(nil, nil)), "*new(T)"},
	} {
		require.Equal(t, tc.want, zeroValue(tc.typ, qual), tc.name)
	}
	require.Equal(t, map[string]string{"example.com/q": "q"}, imports, "the import the other package's type needs")
}

func TestZerosPhrase(t *testing.T) {
	require.Equal(t, "Config{}", zerosPhrase([]string{"Config{}"}))
	require.Equal(t, "zeros", zerosPhrase([]string{"0", "0"}))
	require.Equal(t, "zero values", zerosPhrase([]string{"0", "nil"}))
}

// A plan method in a build-tagged file is refused by name, and methods of other types in
// such files are not.
func TestRefuseTaggedMethods(t *testing.T) {
	wrapped := map[string]bool{"Plan": true, "BytePlan": true}
	for _, tc := range []struct {
		name, src, wantErr string
	}{
		{"generic plan method", "func (p *Plan[T]) ForwardCUDA() error { return nil }", "Plan.ForwardCUDA"},
		{"plain plan method", "func (p *BytePlan) Handle() uintptr { return 0 }", "BytePlan.Handle"},
		{"another type's method", "func (d *Device) Handle() uintptr { return 0 }", ""},
		{"unexported plan method", "func (p *Plan[T]) handle() uintptr { return 0 }", ""},
		{"function", "func Handle() uintptr { return 0 }", ""},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "tagged.go", "//go:build cuda\n\npackage vkfft\n\n"+tc.src+"\n", 0)
		require.NoError(t, err, tc.name)
		err = refuseTaggedMethods(fset, []*ast.File{f}, wrapped)
		if tc.wantErr == "" {
			require.NoError(t, err, tc.name)
			continue
		}
		require.ErrorContains(t, err, tc.wantErr, tc.name)
		require.ErrorContains(t, err, "tagged.go:5", tc.name)
	}
}

func TestComment(t *testing.T) {
	long := strings.Repeat("word ", 40)
	got := comment(long)
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		require.True(t, strings.HasPrefix(line, "// "), line)
		require.LessOrEqual(t, len(line), commentWidth, line)
	}
	require.Equal(t, strings.Fields(long), strings.Fields(strings.ReplaceAll(got, "//", "")))
	require.Equal(t, "// short.\n", comment("short."))
}
