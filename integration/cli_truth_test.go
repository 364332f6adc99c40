package integration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runSplit runs toolyard and returns its exit code, standard output and
// standard error.
func runSplit(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("toolyard %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), errb.String()
}

// A client command the server refuses ends at once with one line naming the
// credential and what it may not do, instead of waiting out its timeout and
// reporting "context deadline exceeded" with a guess that the server is
// down; an expired credential is said to be expired.
func TestClientCommandsSayWhatTheServerRefused(t *testing.T) {
	url, data := securedUp(t)
	mine := filepath.Join(t.TempDir(), "mine.creds")
	toolyard(t, "creds", "agent", "--data", data, "--session", "mine", "--out", mine)

	for _, args := range [][]string{
		{"publish", "--session", "theirs", "--wait", "--timeout", "20s", "[TOOL: kernel version]"},
		{"publish", "--session", "theirs", "--timeout", "20s", "hello"},
		{"session", "tools", "theirs"},
		{"tools", "list"},
		{"dlq", "list"},
	} {
		code, _, stderr := runSplit(t, "", append(args, "--nats", url, "--creds", mine)...)
		if code != 1 || !strings.Contains(stderr, "refused the credentials in "+mine) || !strings.Contains(stderr, "Permissions Violation for") ||
			strings.Contains(stderr, "deadline exceeded") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("toolyard %s with an agent credential of another session: exit %d, stderr:\n%s\nwant exit 1 and one line naming the credential and the refusal",
				strings.Join(args, " "), code, stderr)
		}
	}
	// The agent's own session still works with the same credential.
	if code, stdout, stderr := runSplit(t, "", "publish", "--nats", url, "--creds", mine, "--session", "mine", "--wait", "--timeout", "30s", "[TOOL: kernel version]"); code != 0 {
		t.Errorf("publish to the agent's own session: exit %d\n%s%s", code, stdout, stderr)
	}

	short := filepath.Join(t.TempDir(), "short.creds")
	toolyard(t, "creds", "agent", "--data", data, "--session", "mine", "--ttl", "1s", "--out", short)
	time.Sleep(2100 * time.Millisecond)
	code, _, stderr := runSplit(t, "", "publish", "--nats", url, "--creds", short, "--session", "mine", "hello")
	if code != 1 || !strings.Contains(stderr, "the credential in "+short+" expired at") {
		t.Errorf("publish with an expired credential: exit %d, stderr:\n%s\nwant it to say the credential expired", code, stderr)
	}
}

// Ctrl-C while publish waits is an interruption, not a timeout: it says
// the output runs on and how to see its results, and exits 130.
func TestPublishInterruptedSaysSo(t *testing.T) {
	_, url := startUp(t, "")
	addSlowTool(t, url, 3)
	pub := startProcess(t, "publish", "--nats", url, "--session", "intr", "--message-id", "intr-1", "--wait", "--timeout", "60s", `<tool_call name="test/slow">{}</tool_call>`)
	pub.WaitOutput(t, `"status":"accepted"`, 30*time.Second)
	pub.Kill(syscall.SIGINT)
	out := pub.Output.String()
	if code := pub.Cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(out, "interrupted while waiting for 1 result(s): intr-1.0") ||
		!strings.Contains(out, "--message-id intr-1 --wait") || strings.Contains(out, "timed out") {
		t.Errorf("publish interrupted: exit %d, output:\n%s\nwant exit 130 and 'interrupted while waiting', with the command that shows the results", code, out)
	}
	// The command it names shows the results; nothing ran twice.
	code, stdout, stderr := runSplit(t, "", "publish", "--nats", url, "--session", "intr", "--message-id", "intr-1", "--wait", "--timeout", "30s")
	if code != 0 || strings.Count(stdout, `"status":"executed"`) != 1 {
		t.Errorf("the hinted command: exit %d\n%s%s", code, stdout, stderr)
	}
}

