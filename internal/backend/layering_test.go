// Package backend holds one directory per GPU API; this test keeps the C files of each
// layered: a file calls functions of the files below it only, so each can be read (and
// changed) knowing only what is beneath it.
package backend

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBackendFilesCallOneWay: in every backend directory, the graph of which C file
// calls a function another defines has no cycle.
func TestBackendFilesCallOneWay(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	checked := 0
	for _, ent := range entries {
		if !ent.IsDir() {
			continue
		}
		dir := ent.Name()
		g, err := callGraphOf(dir)
		require.NoError(t, err)
		if len(g.files) == 0 {
			continue
		}
		checked++
		for _, e := range g.edges() {
			t.Logf("%s: %s", dir, e)
		}
		cycle := g.cycle()
		require.Empty(t, cycle, "%s: its C files call each other in a circle:\n%s", dir, strings.Join(cycle, "\n"))
	}
	require.NotZero(t, checked, "no backend directory with C files found")
}

func TestCallGraphParsesC(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // edges, as edge.String writes them
	}{
		{
			name: "calls, table entries and macros count; prototypes, comments and strings do not",
			files: map[string]string{
				"top.c": `#include "x.h"
int low_a(int);
static const struct table t = {.a = low_a};
#define CALL_B() low_b()
int top(void)
{
	/* low_c() in a comment */ // low_c() again
	const char *s = "low_c()";
	return CALL_B() + mid(1);
}`,
				"mid.c": "int mid(int x) { return low_b() + x; }\n",
				"low.c": "int low_a(int x) { return x; }\nint low_b(void) { return 0; }\nint low_c(void) { return 1; }\n",
			},
			want: []string{"mid.c -> low.c: low_b", "top.c -> low.c: low_a, low_b", "top.c -> mid.c: mid"},
		},
		{
			name: "a static function is its file's own, even where another file defines the name",
			files: map[string]string{
				"a.c": "static int helper(void) { return 0; }\nint a(void) { return helper(); }\n",
				"b.c": "int helper(void) { return 1; }\n",
			},
			want: nil,
		},
		{
			name: "multi-line signatures and brace-initialised locals",
			files: map[string]string{
				"a.c": "int\nfirst(int x,\n      int y)\n{\n\tstruct p q = {0, {1}};\n\treturn second(x, y) + q.a;\n}\n",
				"b.c": "static inline int\nhelper(void) { return 2; }\nint second(int x, int y) { return x + y + helper(); }\n",
			},
			want: []string{"a.c -> b.c: second"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tc.files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
			}
			g, err := callGraphOf(dir)
			require.NoError(t, err)
			var got []string
			for _, e := range g.edges() {
				got = append(got, e.String())
			}
			require.Equal(t, tc.want, got)
			require.Empty(t, g.cycle())
		})
	}
}

func TestCallGraphFindsCycles(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"dev.c":   "int dev_open(void) { return queue_new(); }\nint fail(void) { return 1; }\n",
		"queue.c": "int queue_new(void) { return buf_make(); }\n",
		"mem.c":   "int buf_make(void) { return fail(); }\n",
		"leaf.c":  "int leaf(void) { return 0; }\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	g, err := callGraphOf(dir)
	require.NoError(t, err)
	require.Equal(t, []string{"dev.c -> queue.c: queue_new", "mem.c -> dev.c: fail", "queue.c -> mem.c: buf_make"},
		g.cycle())
}

// callGraph is which file of a directory refers to which function another defines.
type callGraph struct {
	files []string
	calls map[[2]string]map[string]bool // [caller file, callee file] → functions
}

type edge struct {
	from, to string
	funcs    []string
}

func (e edge) String() string {
	return fmt.Sprintf("%s -> %s: %s", e.from, e.to, strings.Join(e.funcs, ", "))
}

// edges returns the graph's edges, sorted.
func (g *callGraph) edges() []edge {
	var out []edge
	for k, fs := range g.calls {
		e := edge{from: k[0], to: k[1]}
		for f := range fs {
			e.funcs = append(e.funcs, f)
		}
		sort.Strings(e.funcs)
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].from != out[j].from {
			return out[i].from < out[j].from
		}
		return out[i].to < out[j].to
	})
	return out
}

