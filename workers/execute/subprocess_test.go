package execute

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

func TestSubprocessArgv(t *testing.T) {
	schema := `{"type":"object","required":["a"],"properties":{
		"a":{"type":"string"},"opt":{"type":"string"},"n":{"type":"integer","default":3},
		"xs":{"type":"array","items":{"type":"string"}},"f":{"type":"number"},"b":{"type":"boolean"},"o":{"type":"object"}}}`
	tests := []struct {
		name   string
		argv   []string
		params map[string]any
		want   string
	}{
		{"placeholder", []string{"printf", "%s|", "{a}"}, map[string]any{"a": "x y"}, "x y|"},
		{"no shell: metacharacters are data", []string{"printf", "%s|", "{a}"}, map[string]any{"a": "$(id); `id` | rm -rf ~ &"}, "$(id); `id` | rm -rf ~ &|"},
		{"absent optional element dropped", []string{"printf", "%s|", "{a}", "{opt}"}, map[string]any{"a": "x"}, "x|"},
		{"absent optional embedded drops element", []string{"printf", "%s|", "{a}", "--opt={opt}"}, map[string]any{"a": "x"}, "x|"},
		{"embedded present", []string{"printf", "%s|", "--opt={opt}"}, map[string]any{"a": "x", "opt": "v"}, "--opt=v|"},
		{"default fills placeholder", []string{"printf", "%s|", "{n}"}, map[string]any{"a": "x"}, "3|"},
		{"array: one element per item", []string{"printf", "%s|", "{xs}"}, map[string]any{"a": "x", "xs": []any{"p q", "r"}}, "p q|r|"},
		{"array embedded: comma-joined", []string{"printf", "%s|", "--xs={xs}"}, map[string]any{"a": "x", "xs": []any{"p", "r"}}, "--xs=p,r|"},
		{"empty array: no elements", []string{"printf", "%s|", "{a}", "{xs}"}, map[string]any{"a": "x", "xs": []any{}}, "x|"},
		{"numbers plain", []string{"printf", "%s|", "{f}", "{n}"}, map[string]any{"a": "x", "f": 1e21, "n": 7}, "1000000000000000000000|7|"},
		{"boolean and object", []string{"printf", "%s|", "{b}", "{o}"}, map[string]any{"a": "x", "b": true, "o": map[string]any{"k": 1}}, `true|{"k":1}|`},
		{"literal braces", []string{"printf", "%s|", "{{a}}", "x{{}}"}, map[string]any{"a": "x"}, "{a}|x{}|"},
		{"placeholder in command", []string{"{a}", "hi"}, map[string]any{"a": "echo"}, "hi\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newExecutor(t, []schemas.Manifest{tool("t/x", schema, tt.argv...)})
			out, err := run(t, e, call("t/x", tt.params))
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if out.Content != tt.want {
				t.Fatalf("content = %q, want %q", out.Content, tt.want)
			}
			if out.ExitCode == nil || *out.ExitCode != 0 {
				t.Fatalf("exit code = %v", out.ExitCode)
			}
		})
	}
}