// An export filtered on a stage that writes no audit records says so,
// instead of passing for an empty history.
func TestAuditExportNamesAnUnknownStage(t *testing.T) {
	env := startEnv(t)
	url := env.Server.ClientURL()
	for _, tt := range []struct{ stage, want, not string }{
		{"bogus", `exported 0 records: no stage "bogus" writes audit records; the stages are parse,`, ""},
		{"route", "exported 0 records", "no stage"},
		{"import", "exported 0 records", "no stage"},
	} {
		code, _, stderr := runSplit(t, "", "audit", "export", "--nats", url, "--stage", tt.stage)
		if code != 0 || !strings.Contains(stderr, tt.want) || tt.not != "" && strings.Contains(stderr, tt.not) {
			t.Errorf("audit export --stage %s: exit %d, stderr %q; want %q", tt.stage, code, stderr, tt.want)
		}
	}
}

// A different tool under a registered id is refused with the way to
// overwrite it that the command at hand has: --replace on tools add and
// import; tools import --replace for up --registry, which has no such flag.
func TestRegistryConflictNamesTheWayToReplace(t *testing.T) {
	env := startEnv(t)
	url := env.Server.ClientURL()
	first := `{"id": "conflict/tool", "description": "the registered one"}`
	second := `{"id": "conflict/tool", "description": "another under the same id"}`
	if code, out, stderr := runSplit(t, first, "tools", "add", "--nats", url, "-"); code != 0 {
		t.Fatalf("tools add: exit %d\n%s%s", code, out, stderr)
	}
	code, _, stderr := runSplit(t, second, "tools", "add", "--nats", url, "-")
	if code != 1 || !strings.Contains(stderr, `["conflict/tool"]; nothing imported (overwrite them with --replace`) {
		t.Errorf("tools add of a different tool under a registered id: exit %d, stderr %q", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "tools.jsonl")
	if err := os.WriteFile(file, []byte(second+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runSplit(t, "", "up", "--external", "--nats", url, "--registry", file, "--http", "")
	if code != 1 || !strings.Contains(stderr, "'toolyard tools import --replace "+file+"'") || strings.Contains(stderr, "use replace") {
		t.Errorf("up --registry with a different tool under a registered id: exit %d, stderr:\n%s", code, stderr)
	}
}

// up refuses a bad setting with one line naming it, exit 1: a misspelt
// --embedder used to start keyword-only with a warning in the log,
// --concurrency 0 and --seed-k -1 were taken (the banner said concurrency 0
// while each stage ran 4; every session's seeding failed later), and an
// error found after the embedded server started came with a stray
// "io: read/write on closed pipe" line from the connection cut under it.
func TestUpRefusesBadSettingsInOneLine(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--embedder", "wordvec"}, `toolyard: --embedder "wordvec": want local, ollama, openai or none`},
		{[]string{"--activate-threshold", "0.4", "--multiple-threshold", "0.6"}, "toolyard: thresholds must satisfy weak <= multiple <= activate"},
		{[]string{"--discovery", "fuzzy"}, `toolyard: unknown discovery mode "fuzzy"`},
		{[]string{"--concurrency", "0"}, "toolyard: --concurrency 0: want at least 1"},
		{[]string{"--max-deliver", "0"}, "toolyard: --max-deliver 0: want at least 1"},
		{[]string{"--ack-wait", "0s"}, "toolyard: --ack-wait 0s: want a positive duration"},
		{[]string{"--seed-k", "-1"}, "toolyard: --seed-k -1: want at least 1"},
	} {
		args := append([]string{"up", "--data", t.TempDir(), "--listen", fmt.Sprintf("127.0.0.1:%d", freePort(t)), "--http", ""}, tt.args...)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, binary, args...)
		out, err := cmd.CombinedOutput()
		timedOut := ctx.Err() != nil
		cancel()
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			// Start-up logs (time=…) and the root warning are not the cause.
			if !strings.HasPrefix(l, "time=") && !strings.HasPrefix(l, "WARNING:") {
				lines = append(lines, l)
			}
		}
		if timedOut || cmd.ProcessState.ExitCode() != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], tt.want) {
			t.Errorf("up %v: %v, exit %d, output lines %q\nwant exit 1 and the one line %q", tt.args, err, cmd.ProcessState.ExitCode(), lines, tt.want)
		}
	}
}

