package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/stages"
)

// binary is the toolyard binary built once for the tests that run processes.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "toolyard-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "toolyard")
	build := exec.Command("go", "build", "-o", binary, "../cmd/toolyard")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build toolyard:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testRegistry writes a registry with the record tool (which appends to
// recordFile) and returns its path.
func testRegistry(t *testing.T) (path, recordFile string) {
	t.Helper()
	dir := t.TempDir()
	recordFile = filepath.Join(dir, "record.log")
	script, err := filepath.Abs("testdata/record.sh")
	if err != nil {
		t.Fatal(err)
	}
	tools := []map[string]any{{
		"id": "test/record", "name": "record",
		"description": "Record a label in the test execution log, optionally after a pause in seconds.",
		"keywords":    []string{"record", "label", "log"},
		"parameters": map[string]any{"type": "object", "required": []string{"label"}, "properties": map[string]any{
			"label": map[string]any{"type": "string", "description": "what to record"},
			"pause": map[string]any{"type": "number", "description": "seconds to wait first", "default": 0},
		}},
		"executor": map[string]any{"kind": "subprocess", "argv": []string{"/bin/sh", script, "{label}", "{pause}"}, "env": []string{"RECORD_FILE"}, "timeout": "20s"},
	}}
	path = filepath.Join(dir, "tools.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, m := range tools {
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RECORD_FILE", recordFile)
	return path, recordFile
}

// records reads the record log: label → pids of the workers that ran it.
func records(t *testing.T, file string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		label, pid, _ := strings.Cut(sc.Text(), " ")
		out[label] = append(out[label], pid)
	}
	return out
}

// runStagesInProcess runs the given stages (all when none) in this process
// until the test ends.
func runStagesInProcess(t *testing.T, env *pipelinetest.Env, registryFile string, names ...string) {
	t.Helper()
	var tools []schemas.Manifest
	if registryFile != "" {
		var err error
		if tools, err = registry.LoadFile(registryFile); err != nil {
			t.Fatal(err)
		}
	}
	if len(names) == 0 {
		names = bind.Stages
	}
	runStagesWith(t, env, stages.Config{Tools: tools}, names)
}

// runStagesWith runs the named stages of cfg in this process, with these
// runner options on top of short fetch and ack waits, until the test ends.
func runStagesWith(t *testing.T, env *pipelinetest.Env, cfg stages.Config, names []string, opts ...pipeline.RunOption) {
	t.Helper()
	set, err := stages.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, name := range names {
		st, err := set.Stage(name)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			all := append([]pipeline.RunOption{pipeline.WithFetchWait(time.Second), pipeline.WithAckWait(5 * time.Second)}, opts...)
			if err := pipeline.Run(ctx, env.JS, st, all...); err != nil {
				t.Errorf("stage %s: %v", name, err)
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// startEnv starts an embedded server for the test and points the toolyard
// processes the test runs at its admin credential, as TOOLYARD_DATA does
// for a user (so tests using it cannot run in parallel).
func startEnv(t *testing.T, dir ...string) *pipelinetest.Env {
	t.Helper()
	env := pipelinetest.Start(t, dir...)
	t.Setenv("TOOLYARD_DATA", env.Server.DataDir())
	return env
}

// useData makes dir the data directory of the 'toolyard up' the test
// starts, whose admin credential the other processes then use; it
// returns dir.
func useData(t *testing.T, dir string) string {
	t.Helper()
	t.Setenv("TOOLYARD_DATA", dir)
	return dir
}

// natsConnect connects to url as the admin of the test's data directory
// (TOOLYARD_DATA, set by startEnv and useData).
func natsConnect(url string, opts ...nats.Option) (*nats.Conn, error) {
	if d := os.Getenv("TOOLYARD_DATA"); d != "" {
		opts = append([]nats.Option{nats.UserCredentials(pipelinetest.AdminCreds(d))}, opts...)
	}
	return nats.Connect(url, opts...)
}

// connectJS connects to the server at url, closed when the test ends.
func connectJS(t *testing.T, url string, opts ...nats.Option) jetstream.JetStream {
	t.Helper()
	nc, err := natsConnect(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// publishOutput publishes an agent output and returns its message id.
func publishOutput(t *testing.T, js jetstream.JetStream, out schemas.AgentOutput) string {
	t.Helper()
	if out.MessageID == "" {
		out.MessageID = fmt.Sprintf("m-%d", time.Now().UnixNano())
	}
	data, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(context.Background(), schemas.AgentOutputSubject(out.SessionID), data); err != nil {
		t.Fatal(err)
	}
	return out.MessageID
}

// results collects results on result.<session> until wait passes or until
// done says it has what it needs.
func results(t *testing.T, js jetstream.JetStream, session string, wait time.Duration, done func([]schemas.Result) bool) []schemas.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cons, err := js.OrderedConsumer(ctx, pipeline.StreamResult, jetstream.OrderedConsumerConfig{FilterSubjects: []string{schemas.ResultSubject(session)}})
	if err != nil {
		t.Fatal(err)
	}
	var out []schemas.Result
	for done == nil || !done(out) {
		m, err := cons.Next(jetstream.FetchContext(ctx))
		if err != nil {
			break
		}
		r, err := schemas.Decode[schemas.Result](schemas.KindResult, m.Data())
		if err != nil {
			t.Fatalf("result does not meet its contract: %v\n%s", err, m.Data())
		}
		out = append(out, r)
	}
	return out
}

// byIntent counts the non-receipt results per intent id.
func byIntent(rs []schemas.Result) map[string][]schemas.Result {
	out := map[string][]schemas.Result{}
	for _, r := range rs {
		if r.Status != schemas.StatusAccepted {
			out[r.IntentID] = append(out[r.IntentID], r)
		}
	}
	return out
}

// countAnswered reports how many intents have a result.
func countAnswered(n int) func([]schemas.Result) bool {
	return func(rs []schemas.Result) bool { return len(byIntent(rs)) >= n }
}

// dlq reads the dead letters of a stage.
func dlq(t *testing.T, env *pipelinetest.Env, stage string, n int) []jetstream.Msg {
	t.Helper()
	return env.Collect(t, pipeline.StreamDLQ, pipeline.DLQSubject(stage), n, 5*time.Second)
}

// startUp starts 'toolyard up' on a free port, with its data in data (a
// fresh temporary directory when ""), no HTTP endpoint unless extra sets
// one, and extra's flags; it returns once up serves, with up's NATS URL.
func startUp(t *testing.T, data string, extra ...string) (*process, string) {
	t.Helper()
	if data == "" {
		data = t.TempDir()
	}
	port := freePort(t)
	args := append([]string{"up", "--data", useData(t, data), "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--http", ""}, extra...)
	up := startProcess(t, args...)
	up.waitOutput(t, "Stop with Ctrl-C", 90*time.Second)
	return up, fmt.Sprintf("nats://127.0.0.1:%d", port)
}

// freePort returns a loopback port nobody listens on.
func freePort(t *testing.T) int {
	t.Helper()
	return freePorts(t, 1)[0]
}

// freePorts returns n distinct loopback ports nobody listens on. Each is
// held open until all are chosen: a port closed at once can be handed out
// again by the next call (six ports chosen one after another held a
// duplicate in 60 of 20,000 sets here), and two listeners of one test on
// one port fail it.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// process is a toolyard process started by a test.
type process struct {
	cmd    *exec.Cmd
	stderr *pipelinetest.Buffer
	done   chan struct{}
}

// startProcess runs the toolyard binary; it is killed when the test ends.
func startProcess(t *testing.T, args ...string) *process {
	t.Helper()
	return startBinary(t, binary, args...)
}

// startBinary is startProcess for another build of toolyard.
func startBinary(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), stderr: &pipelinetest.Buffer{}, done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = p.stderr, p.stderr
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.kill(syscall.SIGKILL)
		if t.Failed() {
			t.Logf("output of toolyard %s:\n%s", strings.Join(args, " "), p.stderr.String())
		}
	})
	return p
}

// kill signals the process (and its children) and waits for it to end.
func (p *process) kill(sig syscall.Signal) {
	select {
	case <-p.done:
		return
	default:
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, sig)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}

// waitOutput waits until the process has printed s.
func (p *process) waitOutput(t *testing.T, s string, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !strings.Contains(p.stderr.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("process did not print %q within %s; output:\n%s", s, wait, p.stderr.String())
		}
		select {
		case <-p.done:
			t.Fatalf("process exited before printing %q; output:\n%s", s, p.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// stagesExcept is every pipeline stage but the named ones, for a test that
// runs those in their own processes and the rest in-process.
func stagesExcept(names ...string) []string {
	var out []string
	for _, s := range bind.Stages {
		if !slices.Contains(names, s) {
			out = append(out, s)
		}
	}
	return out
}

// lastResult is the last result `publish --wait` printed (the receipt,
// status accepted, is not one).
func lastResult(t *testing.T, out []byte) schemas.Result {
	t.Helper()
	var last schemas.Result
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		r, err := schemas.Decode[schemas.Result](schemas.KindResult, sc.Bytes())
		if err != nil {
			t.Fatalf("not a result: %v\n%s", err, sc.Text())
		}
		if r.Status != schemas.StatusAccepted {
			last = r
		}
	}
	return last
}

// exitStatus is a finished command's exit status: 0 for a nil error, -1
// when err is not an exit (the command did not run).
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
