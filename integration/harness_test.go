package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/integration/itest"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/stages"
)

// binary is the toolyard binary built once for the tests that run processes
// (itest.Binary, by the name these tests use).
var binary string

func TestMain(m *testing.M) {
	remove := itest.Build("../cmd/toolyard")
	binary = itest.Binary
	code := m.Run()
	remove()
	os.Exit(code)
}

// The harness is shared with integration/slow in package itest; these are
// its helpers by the names the tests of this package use.

// process is a toolyard process started by a test.
type process = itest.Process

// clusterNode is a nats-server run from a configuration file, as an
// operator runs one.
type clusterNode = itest.ClusterNode

// testMaxFileStore is the JetStream store the tests' own servers are given
// (see itest.TestMaxFileStore).
const testMaxFileStore = itest.TestMaxFileStore

// testRegistry writes a registry with the record tool (which appends to
// recordFile) and returns its path.
func testRegistry(t *testing.T) (path, recordFile string) {
	t.Helper()
	return itest.RecordRegistry(t)
}

// records reads the record log: label → pids of the workers that ran it.
func records(t *testing.T, file string) map[string][]string {
	t.Helper()
	return itest.Records(t, file)
}

// toolyard runs the binary to completion and returns its standard output.
func toolyard(t *testing.T, args ...string) string {
	t.Helper()
	return itest.Toolyard(t, args...)
}

// runToolyard runs the binary and returns its combined output.
func runToolyard(args ...string) (string, error) {
	return itest.RunToolyard(args...)
}

// startProcess runs the toolyard binary; it is killed when the test ends.
func startProcess(t *testing.T, args ...string) *process {
	t.Helper()
	return itest.StartProcess(t, args...)
}

// startBinary is startProcess for another build of toolyard.
func startBinary(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	return itest.StartBinary(t, bin, args...)
}

// startUp starts 'toolyard up' on a free port, with its data in data (a
// fresh temporary directory when ""), no HTTP endpoint unless extra sets
// one, and extra's flags; it returns once up serves, with up's NATS URL.
func startUp(t *testing.T, data string, extra ...string) (*process, string) {
	t.Helper()
	return itest.StartUp(t, data, extra...)
}

// useData makes dir the data directory of the 'toolyard up' the test
// starts, whose admin credential the other processes then use; it
// returns dir.
func useData(t *testing.T, dir string) string {
	t.Helper()
	return itest.UseData(t, dir)
}

// freePort returns a loopback port nobody listens on.
func freePort(t *testing.T) int {
	t.Helper()
	return itest.FreePort(t)
}

// startSecuredNode starts one JetStream server trusting the keys 'toolyard
// creds server-config' writes, as an operator runs it; it returns its
// client URL and the directory of the keys and credentials.
func startSecuredNode(t *testing.T) (url, keys string) {
	t.Helper()
	return itest.StartSecuredNode(t)
}

// natsConnect connects to url as the admin of the test's data directory
// (TOOLYARD_DATA, set by startEnv and useData).
func natsConnect(url string, opts ...nats.Option) (*nats.Conn, error) {
	return itest.NATSConnect(url, opts...)
}

// connectJS connects to the server at url, closed when the test ends.
func connectJS(t *testing.T, url string, opts ...nats.Option) jetstream.JetStream {
	t.Helper()
	return itest.ConnectJS(t, url, opts...)
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
