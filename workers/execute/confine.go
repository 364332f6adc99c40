package execute

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/resolve"
)

// ErrPathNotAllowed: a path argument resolves (after symlinks) outside the
// worker's path roots.
var ErrPathNotAllowed = errors.New("path not allowed")

// CodePathNotAllowed is the result code of ErrPathNotAllowed.
const CodePathNotAllowed = "path_not_allowed"

// DefaultPathRoots are the roots path arguments are confined to when the
// worker sets none: its working directory and /tmp (and $TMPDIR, where
// tools get their scratch directories, if that is elsewhere). A worker
// started in / (a service manager's default) does not get the whole file
// system that way: only an explicit --path-root / lifts the confinement.
func DefaultPathRoots() []string {
	var roots []string
	if wd, err := os.Getwd(); err == nil && realPath(wd) != "/" {
		roots = append(roots, wd)
	}
	roots = append(roots, "/tmp")
	if tmp := filepath.Clean(os.TempDir()); tmp != "/tmp" {
		roots = append(roots, tmp)
	}
	return roots
}

// WithPathRoots confines path arguments of local tools (subprocess and
// MCP servers started as a command) to the given directories, replacing
// DefaultPathRoots. "/" lifts the confinement.
func WithPathRoots(roots ...string) Option {
	return func(c *config) { c.roots, c.rootsSet = roots, true }
}

// pathRoots are the roots resolved once: absolute, after symlinks (a root
// that does not exist is kept as written, cleaned).
type pathRoots []string

func newPathRoots(roots []string) (pathRoots, error) {
	var out pathRoots
	for _, r := range roots {
		if r == "" {
			continue
		}
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("path root %q: %w", r, err)
		}
		real := realPath(abs)
		if !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out, nil
}

func (r pathRoots) String() string { return strings.Join(r, ", ") }

// ResolvePathRoots are roots as the executor checks paths against them:
// absolute, after symlinks, without repeats. The start-up log shows them
// so, the way a refusal names them.
func ResolvePathRoots(roots []string) ([]string, error) { return newPathRoots(roots) }

// contains reports whether the resolved path p is a root or under one.
func (r pathRoots) contains(p string) bool {
	for _, root := range r {
		if root == "/" || p == root || strings.HasPrefix(p, root+"/") {
			return true
		}
	}
	return false
}

// realPath resolves p (absolute) the way the kernel will when the tool
// opens it: component by component, following each symlink, with ".."
// taken from the real parent. The part that does not exist yet (a file a
// tool will create) is appended as written.
func realPath(p string) string {
	cur := "/"
	parts := strings.Split(p, "/")
	for i, part := range parts {
		switch part {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, part)
		real, err := filepath.EvalSymlinks(next)
		if err != nil {
			// Missing (or unreadable): taken as written. The walk goes
			// on, since a ".." further on climbs back to directories that
			// exist, and a tool that makes the missing one first (mkdir
			// -p, an output directory) then follows their symlinks.
			real = next
		}
		if real == procDir || strings.HasPrefix(real, procDir+"/") {
			// /proc/self (and /dev/fd, which leads there) is the process
			// that opens the path: resolved here it would be the
			// worker's cwd, root and files, not the tool's. Kept under
			// /proc, as written, so only a root covering /proc allows it.
			return strings.TrimSuffix(real+"/"+strings.Join(parts[i+1:], "/"), "/")
		}
		cur = real
	}
	return cur
}

// procDir is where each process sees itself.
const procDir = "/proc"

// pathParams lists the parameters of a schema that take paths: those with
// "format": "path" or "x-path": true, and those whose name says so
// (resolve.IsPathName: "path", "file", "output_dir", …) unless they set
// "x-path": false. Strings and arrays of strings are checked, and so are
// the properties of nested objects and of arrays of objects (an MCP
// server's arguments are often shaped so): each is keyed by its dotted
// name ("options.output_file", "edits[].path") and maps to its steps.
func pathParams(params json.RawMessage) map[string][]string {
	if len(params) == 0 {
		return nil
	}
	var doc propSchema
	if json.Unmarshal(params, &doc) != nil {
		return nil
	}
	out := map[string][]string{}
	collectPaths(doc.Properties, nil, out, 0)
	return out
}

// propSchema is what path detection reads of a JSON Schema.
type propSchema struct {
	Format     string                `json:"format"`
	XPath      *bool                 `json:"x-path"`
	Properties map[string]propSchema `json:"properties"`
	Items      *propSchema           `json:"items"`
}

// maxPathDepth bounds the nesting path detection follows.
const maxPathDepth = 8

func collectPaths(props map[string]propSchema, steps []string, out map[string][]string, depth int) {
	if depth >= maxPathDepth {
		return
	}
	for name, p := range props {
		at := append(slices.Clone(steps), name)
		switch {
		case p.XPath != nil:
			if *p.XPath {
				out[strings.Join(at, ".")] = at
			}
			continue // opted out, nested parts included
		case p.Format == "path", resolve.IsPathName(name):
			out[strings.Join(at, ".")] = at
		}
		collectPaths(p.Properties, at, out, depth+1)
		if p.Items != nil {
			items := append(slices.Clone(steps), name+"[]")
			collectPaths(p.Items.Properties, items, out, depth+1)
		}
	}
}