// A worker started with another stage's credential fails in one line
// naming the credential and what it may not do, not "context deadline
// exceeded" (and the stage once, not twice).
func TestWorkerWithAnotherStagesCredentialSaysSo(t *testing.T) {
	url, data := securedUp(t)
	parse := filepath.Join(t.TempDir(), "parse.creds")
	toolyard(t, "creds", "worker", "--data", data, "--stage", "parse", "--out", parse)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "worker", "--stage", "route", "--nats", url, "--creds", parse, "--http", "")
	out, _ := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	// The worker's start-up check of its credential (worker_creds.go)
	// names it before connecting; a refusal the check does not foresee is
	// named by the server's answer ("the server refused the credentials").
	named := strings.Contains(last, "credential "+parse+" may not take stage route's work") ||
		strings.Contains(last, "the server refused the credentials in "+parse) && strings.Contains(last, "a worker credential covers only its stages")
	if ctx.Err() != nil || cmd.ProcessState.ExitCode() != 1 || !named || strings.Contains(last, "deadline exceeded") || strings.Contains(last, "stage route: stage route") {
		t.Errorf("worker --stage route with a parse credential: exit %d, last line:\n%s", cmd.ProcessState.ExitCode(), last)
	}
}

// When the server goes away while publish waits, it ends by its --timeout
// (an ordered consumer's Next retried without end when it was called with
// the server away) and says the connection is down and how to see the
// results later, rather than "no heartbeat received" or a bare timeout.
func TestPublishSaysWhenTheServerIsGone(t *testing.T) {
	up, url := startUp(t, "")
	addSlowTool(t, url, 5)
	pub := startProcess(t, "publish", "--nats", url, "--session", "gone", "--message-id", "gone-1", "--wait", "--timeout", "3s", `<tool_call name="test/slow">{}</tool_call>`)
	pub.WaitOutput(t, `"status":"accepted"`, 30*time.Second)
	up.Kill(syscall.SIGKILL)
	select {
	case <-pub.Done:
	case <-time.After(60 * time.Second):
		t.Fatalf("publish still waiting a minute after the server went away:\n%s", pub.Output.String())
	}
	out := pub.Output.String()
	if code := pub.Cmd.ProcessState.ExitCode(); code == 0 || !strings.Contains(out, "the connection to NATS at "+url+" is down") ||
		!strings.Contains(out, "--message-id gone-1 --wait") {
		t.Errorf("publish after the server went away: exit %d, output:\n%s\nwant it to say the connection is down and how to see the results", code, out)
	}
}

// addSlowTool registers test/slow, a tool that sleeps seconds, with the
// server at url.
func addSlowTool(t *testing.T, url string, seconds int) {
	t.Helper()
	slow := fmt.Sprintf(`{"id": "test/slow", "description": "Wait a while doing nothing", "executor": {"kind": "subprocess", "argv": ["sleep", "%d"], "timeout": "20s"}}`, seconds)
	if code, out, stderr := runSplit(t, slow, "tools", "add", "--nats", url, "-"); code != 0 {
		t.Fatalf("tools add: exit %d\n%s%s", code, out, stderr)
	}
}

// up (and a worker) whose --http address is taken stops at once with that
// cause, in one line: up used to start its server, registry and stages,
// log their shutdown ("cannot watch model; retrying … connection
// draining") and only then fail to listen for metrics.
func TestTakenHTTPAddressStopsAtOnce(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	want := "toolyard: --http " + addr + ": cannot listen for metrics and the status page there"
	for _, args := range [][]string{
		{"up", "--data", t.TempDir(), "--listen", fmt.Sprintf("127.0.0.1:%d", freePort(t)), "--http", addr},
		{"worker", "--stage", "parse", "--nats", "nats://127.0.0.1:1", "--http", addr},
	} {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		out, err := exec.CommandContext(ctx, binary, args...).CombinedOutput()
		cancel()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if exitStatus(err) != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], want) || !strings.Contains(lines[0], "address already in use") {
			t.Errorf("toolyard %s with --http taken: exit %d, output:\n%s\nwant exit 1 and the one line %q…", args[0], exitStatus(err), out, want)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("toolyard %s took %s to say --http is taken", args[0], took)
		}
	}
}
