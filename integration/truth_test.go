package integration

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The start-up hint is a command that works as printed: with a data
// directory whose credentials clients do not find by themselves and a
// server off the default address, it carries --nats and --creds.
func TestUpHintCarriesTheFlagsUsed(t *testing.T) {
	data := t.TempDir()
	// Clients default to TOOLYARD_DATA's credentials: point it elsewhere,
	// so the ones up writes under --data are not found without --creds.
	t.Setenv("TOOLYARD_DATA", t.TempDir())
	port := freePort(t)
	up := startProcess(t, "up", "--data", data, "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "")
	up.WaitOutput(t, "Stop with Ctrl-C", 60*time.Second)
	out := up.Output.String()
	want := fmt.Sprintf("publish --nats nats://127.0.0.1:%d --creds %s --session demo", port, filepath.Join(data, "creds", "admin.creds"))
	if !strings.Contains(out, want) {
		t.Fatalf("the hint should carry the flags used (%q):\n%s", want, out)
	}
	// The banner says how discovery runs: hybrid with the vectors this
	// checkout builds in (the build without them: the test below).
	if !regexp.MustCompile(`(?m)^  discovery: (hybrid \(local:|THIS BUILD HAS NO WORD VECTORS)`).MatchString(out) {
		t.Errorf("the banner does not say how discovery runs:\n%s", out)
	}
	hint := regexp.MustCompile(`(?m)^Publish:\s+(\S+) (publish .*)$`).FindStringSubmatch(out)
	if hint == nil {
		t.Fatalf("no Publish: hint in:\n%s", out)
	}
	// Run it as printed (with --timeout so a hang fails rather than waits).
	args := shellWords(t, hint[2])
	res, err := exec.Command(binary, append(args, "--timeout", "30s")...).CombinedOutput()
	if err != nil || !strings.Contains(string(res), `"executed"`) {
		t.Fatalf("the hinted command %q: %v\n%s", hint[2], err, res)
	}
}

// shellWords splits a command line of plain words and one double-quoted
// argument, as the hint prints it.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var out []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if line[0] == '"' {
			end := strings.IndexByte(line[1:], '"')
			if end < 0 {
				t.Fatalf("unbalanced quote in %q", line)
			}
			out, line = append(out, line[1:end+1]), line[end+2:]
			continue
		}
		w, rest, _ := strings.Cut(line, " ")
		out, line = append(out, w), rest
	}
	return out
}

// A build without the word vectors runs, and says so at start-up: in the
// log, loudly, and in the banner. (Built here with the tag that leaves the
// vectors out, as a checkout without 'make embeddings' does.)
func TestBuildWithoutVectorsSaysSoAtStartUp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds toolyard without its vectors")
	}
	bin := filepath.Join(t.TempDir(), "toolyard-novectors")
	build := exec.Command("go", "build", "-tags", "toolyard_novectors", "-o", bin, "../cmd/toolyard")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build without vectors: %v\n%s", err, out)
	}
	port := freePort(t)
	up := startBinary(t, bin, "up", "--data", useData(t, t.TempDir()), "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", "")
	up.WaitOutput(t, "Stop with Ctrl-C", 60*time.Second)
	out := up.Output.String()
	if !regexp.MustCompile(`level=WARN .*THIS BUILD HAS NO WORD VECTORS`).MatchString(out) {
		t.Errorf("no warning in the log that the build has no word vectors:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^  discovery: THIS BUILD HAS NO WORD VECTORS`).MatchString(out) {
		t.Errorf("the banner does not say the build has no word vectors:\n%s", out)
	}
}

