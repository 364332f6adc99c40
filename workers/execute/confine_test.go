package execute

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestRealPath(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "etc-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "rel-link")); err != nil {
		t.Fatal(err)
	}
	// As many ".." as the temporary directory is deep reach the root,
	// wherever TMPDIR is.
	toRoot := strings.Repeat("/..", strings.Count(dir, "/"))
	for in, want := range map[string]string{
		dir + "/sub/file":            dir + "/sub/file",
		dir + "/missing/a/b":         dir + "/missing/a/b",
		dir + "/etc-link/shadow":     "/etc/shadow",
		dir + "/rel-link/x":          dir + "/sub/x",
		dir + "/sub/../sub/./x":      dir + "/sub/x",
		dir + "/etc-link/../passwd":  "/passwd", // .. is taken from the link's target, as the kernel does
		dir + toRoot + "/etc/shadow": "/etc/shadow",
		// A tool that makes the missing directory first (mkdir -p, an
		// output_dir) reaches the link's target through "..".
		dir + "/missing/../etc-link/shadow":      "/etc/shadow",
		dir + "/missing/a/../../etc-link/shadow": "/etc/shadow",
		// /proc/self is the tool's process, not the worker's: its cwd,
		// root and fds are not the worker's, so nothing under /proc
		// resolves to the worker's directories.
		"/proc/self/cwd/x":                  "/proc/self/cwd/x",
		"/proc/self/cwd/../../../tmp/x":     "/proc/self/cwd/../../../tmp/x",
		"/tmp/../proc/thread-self/root/etc": "/proc/thread-self/root/etc",
	} {
		if got := realPath(in); got != want {
			t.Errorf("realPath(%s) = %s, want %s", in, got, want)
		}
	}
	if got := realPath("/dev/fd/3"); !strings.HasPrefix(got, "/proc/") {
		t.Errorf("realPath(/dev/fd/3) = %s, want it under /proc", got)
	}
}

func TestPathParams(t *testing.T) {
	got := pathParams([]byte(`{"type":"object","properties":{
		"path":{"type":"string"}, "output_dir":{"type":"string"}, "inputFile":{"type":"string"},
		"where":{"type":"string","format":"path"}, "file_id":{"type":"string","x-path":false},
		"anything":{"type":"string","x-path":true}, "text":{"type":"string"}, "lines":{"type":"integer"},
		"options":{"type":"object","properties":{"output_file":{"type":"string"},"mode":{"type":"string"}}},
		"edits":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"},"text":{"type":"string"}}}},
		"opaque":{"type":"object","x-path":false,"properties":{"file":{"type":"string"}}}}}`))
	for _, name := range []string{"path", "output_dir", "inputFile", "where", "anything", "options.output_file", "edits[].path"} {
		if got[name] == nil {
			t.Errorf("%s is not a path parameter: %v", name, got)
		}
	}
	for _, name := range []string{"file_id", "text", "lines", "options", "options.mode", "edits", "edits[].text", "opaque", "opaque.file"} {
		if got[name] != nil {
			t.Errorf("%s is a path parameter", name)
		}
	}
}

