package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/effects"
)

// slowEffectRegistry writes a registry with test/slow_effect, a tool that
// records its start, sleeps, then appends its effect to a file.
func slowEffectRegistry(t *testing.T) (reg, started, effect, keys string) {
	t.Helper()
	dir := t.TempDir()
	started, effect, keys = filepath.Join(dir, "started.log"), filepath.Join(dir, "effect.log"), filepath.Join(dir, "keys.log")
	script, err := filepath.Abs("testdata/slow_effect.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{
		"id": "test/slow_effect", "name": "slow_effect",
		"description": "Append a label to the effect log after a pause (a slow tool with a side effect).",
		"parameters": map[string]any{"type": "object", "required": []string{"label"}, "properties": map[string]any{
			"label":  map[string]any{"type": "string"},
			"pause":  map[string]any{"type": "number", "default": 0},
			"after":  map[string]any{"type": "number", "default": 0},
			"dedupe": map[string]any{"enum": []string{"yes", "no"}, "default": "no"},
		}},
		"executor": map[string]any{"kind": "subprocess", "argv": []string{"/bin/sh", script, "{label}", "{pause}", "{after}", "{dedupe}"},
			"env": []string{"STARTED_FILE", "EFFECT_FILE", "KEYS_FILE"}, "timeout": "30s"},
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	reg = filepath.Join(dir, "tools.jsonl")
	if err := os.WriteFile(reg, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STARTED_FILE", started)
	t.Setenv("EFFECT_FILE", effect)
	t.Setenv("KEYS_FILE", keys)
	return reg, started, effect, keys
}

// SIGKILL the execute worker while a slow tool with a side effect runs; the
// call's redelivery goes to another worker, or to the restarted one. The
// effect happens once, and the agent gets exactly one result.
//
// Killed before the effect, the tool dies with its worker and the takeover
// does the effect. Killed after the effect but before the execution record
// was written (crash window 3 of package effects), only the tool can tell:
// the takeover runs it again with the same idempotency key, and a tool that
// dedupes on it does not act twice.
func TestSIGKILLMidSlowToolTakesEffectOnce(t *testing.T) {
	tests := []struct {
		name        string
		workers     int
		restart     bool
		afterEffect bool // kill after the effect, not before
	}{
		{"another worker takes over", 2, false, false},
		{"the restarted worker takes over", 1, true, false},
		{"killed after the effect: the idempotency key dedupes", 2, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := startEnv(t)
			reg, startedFile, effectFile, keysFile := slowEffectRegistry(t)
			others := stagesExcept(bind.StageExecute)
			runStagesInProcess(t, env, reg, others...)
			flags := []string{"--concurrency", "1", "--ack-wait", "2s", "--lease", "1s"}
			workers := startWorkers(t, env, tt.workers, bind.StageExecute, reg, flags...)

			session := "sigkill"
			pause, after, dedupe := 2, 0, "no"
			if tt.afterEffect {
				pause, after, dedupe = 1, 2, "yes"
			}
			publishOutput(t, env.JS, schemas.AgentOutput{SessionID: session, MessageID: "slow1",
				Text: fmt.Sprintf(`<tool_call name="test/slow_effect">{"label": "once", "pause": %d, "after": %d, "dedupe": %q}</tool_call>`, pause, after, dedupe)})

			// Kill the worker running the tool, mid-sleep.
			victim := waitStarted(t, startedFile, 1)[0]
			if tt.afterEffect {
				waitStarted(t, effectFile, 1)
			}
			var killed *process
			for _, w := range workers {
				if strconv.Itoa(w.Cmd.Process.Pid) == victim {
					killed = w
				}
			}
			if killed == nil {
				t.Fatalf("the tool's parent %s is none of the workers", victim)
			}
			killedAt := time.Now()
			killed.Kill(syscall.SIGKILL)
			survivor := ""
			if tt.restart {
				w := startWorkers(t, env, 1, bind.StageExecute, reg, flags...)[0]
				survivor = strconv.Itoa(w.Cmd.Process.Pid)
			}

			rs := results(t, env.JS, session, 60*time.Second, countAnswered(1))
			got := byIntent(rs)
			if len(got) != 1 {
				t.Fatalf("%d intents answered, want 1: %+v", len(got), rs)
			}
			for id, r := range got {
				if len(r) != 1 || r[0].Status != schemas.StatusExecuted {
					t.Fatalf("intent %s: %d results, first %s %s", id, len(r), r[0].Status, r[0].Message)
				}
			}
			// Give a tool orphaned by the kill time to do its effect, had it survived.
			if wait := time.Until(killedAt.Add(time.Duration(pause+after+1) * time.Second)); wait > 0 {
				time.Sleep(wait)
			}
			// Any late duplicate result would be on the stream by now.
			if more := byIntent(results(t, env.JS, session, 2*time.Second, nil)); len(more) != 1 || len(more[firstKey(more)]) != 1 {
				t.Fatalf("results after the wait: %+v", more)
			}
			ran := records(t, effectFile)["once"]
			if len(ran) != 1 {
				t.Fatalf("effect happened %d times (by workers %v), want once", len(ran), ran)
			}
			starts := records(t, startedFile)["once"]
			if len(starts) != 2 || starts[0] != victim || starts[1] == victim {
				t.Fatalf("tool started by %v; want a start by the killed worker %s and one by another", starts, victim)
			}
			if !tt.afterEffect && ran[0] == victim {
				t.Fatalf("effect by the killed worker %s; its tool should have died with it", victim)
			}
			keys := records(t, keysFile)["once"]
			if len(keys) != 2 || keys[0] != keys[1] || keys[0] == "" {
				t.Errorf("idempotency keys of the two runs: %v; want the same key twice", keys)
			}
			if survivor != "" && ran[0] != survivor {
				t.Errorf("effect by %s, want the restarted worker %s", ran[0], survivor)
			}
			rec := executionRecord(t, env, session, "slow1.0")
			if rec.State != effects.StateDone || rec.Claims != 2 {
				t.Errorf("execution record: state %s, %d claims; want done after a takeover (2 claims)", rec.State, rec.Claims)
			}
		})
	}
}

func firstKey(m map[string][]schemas.Result) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}

// waitStarted waits until the tool has started n times and returns the
// pids of the workers that started it.
func waitStarted(t *testing.T, file string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if pids := records(t, file)["once"]; len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tool did not start %d times", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func executionRecord(t *testing.T, env *pipelinetest.Env, session, intent string) effects.Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	x, err := effects.OpenExecutions(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := x.Get(ctx, effects.ID{SessionID: session, IntentID: intent})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