func TestSubprocessArgvErrors(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		argv   []string
		class  error
		msg    string
	}{
		{"undeclared placeholder", `{"type":"object"}`, []string{"echo", "{ghost}"}, ErrUnsupported, "argv placeholder {ghost} names no declared parameter"},
		{"unclosed brace", "", []string{"echo", "{a"}, ErrUnsupported, "unclosed {"},
		{"stray closing brace", "", []string{"echo", "a}"}, ErrUnsupported, "unmatched }"},
		{"not a name", "", []string{"awk", "{print $1}"}, ErrUnsupported, "placeholder {print $1} is not a parameter name"},
		{"command expands to nothing", `{"type":"object","properties":{"c":{"type":"string"}}}`, []string{"{c}"}, ErrInvalidParameters, "expands to no command"},
		{"not installed", "", []string{"toolyard-no-such-command"}, ErrUnsupported, `command "toolyard-no-such-command" is not installed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newExecutor(t, []schemas.Manifest{tool("t/x", tt.schema, tt.argv...)})
			_, err := run(t, e, call("t/x", nil))
			if !errors.Is(err, tt.class) || !strings.Contains(err.Error(), tt.msg) || IsTransient(err) {
				t.Fatalf("err = %v, want permanent %v containing %q", err, tt.class, tt.msg)
			}
		})
	}
}

// A required placeholder with no value cannot reach argv expansion through
// Execute (validation refuses first), so expandArgv is checked directly.
func TestExpandArgvRequiredMissing(t *testing.T) {
	info := &paramInfo{required: map[string]bool{"p": true}, props: map[string]bool{"p": true}}
	_, err := expandArgv("t/x", []string{"ls", "{p}"}, map[string]any{}, info)
	if !errors.Is(err, ErrInvalidParameters) || !strings.Contains(err.Error(), `required parameter "p" is missing`) {
		t.Fatalf("err = %v", err)
	}
}

func TestSubprocessFailure(t *testing.T) {
	m := tool("t/fail", "", "sh", "-c", "echo partial; echo first problem >&2; echo the real error >&2; exit 3")
	e := newExecutor(t, []schemas.Manifest{m})
	out, err := run(t, e, call("t/fail", nil))
	var te *ToolError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want *ToolError", err)
	}
	if IsTransient(err) || te.TimedOut {
		t.Fatalf("tool failure must be permanent and not a timeout: %+v", te)
	}
	if *te.Output.ExitCode != 3 || *out.ExitCode != 3 || out.Content != "partial\n" || !strings.Contains(out.Stderr, "the real error") {
		t.Fatalf("output = %+v", out)
	}
	if want := "tool t/fail failed with exit status 3: the real error"; err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}
}

// gone reports whether a process no longer runs (absent or a zombie).
func gone(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	for i := 0; i < 500 && !gone(pid); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if !gone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("grandchild %d survived the call", pid)
	}
}

func TestSubprocessTimeoutKillsGroup(t *testing.T) {
	// The grandchild's pid is printed first, then the shell waits on a
	// second sleep: both must die when the timeout passes.
	m := tool("t/slow", "", "sh", "-c", "sleep 30 & echo $!; sleep 30")
	m.Executor.Timeout = schemas.Duration(300 * time.Millisecond)
	e := newExecutor(t, []schemas.Manifest{m})
	out, err := run(t, e, call("t/slow", nil))
	var te *ToolError
	if !errors.As(err, &te) || !te.TimedOut || IsTransient(err) {
		t.Fatalf("err = %v, want a permanent timeout *ToolError", err)
	}
	if *out.ExitCode != 128+int(syscall.SIGKILL) {
		t.Errorf("exit code = %d, want %d", *out.ExitCode, 128+int(syscall.SIGKILL))
	}
	if !strings.Contains(err.Error(), "timed out after 300ms and was killed") {
		t.Errorf("message %q", err)
	}
	pid, perr := strconv.Atoi(strings.TrimSpace(out.Content.(string)))
	if perr != nil {
		t.Fatalf("no grandchild pid in %q", out.Content)
	}
	waitGone(t, pid)
}

func TestSubprocessDefaultTimeout(t *testing.T) {
	m := tool("t/slow", "", "sleep", "30")
	m.Executor.Timeout = 0
	e := newExecutor(t, []schemas.Manifest{m}, WithDefaultTimeout(200*time.Millisecond))
	_, err := run(t, e, call("t/slow", nil))
	var te *ToolError
	if !errors.As(err, &te) || !te.TimedOut || te.Timeout != 200*time.Millisecond {
		t.Fatalf("err = %v, want a timeout after the default", err)
	}
}

func TestSubprocessLeftoverGrandchildKilled(t *testing.T) {
	// The tool exits at once but leaves a background child holding stdout:
	// the call must not wait for it, and it must not survive.
	m := tool("t/leak", "", "sh", "-c", "sleep 30 & echo $!")
	e := newExecutor(t, []schemas.Manifest{m})
	out, err := run(t, e, call("t/leak", nil))
	if err != nil {
		t.Fatal(err)
	}
	pid, perr := strconv.Atoi(strings.TrimSpace(out.Content.(string)))
	if perr != nil {
		t.Fatalf("no pid in %q", out.Content)
	}
	waitGone(t, pid)
}

func TestSubprocessCallerCancelIsTransient(t *testing.T) {
	m := tool("t/slow", "", "sleep", "30")
	e := newExecutor(t, []schemas.Manifest{m})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err := e.Execute(ctx, call("t/slow", nil))
	if !IsTransient(err) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want transient cancellation", err)
	}
}

func TestSubprocessOutputCap(t *testing.T) {
	tests := []struct {
		name     string
		manifest int
		option   int
		wantLen  int
	}{
		{"manifest cap", 100, 0, 100},
		{"option cap", 0, 1000, 1000},
		{"manifest beats option", 50, 1000, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// ~600 KB, far beyond a pipe buffer: the child would block
			// forever if the overflow were not drained.
			m := tool("t/seq", "", "seq", "1", "100000")
			m.Executor.MaxOutputBytes = tt.manifest
			var opts []Option
			if tt.option > 0 {
				opts = append(opts, WithMaxOutputBytes(tt.option))
			}
			out, err := run(t, newExecutor(t, []schemas.Manifest{m}, opts...), call("t/seq", nil))
			if err != nil {
				t.Fatal(err)
			}
			s := out.Content.(string)
			if !out.Truncated || len(s) != tt.wantLen || !strings.HasPrefix(s, "1\n2\n3\n") {
				t.Fatalf("truncated=%v len=%d", out.Truncated, len(s))
			}
		})
	}
	out, err := run(t, newExecutor(t, []schemas.Manifest{tool("t/small", "", "seq", "3")}), call("t/small", nil))
	if err != nil || out.Truncated || out.Content != "1\n2\n3\n" {
		t.Fatalf("small output: %+v %v", out, err)
	}
}

func TestSubprocessStderrTail(t *testing.T) {
	m := tool("t/noisy", "", "sh", "-c", "seq 1 5000 >&2; exit 1")
	_, err := run(t, newExecutor(t, []schemas.Manifest{m}), call("t/noisy", nil))
	var te *ToolError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v", err)
	}
	s := te.Output.Stderr
	if len(s) > StderrTailBytes || !strings.HasSuffix(s, "4999\n5000\n") || strings.HasPrefix(s, "1\n") {
		t.Fatalf("stderr tail: %d bytes, ends %q", len(s), s[max(0, len(s)-20):])
	}
}

func TestSubprocessInvalidUTF8(t *testing.T) {
	m := tool("t/bytes", "", "printf", `ok \377\376 end`)
	out, err := run(t, newExecutor(t, []schemas.Manifest{m}), call("t/bytes", nil))
	if err != nil {
		t.Fatal(err)
	}
	s := out.Content.(string)
	if !utf8.ValidString(s) || s != "ok \uFFFD end" {
		t.Fatalf("content %q", s)
	}
}

func TestSubprocessEnvironment(t *testing.T) {
	t.Setenv("TOOLYARD_TEST_SECRET", "leak")
	t.Setenv("TOOLYARD_TEST_ALLOWED", "opt")
	t.Setenv("TOOLYARD_TEST_MANIFEST", "man")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("LC_ALL", "C")
	t.Setenv("TZ", "UTC")
	m := tool("t/env", "", "env")
	m.Executor.Env = []string{"TOOLYARD_TEST_MANIFEST", "FIXED=1", "TOOLYARD_TEST_UNSET", "TOOLYARD_INTENT_ID=spoofed", "TOOLYARD_IDEMPOTENCY_KEY=spoofed"}
	e := newExecutor(t, []schemas.Manifest{m}, WithEnv("TOOLYARD_TEST_ALLOWED"))
	out, err := run(t, e, call("t/env", nil))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.Content.(string)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		got[k] = v
	}
	want := map[string]string{
		"TOOLYARD_TEST_ALLOWED": "opt", "TOOLYARD_TEST_MANIFEST": "man", "FIXED": "1",
		"TOOLYARD_INTENT_ID": "intent-1", "LANG": "C.UTF-8",
		EnvIdempotencyKey: CallIdempotencyKey(call("t/env", nil)),
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	allowed := map[string]bool{"PATH": true, "HOME": true, "LANG": true}
	for k := range want {
		allowed[k] = true
	}
	for k := range got {
		if !allowed[k] {
			t.Errorf("variable %s passed through; only the allowlist may be", k)
		}
	}
	if got["PATH"] == "" {
		t.Error("PATH missing")
	}
}

func TestSubprocessWorkingDir(t *testing.T) {
	// Default: a fresh temporary directory, removed after the call.
	e := newExecutor(t, []schemas.Manifest{tool("t/pwd", "", "pwd")})
	out, err := run(t, e, call("t/pwd", nil))
	if err != nil {
		t.Fatal(err)
	}
	dir := strings.TrimSpace(out.Content.(string))
	if !strings.HasPrefix(filepath.Base(dir), "toolyard-pwd-") {
		t.Errorf("default dir %q is not a toolyard temp dir", dir)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("temp dir %s still exists after the call (%v)", dir, err)
	}

	want := t.TempDir()
	m := tool("t/pwd2", "", "pwd")
	m.Executor.Dir = want
	out, err = run(t, newExecutor(t, []schemas.Manifest{m}), call("t/pwd2", nil))
	if err != nil || strings.TrimSpace(out.Content.(string)) != want {
		t.Fatalf("manifest dir: %v %v", out.Content, err)
	}

	m.Executor.Dir = "relative/dir"
	_, err = run(t, newExecutor(t, []schemas.Manifest{m}), call("t/pwd2", nil))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "must be an absolute path") {
		t.Fatalf("relative dir: %v", err)
	}
}

func TestSubprocessOutputFields(t *testing.T) {
	out, err := run(t, newExecutor(t, []schemas.Manifest{tool("t/true", "", "true")}), call("t/true", nil))
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode == nil || *out.ExitCode != 0 || out.DurationMS <= 0 || out.Content != "" || out.Stderr != "" {
		t.Fatalf("output %+v", out)
	}
}

func TestSubprocessEscapedDescendantDoesNotHoldTheCall(t *testing.T) {
	if _, err := lookPath("setsid", []string{"PATH=" + os.Getenv("PATH")}); err != nil {
		t.Skip("setsid not installed")
	}
	// setsid puts sleep in a new session, out of the group the executor
	// kills; it still holds stdout. The call must return anyway (a hang
	// here shows as the test timing out).
	m := tool("t/escape", "", "sh", "-c", "setsid sleep 3600 & echo $!")
	out, err := run(t, newExecutor(t, []schemas.Manifest{m}), call("t/escape", nil))
	if err != nil {
		t.Fatal(err)
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(out.Content.(string))); err == nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// Calls' scratch directories are made in one directory of the process's,
// not straight in the temp directory: there they appeared and vanished
// with every call, and a tool listing /tmp (ls -l) failed when one
// vanished mid-listing.
func TestSubprocessScratchDirsShareOneParent(t *testing.T) {
	e := newExecutor(t, []schemas.Manifest{tool("t/pwd", "", "pwd")})
	var parents []string
	for range 2 {
		out, err := run(t, e, call("t/pwd", nil))
		if err != nil {
			t.Fatal(err)
		}
		parents = append(parents, filepath.Dir(strings.TrimSpace(out.Content.(string))))
	}
	if parents[0] != parents[1] || filepath.Clean(parents[0]) == filepath.Clean(os.TempDir()) {
		t.Fatalf("scratch directories made in %q and %q: want one stable directory below %s", parents[0], parents[1], os.TempDir())
	}
	fi, err := os.Stat(parents[0])
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o711 {
		t.Errorf("scratch parent %s: mode %v; want 0711 (reachable, not listable)", parents[0], fi.Mode().Perm())
	}
}
