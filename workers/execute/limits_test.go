package execute

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// Subprocess tools start with the CPU, memory and core-file limits set:
// the tool reads them back with the shell's ulimit (-t seconds, -d KiB).
func TestSubprocessLimits(t *testing.T) {
	tests := []struct {
		name   string
		limits Limits
		want   string
	}{
		{"defaults", Limits{}, "60 2097152 0"},
		{"set", Limits{CPU: 1500 * time.Millisecond, Memory: 64 << 20}, "2 65536 0"},
		{"lifted", Limits{CPU: -1, Memory: -1}, "unlimited unlimited 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := tool("t/limits", "", "/bin/sh", "-c", `echo $(ulimit -t) $(ulimit -d) $(ulimit -c)`)
			e := newExecutor(t, []schemas.Manifest{m}, WithLimits(tc.limits))
			out, err := run(t, e, call("t/limits", nil))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(out.Content.(string)); got != tc.want {
				t.Fatalf("limits %q, want %q", got, tc.want)
			}
		})
	}
}

// A tool that allocates past its memory limit fails instead of taking the
// machine's memory; one that spins past its CPU limit is killed.
func TestSubprocessLimitsBite(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	alloc := tool("t/alloc", "", "/usr/bin/python3", "-c", "b = bytearray(512 << 20); print('allocated')")
	spin := tool("t/spin", "", "/usr/bin/python3", "-c", "while True: pass")
	spin.Executor.Timeout = schemas.Duration(20 * time.Second)
	e := newExecutor(t, []schemas.Manifest{alloc, spin}, WithLimits(Limits{CPU: time.Second, Memory: 128 << 20}), WithRetryBudget(0))
	out, err := run(t, e, call("t/alloc", nil))
	if err == nil || !strings.Contains(out.Stderr, "MemoryError") {
		t.Errorf("allocating 512 MiB under a 128 MiB limit: err %v, stderr %q", err, out.Stderr)
	}
	start := time.Now()
	out, err = run(t, e, call("t/spin", nil))
	if err == nil || out.ExitCode == nil || *out.ExitCode < 128 || time.Since(start) > 10*time.Second {
		t.Errorf("spinning under a 1s CPU limit: err %v, exit %v after %s", err, out.ExitCode, time.Since(start))
	}
}

func TestRunningAsRoot(t *testing.T) {
	if RunningAsRoot(&RunAs{Name: "nobody", UID: 65534}) {
		t.Error("a --run-as user other than root is not root")
	}
	if RunningAsRoot(&RunAs{Name: "root", UID: 0}) != true {
		t.Error("--run-as root is root")
	}
	if RunningAsRoot(nil) != (os.Geteuid() == 0) {
		t.Error("without --run-as, tools run as the worker's user")
	}
}

// With --run-as, a root worker runs tools as that user, with its HOME, in
// a scratch directory the user owns.
func TestSubprocessRunAs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("switching users needs root")
	}
	r, err := LookupRunAs("nobody")
	if err != nil {
		t.Skip(err)
	}
	m := tool("t/who", "", "/bin/sh", "-c", `echo $(id -u) $HOME; touch here && echo wrote`)
	e := newExecutor(t, []schemas.Manifest{m}, WithRunAs(r))
	out, err := run(t, e, call("t/who", nil))
	if err != nil {
		t.Fatalf("%v %q", err, out.Stderr)
	}
	if want := "65534 " + r.Home + "\nwrote\n"; out.Content != want {
		t.Fatalf("got %q, want %q", out.Content, want)
	}
	if _, err := LookupRunAs("no-such-user-here"); err == nil || !strings.Contains(err.Error(), "--run-as no-such-user-here") {
		t.Fatalf("unknown user: %v", err)
	}
}