// Path arguments of local tools stay inside the roots after symlinks;
// every refusal names the allowed roots and the flag, and nothing runs.
func TestConfinePaths(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	inside := filepath.Join(root, "data.txt")
	if err := os.WriteFile(inside, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(inside, filepath.Join(root, "alias.txt")); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(root, "ran")
	pathSchema := `{"type":"object","required":["path"],"properties":{"path":{"type":"string"}}}`
	count := tool("files/count", pathSchema, "/bin/sh", "-c", `echo ran >> `+marker+`; wc -l < "$0"`, "{path}")
	many := tool("files/many", `{"type":"object","properties":{"files":{"type":"array","items":{"type":"string"}}}}`, "echo", "{files}")
	nested := tool("files/nested", `{"type":"object","properties":{"options":{"type":"object","properties":{"output_file":{"type":"string"}}},
		"edits":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"}}}}}}`, "echo", "{options}")
	optOut := tool("files/id", `{"type":"object","properties":{"file":{"type":"string","x-path":false}}}`, "echo", "{file}")
	web := schemas.Manifest{ID: "web/get", Description: "remote", Parameters: []byte(pathSchema),
		Executor: &schemas.Executor{Kind: schemas.ExecHTTP, URL: "http://127.0.0.1:1/{path}"}}
	inDir := tool("files/in_dir", pathSchema, "wc", "-l", "{path}")
	inDir.Executor.Dir = root
	tools := []schemas.Manifest{count, many, nested, optOut, web, inDir}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	t.Setenv("HOME", home) // what a path's leading ~ stands for

	tests := []struct {
		name  string
		roots []string
		tool  string
		args  map[string]any
		msg   string // "" when it runs
	}{
		{"inside a root", []string{root}, "files/count", map[string]any{"path": inside}, ""},
		{"symlink inside the root", []string{root}, "files/count", map[string]any{"path": filepath.Join(root, "alias.txt")}, ""},
		{"/etc/shadow", []string{root}, "files/count", map[string]any{"path": "/etc/shadow"},
			"path=/etc/shadow is outside the allowed path roots (" + root + "); paths are confined after following symlinks; allow another directory with --path-root DIR"},
		{"/proc/self/environ", []string{root, "/tmp"}, "files/count", map[string]any{"path": "/proc/self/environ"}, "is outside the allowed path roots (" + root + ", /tmp)"},
		{"symlink escape", []string{root}, "files/count", map[string]any{"path": filepath.Join(root, "escape", "shadow")},
			"path=" + filepath.Join(root, "escape", "shadow") + " (resolves to /etc/shadow) is outside"},
		// Relative paths start at the working directory, for the check and
		// the run alike (the check took them from a scratch directory under
		// /tmp, which passed, and the tool then found nothing there).
		{"relative inside the working directory", []string{wd, "/tmp"}, "files/count", map[string]any{"path": "./confine_test.go"}, ""},
		{"relative, bare", []string{wd, "/tmp"}, "files/count", map[string]any{"path": "confine_test.go"}, ""},
		{"../ escape from the working directory", []string{wd, "/tmp"}, "files/count", map[string]any{"path": "../../../../../../etc/passwd"},
			"path=../../../../../../etc/passwd (resolves to /etc/passwd: relative paths start at " + wd + ")"},
		{"relative outside the roots", []string{os.TempDir()}, "files/count", map[string]any{"path": "notes.txt"},
			"(resolves to " + filepath.Join(wd, "notes.txt") + ": relative paths start at " + wd + ")"},
		{"relative to the executor's dir", []string{root}, "files/in_dir", map[string]any{"path": "data.txt"}, ""},
		{"~ is the home, checked as such", []string{root}, "files/count", map[string]any{"path": "~/notes.txt"},
			"path=~/notes.txt (resolves to " + filepath.Join(home, "notes.txt") + ") is outside"},
		{"root / lifts it", []string{"/"}, "files/count", map[string]any{"path": "/etc/hostname"}, ""},
		{"array elements", []string{root}, "files/many", map[string]any{"files": []any{inside, "/etc/passwd"}}, "files=/etc/passwd is outside"},
		{"a nested object's path", []string{root}, "files/nested", map[string]any{"options": map[string]any{"output_file": "/etc/cron.d/x"}}, "options.output_file=/etc/cron.d/x is outside"},
		{"a path in an array of objects", []string{root}, "files/nested", map[string]any{"edits": []any{map[string]any{"path": inside}, map[string]any{"path": "/etc/passwd"}}}, "edits[].path=/etc/passwd is outside"},
		{"nested paths inside the root", []string{root}, "files/nested", map[string]any{"options": map[string]any{"output_file": inside}, "edits": []any{map[string]any{"path": inside}}}, ""},
		{"x-path false opts out", []string{root}, "files/id", map[string]any{"file": "/etc/passwd"}, ""},
		{"remote tools are not confined", []string{root}, "web/get", map[string]any{"path": "/etc/passwd"}, "connection refused"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(marker)
			e := newExecutor(t, tools, WithPathRoots(tc.roots...), WithGrants(ClassNetwork), WithRetryBudget(0))
			_, err := run(t, e, call(tc.tool, tc.args))
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.msg)
			}
			if errors.Is(err, ErrPathNotAllowed) {
				if errorCode(err) != CodePathNotAllowed {
					t.Errorf("code %s", errorCode(err))
				}
				if _, statErr := os.Stat(marker); statErr == nil {
					t.Fatal("a refused tool ran")
				}
			}
		})
	}
}