// mcp serve with NATS unreachable fails at once, naming the address and
// what to do, instead of waiting or filling the log.
func TestMCPServeFailsFastWhenNATSIsDown(t *testing.T) {
	url := fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
	for _, transport := range [][]string{{"--stdio"}, {"--http", fmt.Sprintf("127.0.0.1:%d", freePort(t))}} {
		start := time.Now()
		cmd := exec.Command(binary, append([]string{"mcp", "serve", "--nats", url}, transport...)...)
		cmd.Stdin = strings.NewReader("")
		done := make(chan struct{})
		var out []byte
		var err error
		go func() { out, err = cmd.CombinedOutput(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Fatalf("mcp serve %v with NATS down still running after 10s:\n%s", transport, out)
		}
		took := time.Since(start)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() == 0 {
			t.Fatalf("mcp serve %v: %v, want a non-zero exit\n%s", transport, err, out)
		}
		if !strings.Contains(string(out), url) || !strings.Contains(string(out), "is 'toolyard up' running?") {
			t.Errorf("mcp serve %v: the error should name %s and the likely cause:\n%s", transport, url, out)
		}
		if lines := strings.Count(strings.TrimSpace(string(out)), "\n") + 1; lines > 3 {
			t.Errorf("mcp serve %v: %d lines of output for one failure:\n%s", transport, lines, out)
		}
		t.Logf("mcp serve %v with NATS down: exit %d after %s", transport, exit.ExitCode(), took.Round(time.Millisecond))
	}
}

// When NATS goes away under a running gateway, the gateway keeps running,
// says so in one line, retries with growing waits without a line per
// retry, and says once that it is back when NATS returns.
func TestMCPServeReconnectsWithOneLinePerChange(t *testing.T) {
	data := useData(t, t.TempDir())
	port := freePort(t)
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	up := startProcess(t, "up", "--data", data, "--listen", listen, "--http", "")
	up.WaitOutput(t, "Stop with Ctrl-C", 60*time.Second)
	gw := startProcess(t, "mcp", "serve", "--nats", "nats://"+listen, "--http", fmt.Sprintf("127.0.0.1:%d", freePort(t)))
	gw.WaitOutput(t, "MCP gateway listening", 30*time.Second)

	up.Kill(syscall.SIGTERM)
	gw.WaitOutput(t, "NATS connection lost", 15*time.Second)
	before := gw.Output.String()
	time.Sleep(6 * time.Second) // a dozen retries at the early waits
	during := strings.TrimPrefix(gw.Output.String(), before)
	if strings.TrimSpace(during) != "" {
		t.Errorf("the gateway logged while retrying; want one line when the connection is lost and nothing per retry:\n%s", during)
	}

	up = startProcess(t, "up", "--data", data, "--listen", listen, "--http", "")
	up.WaitOutput(t, "Stop with Ctrl-C", 60*time.Second)
	gw.WaitOutput(t, "NATS connection back", 20*time.Second)
	time.Sleep(time.Second)
	out := gw.Output.String()
	for _, line := range []string{"NATS connection lost", "NATS connection back"} {
		if n := strings.Count(out, line); n != 1 {
			t.Errorf("%q logged %d times, want once:\n%s", line, n, out)
		}
	}
	select {
	case <-gw.Done:
		t.Fatalf("the gateway exited:\n%s", out)
	default:
	}
}

// A command that cannot start says why in one line naming what failed,
// and exits non-zero.
func TestStartUpFailuresNameTheirCause(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	taken := busy.Addr().String()
	data := useData(t, t.TempDir())
	down := fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"NATS port taken", []string{"up", "--data", data, "--listen", taken, "--http", ""}, []string{"cannot listen on " + taken, "address already in use"}},
		{"metrics port taken", []string{"up", "--data", data, "--listen", "127.0.0.1:0", "--http", taken}, []string{"--http " + taken + ": cannot listen for metrics", "address already in use"}},
		{"data directory", []string{"up", "--data", "/proc/toolyard-cannot", "--listen", "127.0.0.1:0", "--http", ""}, []string{"/proc/toolyard-cannot"}},
		{"registry file", []string{"up", "--data", data, "--listen", "127.0.0.1:0", "--http", "", "--registry", "/nonexistent/tools.jsonl"}, []string{"registry", "/nonexistent/tools.jsonl"}},
		{"worker, NATS down", []string{"worker", "--stage", "parse", "--nats", down}, []string{"connect to NATS at " + down, "is 'toolyard up' running?"}},
		{"external up, NATS down", []string{"up", "--external", "--nats", down, "--http", ""}, []string{"connect to NATS at " + down, "is 'toolyard up' running?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, binary, tt.args...).CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() == 0 {
				t.Fatalf("%v: %v, want a non-zero exit\n%s", tt.args, err, out)
			}
			last := strings.TrimSpace(string(out))
			if i := strings.LastIndexByte(last, '\n'); i >= 0 {
				last = last[i+1:]
			}
			for _, w := range tt.want {
				if !strings.Contains(last, w) {
					t.Errorf("%v: the error %q does not say %q\nall output:\n%s", tt.args, last, w, out)
				}
			}
		})
	}
}