// cycle returns the edges of one cycle of the file graph (each as edge.String writes
// it, the first file's edge first), or nil when there is none.
func (g *callGraph) cycle() []string {
	next := map[string][]edge{}
	for _, e := range g.edges() {
		next[e.from] = append(next[e.from], e)
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []edge
	var found []edge
	var visit func(f string) bool
	visit = func(f string) bool {
		state[f] = onPath
		for _, e := range next[f] {
			path = append(path, e)
			switch state[e.to] {
			case onPath:
				for i, p := range path {
					if p.from == e.to {
						found = append([]edge{}, path[i:]...)
						return true
					}
				}
			case unseen:
				if visit(e.to) {
					return true
				}
			}
			path = path[:len(path)-1]
		}
		state[f] = done
		return false
	}
	for _, f := range g.files {
		if state[f] == unseen && visit(f) {
			break
		}
	}
	if found == nil {
		return nil
	}
	out := make([]string, len(found))
	for i, e := range found {
		out[i] = e.String()
	}
	sort.Strings(out) // the cycle's edges, in an order that does not depend on where the search began
	return out
}

// callGraphOf reads the C files of dir. A file's functions are those it defines at top
// level; a static one is the file's own. A reference is any use of a function's name
// in a body, an initialiser or a macro (a call, or an entry of a table of pointers).
func callGraphOf(dir string) (*callGraph, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.c"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	g := &callGraph{calls: map[[2]string]map[string]bool{}}
	parsed := map[string]*cFile{}
	global := map[string]string{} // function → the file defining it
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		base := filepath.Base(name)
		f := parseC(string(src))
		parsed[base] = f
		g.files = append(g.files, base)
		for fn := range f.exported {
			if other, dup := global[fn]; dup {
				return nil, fmt.Errorf("%s: %s and %s both define %s", dir, other, base, fn)
			}
			global[fn] = base
		}
	}
	for _, base := range g.files {
		f := parsed[base]
		for ref := range f.refs {
			to, ok := global[ref]
			if !ok || to == base || f.local[ref] {
				continue
			}
			k := [2]string{base, to}
			if g.calls[k] == nil {
				g.calls[k] = map[string]bool{}
			}
			g.calls[k][ref] = true
		}
	}
	return g, nil
}

// cFile is what callGraphOf needs of one C file.
type cFile struct {
	exported map[string]bool // functions defined without static
	local    map[string]bool // functions defined static
	refs     map[string]bool // identifiers used in bodies, initialisers and macros
}

// parseC finds a C file's function definitions and the names it uses. It does not
// preprocess: a definition is an identifier at top level followed by a parenthesised
// list and a brace, which is how this project's C is written. Names a macro pastes
// together are not seen: backend.c fills its table's required entries that way
// (VKG_BACKEND_SET), which hides edges from backend.c only, the top file no other calls.
func parseC(src string) *cFile {
	f := &cFile{exported: map[string]bool{}, local: map[string]bool{}, refs: map[string]bool{}}
	code, macros := splitPreprocessor(stripCommentsAndLiterals(src))
	for _, tok := range tokens(macros) {
		if isIdent(tok) {
			f.refs[tok] = true
		}
	}
	toks := tokens(code)
	depth := 0
	declStatic := false // the top-level declaration being read says static
	inInit := false     // after a top-level =, up to its ;
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		switch {
		case tok == "{":
			depth++
		case tok == "}":
			depth--
			if depth == 0 {
				declStatic, inInit = false, false
			}
		case depth > 0:
			if isIdent(tok) {
				f.refs[tok] = true
			}
		case tok == ";":
			declStatic, inInit = false, false
		case tok == "=":
			inInit = true
		case tok == "static":
			declStatic = true
		case inInit && isIdent(tok):
			f.refs[tok] = true
		case isIdent(tok) && i+1 < len(toks) && toks[i+1] == "(":
			end := closingParen(toks, i+1)
			if end+1 < len(toks) && toks[end+1] == "{" {
				if declStatic {
					f.local[tok] = true
				} else {
					f.exported[tok] = true
				}
				// the parameter list declares, it does not use
				i = end
			}
		}
	}
	return f
}

// closingParen is the index of the ) matching the ( at open (the last token if none).
func closingParen(toks []string, open int) int {
	level := 0
	for j := open; j < len(toks); j++ {
		switch toks[j] {
		case "(":
			level++
		case ")":
			level--
			if level == 0 {
				return j
			}
		}
	}
	return len(toks) - 1
}

// stripCommentsAndLiterals blanks comments and the contents of string and character
// literals, keeping line breaks so that preprocessor lines stay lines.
func stripCommentsAndLiterals(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			b.WriteString(strings.Repeat("\n", strings.Count(src[i:i+2+end], "\n")) + " ")
			i += end + 3
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '"' || c == '\'':
			b.WriteByte(c)
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// splitPreprocessor separates preprocessor lines (with their continuations) from code.
func splitPreprocessor(src string) (code, macros string) {
	var c, m strings.Builder
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "#") {
			c.WriteString(lines[i] + "\n")
			continue
		}
		for ; i < len(lines); i++ {
			m.WriteString(strings.TrimSuffix(lines[i], "\\") + "\n")
			c.WriteString("\n")
			if !strings.HasSuffix(lines[i], "\\") {
				break
			}
		}
	}
	return c.String(), m.String()
}

// tokens splits C into identifiers (and numbers) and single punctuation characters.
func tokens(src string) []string {
	var out []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			out = append(out, src[i:j])
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			out = append(out, src[i:i+1])
			i++
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isIdent(tok string) bool {
	return tok != "" && isWordByte(tok[0]) && (tok[0] < '0' || tok[0] > '9')
}
