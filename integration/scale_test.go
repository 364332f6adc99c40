package integration

import (
	"fmt"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// startWorkers starts n worker processes of one stage against env's server.
func startWorkers(t *testing.T, env *pipelinetest.Env, n int, stage, registryFile string, extra ...string) []*process {
	t.Helper()
	var ps []*process
	for i := 0; i < n; i++ {
		args := append([]string{"worker", "--stage", stage, "--nats", env.Server.ClientURL(), "--registry", registryFile, "--http", ""}, extra...)
		p := startProcess(t, args...)
		p.WaitOutput(t, "worker started", 30*time.Second)
		ps = append(ps, p)
	}
	return ps
}

// publishRecords publishes n outputs, each with one record intent, and
// returns their labels.
func publishRecords(t *testing.T, env *pipelinetest.Env, session string, n int, pause string) []string {
	t.Helper()
	var labels []string
	for i := 0; i < n; i++ {
		label := fmt.Sprintf("job%02d", i)
		labels = append(labels, label)
		publishOutput(t, env.JS, schemas.AgentOutput{
			SessionID: session, MessageID: label,
			Text: fmt.Sprintf("[TOOL: test/record label=%s pause=%s]", label, pause),
		})
	}
	return labels
}

// Two worker processes of the same stage share its work.
func TestWorkerProcessesShareTheLoad(t *testing.T) {
	env := startEnv(t)
	reg, recordFile := testRegistry(t)
	runStagesInProcess(t, env, reg, bind.StageParse, bind.StageDiscover, bind.StageRoute, bind.StageResolve)
	workers := startWorkers(t, env, 2, bind.StageExecute, reg, "--concurrency", "1")

	labels := publishRecords(t, env, "load", 16, "0.1")
	rs := results(t, env.JS, "load", 60*time.Second, countAnswered(len(labels)))
	if got := byIntent(rs); len(got) != len(labels) {
		t.Fatalf("%d of %d intents answered", len(got), len(labels))
	}
	perWorker := map[string]int{}
	for _, pids := range records(t, recordFile) {
		for _, pid := range pids {
			perWorker[pid]++
		}
	}
	for _, w := range workers {
		pid := strconv.Itoa(w.Cmd.Process.Pid)
		if perWorker[pid] == 0 {
			t.Errorf("worker %s ran nothing; executions per worker: %v", pid, perWorker)
		}
	}
}

// Killing a worker that holds unacknowledged messages loses nothing: every
// intent still gets exactly one result.
func TestKilledWorkerLosesNothing(t *testing.T) {
	env := startEnv(t)
	reg, recordFile := testRegistry(t)
	runStagesInProcess(t, env, reg, bind.StageParse, bind.StageDiscover, bind.StageRoute, bind.StageResolve)
	workers := startWorkers(t, env, 2, bind.StageExecute, reg, "--concurrency", "2", "--ack-wait", "2s")

	labels := publishRecords(t, env, "kill", 12, "0.5")
	// Kill the first worker once it has started a tool: it then holds
	// unacknowledged messages.
	victim := strconv.Itoa(workers[0].Cmd.Process.Pid)
	deadline := time.Now().Add(30 * time.Second)
	for !ranOn(records(t, recordFile), victim) {
		if time.Now().After(deadline) {
			t.Fatal("the first worker never ran a tool")
		}
		time.Sleep(20 * time.Millisecond)
	}
	workers[0].Kill(syscall.SIGKILL)

	rs := results(t, env.JS, "kill", 60*time.Second, countAnswered(len(labels)))
	got := byIntent(rs)
	if len(got) != len(labels) {
		t.Fatalf("%d of %d intents answered after the kill", len(got), len(labels))
	}
	for id, r := range got {
		if len(r) != 1 {
			t.Errorf("intent %s has %d results, want exactly 1", id, len(r))
		}
		if r[0].Status != schemas.StatusExecuted {
			t.Errorf("intent %s: %s: %s", id, r[0].Status, r[0].Message)
		}
	}
}

func ranOn(rec map[string][]string, pid string) bool {
	for _, pids := range rec {
		for _, p := range pids {
			if p == pid {
				return true
			}
		}
	}
	return false
}
