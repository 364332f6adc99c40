package execute

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

const sampleFile = "../../ops/sample/tools.jsonl"

func loadSample(t *testing.T) []schemas.Manifest {
	t.Helper()
	data, err := os.ReadFile(sampleFile)
	if err != nil {
		t.Fatal(err)
	}
	var out []schemas.Manifest
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		m, err := schemas.ValidateManifest(line)
		if err != nil {
			t.Fatalf("%s line %d: %v", sampleFile, n, err)
		}
		out = append(out, m)
	}
	return out
}

func TestSampleRegistry(t *testing.T) {
	tools := loadSample(t)
	if n := len(tools); n < 10 || n > 30 {
		t.Errorf("sample registry has %d tools, want 10–30", n)
	}
	runnable := 0
	builtinIDs := map[string]bool{}
	for _, b := range BuiltinManifests() {
		builtinIDs[b.ID] = true
	}
	for _, m := range tools {
		if builtinIDs[m.ID] {
			t.Errorf("%s: reserved for a builtin", m.ID)
		}
		if !strings.Contains(m.ID, "/") || len(m.Keywords) < 3 || len(m.Examples) < 2 || len(m.Parameters) == 0 {
			t.Errorf("%s: want a namespaced id, keywords, examples and a parameter schema", m.ID)
		}
		if m.Executor != nil {
			runnable++
			if m.Executor.Kind != schemas.ExecSubprocess || m.Executor.Timeout <= 0 {
				t.Errorf("%s: runnable sample tools are subprocesses with a timeout", m.ID)
			}
			if sh := m.Executor.Argv[0]; sh == "sh" || sh == "bash" || sh == "/bin/sh" {
				t.Errorf("%s: runs a shell", m.ID)
			}
		}
	}
	if runnable < 8 {
		t.Errorf("%d runnable sample tools, want at least 8", runnable)
	}
	if _, err := registry.LoadFile(sampleFile); err != nil {
		t.Errorf("registry.LoadFile: %v", err)
	}
}

// TestSampleToolsRun runs every runnable sample tool once with the
// arguments of its first example, and asks every other one to run.
func TestSampleToolsRun(t *testing.T) {
	// du over a directory other tests write to fails when a file vanishes
	// mid-walk; a private one holds still.
	args := map[string]map[string]any{
		"system/disk_usage":    {"path": t.TempDir()},
		"system/disk_free":     {},
		"files/list_directory": {"path": "/etc"},
		"files/count_lines":    {"path": "/etc/passwd"},
		"files/checksum":       {"path": "/etc/passwd", "algorithm": "md5"},
		"files/file_info":      {"path": "/etc/hosts"},
		"files/head":           {"path": "/etc/passwd", "lines": 20},
		"files/tail":           {"path": "/etc/passwd", "lines": 5},
		"files/find":           {"path": "/etc", "name": "*.conf", "max_depth": 1},
		"system/uptime":        {},
		"system/current_time":  {},
		"system/kernel_info":   {},
		"system/memory_usage":  {},
		"system/process_list":  {},
		"system/cpu_info":      {},
		"system/whoami":        {},
		"text/word_count":      {"text": "the quick brown fox jumps over the lazy dog"},
		"net/resolve_host":     {"host": "localhost"},
	}
	// What the output must hold, where it is predictable.
	contains := map[string]string{
		"files/checksum":      "  /etc/passwd",
		"text/word_count":     "9\n",
		"system/current_time": "-",
		"system/whoami":       "uid=",
	}
	tools := loadSample(t)
	// The sample reads system files and reaches the network: this test
	// runs it unconfined (confinement has its own tests).
	e := New(registry.New(tools...), nil, WithPathRoots("/"), WithGrants(Classes...))
	seen := map[string]bool{}
	for _, m := range tools {
		t.Run(m.ID, func(t *testing.T) {
			if m.Executor == nil {
				_, err := run(t, e, call(m.ID, nil))
				if !errors.Is(err, ErrNoExecutor) {
					t.Fatalf("err = %v, want the no-executor error", err)
				}
				return
			}
			a, ok := args[m.ID]
			if !ok {
				t.Fatalf("no test arguments for runnable sample tool %s: add its first example's", m.ID)
			}
			seen[m.ID] = true
			out, err := run(t, e, call(m.ID, a))
			if err != nil {
				t.Fatalf("%s %v: %v (stderr %q)", m.ID, a, err, out.Stderr)
			}
			if out.ExitCode == nil || *out.ExitCode != 0 {
				t.Fatalf("exit code %v", out.ExitCode)
			}
			s, _ := out.Content.(string)
			if strings.TrimSpace(s) == "" || !strings.Contains(s, contains[m.ID]) {
				t.Fatalf("output %q lacks %q", s, contains[m.ID])
			}
		})
	}
	for id := range args {
		if !seen[id] {
			t.Errorf("test arguments for %s, which is not a runnable sample tool", id)
		}
	}
}

// TestSampleToolsHostileArguments: values are data, never options or shell.
func TestSampleToolsHostileArguments(t *testing.T) {
	tools := loadSample(t)
	// The sample reads system files and reaches the network: this test
	// runs it unconfined (confinement has its own tests).
	e := New(registry.New(tools...), nil, WithPathRoots("/"), WithGrants(Classes...))
	tests := []struct {
		tool   string
		params map[string]any
		class  error // nil: the tool runs and fails on the value as a name
	}{
		{"net/resolve_host", map[string]any{"host": "-s"}, ErrInvalidParameters},
		{"files/find", map[string]any{"path": "-delete"}, ErrInvalidParameters},
		{"files/checksum", map[string]any{"path": "/etc/passwd", "algorithm": "rm -rf /; sha256"}, ErrInvalidParameters},
		{"system/current_time", map[string]any{"timezone": "UTC date=x"}, ErrInvalidParameters},
		{"files/count_lines", map[string]any{"path": "/etc/passwd; echo pwned"}, nil},
		{"system/disk_usage", map[string]any{"path": "--help"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			out, err := run(t, e, call(tt.tool, tt.params))
			if tt.class != nil {
				if !errors.Is(err, tt.class) {
					t.Fatalf("err = %v, want %v", err, tt.class)
				}
				return
			}
			var te *ToolError
			if !errors.As(err, &te) || strings.Contains(out.Content.(string), "pwned") || strings.Contains(out.Content.(string), "Usage") {
				t.Fatalf("err = %v, output %q: the value must reach the tool as a file name", err, out.Content)
			}
		})
	}
}