func TestDefaultPathRoots(t *testing.T) {
	wd, _ := os.Getwd()
	got := DefaultPathRoots()
	if len(got) < 2 || got[0] != wd || got[1] != "/tmp" {
		t.Fatalf("DefaultPathRoots() = %q, want the working directory and /tmp first", got)
	}
}

// A worker started in / keeps /tmp only: the working directory default
// must not lift the confinement.
func TestDefaultPathRootsFromSlash(t *testing.T) {
	t.Chdir("/")
	if got := DefaultPathRoots(); len(got) == 0 || got[0] != "/tmp" {
		t.Fatalf("DefaultPathRoots() in / = %q, want /tmp first and no /", got)
	}
}

// A local tool gets its relative path arguments absolute, from where
// confinePaths took them; nested ones too. The arguments the result shows
// are left as given.
func TestLocalPaths(t *testing.T) {
	e := newExecutor(t, nil)
	params := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"files":{"type":"array","items":{"type":"string"}},
		"options":{"type":"object","properties":{"output_file":{"type":"string"}}},
		"edits":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"}}}},
		"file_id":{"type":"string","x-path":false},"text":{"type":"string"}}}`)
	scratch := tool("t/scratch", string(params), "true")
	inDir := tool("t/in_dir", string(params), "true")
	inDir.Executor.Dir = "/srv/tools"
	web := schemas.Manifest{ID: "t/web", Parameters: params, Executor: &schemas.Executor{Kind: schemas.ExecHTTP, URL: "http://127.0.0.1:1/"}}
	tests := []struct {
		name string
		m    schemas.Manifest
		in   map[string]any
		want map[string]any
	}{
		{"from the working directory", scratch,
			map[string]any{"path": "./docs", "files": []any{"a.txt", "/abs/b.txt", "-"}, "text": "plain words", "file_id": "f1"},
			map[string]any{"path": filepath.Join(e.wd, "docs"), "files": []any{filepath.Join(e.wd, "a.txt"), "/abs/b.txt", "-"}, "text": "plain words", "file_id": "f1"}},
		{"nested", scratch,
			map[string]any{"options": map[string]any{"output_file": "out/x.json"}, "edits": []any{map[string]any{"path": "../up.txt"}, "odd"}},
			map[string]any{"options": map[string]any{"output_file": filepath.Join(e.wd, "out/x.json")}, "edits": []any{map[string]any{"path": filepath.Join(e.wd, "../up.txt")}, "odd"}}},
		{"from the executor's dir", inDir, map[string]any{"path": "data/x"}, map[string]any{"path": "/srv/tools/data/x"}},
		{"~ as a shell expands it", inDir, map[string]any{"path": "~/Downloads", "files": []any{"~", "~bob/x", "a~b"}},
			map[string]any{"path": filepath.Join(e.home, "Downloads"), "files": []any{e.home, "/srv/tools/~bob/x", "/srv/tools/a~b"}}},
		{"empty, standard input and URLs as they are", scratch, map[string]any{"path": "", "files": []any{"-", "https://example.com/a"}},
			map[string]any{"path": "", "files": []any{"-", "https://example.com/a"}}},
		{"remote tools untouched", web, map[string]any{"path": "./docs"}, map[string]any{"path": "./docs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := json.Marshal(tt.in)
			info, err := e.schemas.get(tt.m)
			if err != nil {
				t.Fatal(err)
			}
			got := e.localPaths(tt.m, tt.in, info)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("localPaths = %v, want %v", got, tt.want)
			}
			if after, _ := json.Marshal(tt.in); string(after) != string(before) {
				t.Errorf("the arguments given changed: %s, were %s", after, before)
			}
		})
	}
}