// stringsAt are the strings at steps in v: a step "name[]" goes into
// every element of the array name. It only reads (withStringsAt copies
// what it changes).
func stringsAt(v any, steps []string) []string {
	if len(steps) == 0 {
		return stringsOf(v)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if name, each := strings.CutSuffix(steps[0], "[]"); each {
		arr, _ := m[name].([]any)
		var out []string
		for _, e := range arr {
			out = append(out, stringsAt(e, steps[1:])...)
		}
		return out
	}
	return stringsAt(m[steps[0]], steps[1:])
}

func stringsOf(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return x
	}
	return nil
}

// localTool reports whether x runs on this machine with the worker's file
// system: a subprocess, or an MCP server started as a command.
func localTool(x *schemas.Executor) bool {
	return x != nil && (x.Kind == schemas.ExecSubprocess || x.Kind == schemas.ExecMCP && len(x.Command) > 0)
}

// pathBase is where the relative path arguments of a local tool start:
// its executor's dir, else the worker's working directory, the directory
// the default path root and relative --path-roots are taken from. A
// subprocess without a dir runs in a scratch directory of its own, which
// relative paths used to start from: "./docs" passed the check (the
// scratch directory is under /tmp) and then failed to be found.
func (e *Executor) pathBase(x *schemas.Executor) string {
	if filepath.IsAbs(x.Dir) {
		return x.Dir
	}
	return e.wd
}

// localPath is where the path argument v of a local tool points: v when
// absolute, under home when it starts with "~" as a shell expands it
// ("~", "~/notes"; not "~bob"), else under base.
func localPath(base, home, v string) string {
	if rest, ok := strings.CutPrefix(v, "~"); ok && home != "" && (rest == "" || rest[0] == '/') {
		return filepath.Join(home, rest)
	}
	if filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(base, v)
}

// namesNoFile reports whether a path argument's value names no file to
// resolve: empty, "-" (standard input to most commands) or a URL.
func namesNoFile(v string) bool {
	return v == "" || v == "-" || strings.Contains(v, "://")
}

// confinePaths refuses a call of a local tool whose path arguments leave
// the roots, relative ones taken from pathBase (localPaths gives the tool
// them so).
func (e *Executor) confinePaths(m schemas.Manifest, params map[string]any, info *paramInfo) error {
	if !localTool(m.Executor) || slices.Contains(e.roots, "/") {
		return nil
	}
	names := info.paths
	if len(names) == 0 {
		return nil
	}
	base := e.pathBase(m.Executor)
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, name := range keys {
		for _, v := range stringsAt(params, names[name]) {
			if v == "" || v == "-" {
				continue
			}
			if real := realPath(localPath(base, e.home, v)); !e.roots.contains(real) {
				e.cfg.log.Info("tool refused: path outside the roots", "tool", m.ID, "parameter", name, "resolved", real)
				shown := ""
				if real != v {
					shown = " (resolves to " + real + ")"
				}
				if !filepath.IsAbs(v) && !strings.HasPrefix(v, "~") {
					shown = fmt.Sprintf(" (resolves to %s: relative paths start at %s)", real, base)
				}
				return badCall(ErrPathNotAllowed, "tool %s: %s=%s%s is outside the allowed path roots (%s); paths are confined after following symlinks; allow another directory with --path-root DIR",
					m.ID, name, v, shown, e.roots)
			}
		}
	}
	return nil
}

// localPaths is params with the relative path arguments of a local tool
// made absolute against pathBase, as confinePaths checked them: the tool
// reads what was checked whatever directory it runs in. params itself is
// left as it is (the result shows the arguments as given). A parameter
// whose name looks like a path's but takes something else says "x-path":
// false in its schema.
func (e *Executor) localPaths(m schemas.Manifest, params map[string]any, info *paramInfo) map[string]any {
	if !localTool(m.Executor) || len(info.paths) == 0 {
		return params
	}
	base := e.pathBase(m.Executor)
	abs := func(v string) string {
		if namesNoFile(v) {
			return v
		}
		return localPath(base, e.home, v)
	}
	var out any = params
	for _, steps := range info.paths {
		out = withStringsAt(out, steps, abs)
	}
	return out.(map[string]any)
}

// withStringsAt is v with f applied to the strings at steps (those
// stringsAt reads), the maps and arrays on the way copied, v untouched.
func withStringsAt(v any, steps []string, f func(string) string) any {
	if len(steps) == 0 {
		switch x := v.(type) {
		case string:
			return f(x)
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				if s, ok := e.(string); ok {
					out[i] = f(s)
				} else {
					out[i] = e
				}
			}
			return out
		case []string:
			out := make([]string, len(x))
			for i, s := range x {
				out[i] = f(s)
			}
			return out
		}
		return v
	}
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	name, each := strings.CutSuffix(steps[0], "[]")
	cur, present := m[name]
	if !present {
		return v
	}
	var next any
	if each {
		arr, ok := cur.([]any)
		if !ok {
			return v
		}
		items := make([]any, len(arr))
		for i, e := range arr {
			items[i] = withStringsAt(e, steps[1:], f)
		}
		next = items
	} else {
		next = withStringsAt(cur, steps[1:], f)
	}
	out := maps.Clone(m)
	out[name] = next
	return out
}
