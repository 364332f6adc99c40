package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/stages"
)

var frobnicator = schemas.Manifest{
	ID: "acme/frobnicate_widgets", Name: "frobnicate_widgets",
	Description: "Frobnicate the widgets of a production line, reporting each widget's frobnication level.",
	Keywords:    []string{"frobnicate", "widgets"},
}

// followers starts n stage sets that follow the registry, as n discover
// workers would.
func followers(t *testing.T, env *pipelinetest.Env, n int) []*stages.Set {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	store, err := registry.OpenStore(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	var sets []*stages.Set
	for i := 0; i < n; i++ {
		set, err := stages.New(stages.Config{Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		if err := set.Follow(ctx, store); err != nil {
			t.Fatal(err)
		}
		sets = append(sets, set)
	}
	return sets
}

// waitTop waits until the set's best match for query is (or, with want
// empty, is no longer) the frobnicator.
func waitTop(t *testing.T, set *stages.Set, query string, present bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		cs, err := set.Engine().Search(context.Background(), query, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		found := len(cs) > 0 && cs[0].ToolID == frobnicator.ID
		if found == present {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 5s the registry change has not reached a worker (present=%v, top=%v)", present, cs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRegistryChangesReachEveryWorker(t *testing.T) {
	env := startEnv(t)
	ctx := context.Background()
	store, err := registry.OpenStore(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Import(ctx, tools, false); err != nil {
		t.Fatal(err)
	}
	workers := followers(t, env, 2)
	for _, w := range workers {
		if want := len(tools) + len(execute.BuiltinManifests()); w.Registry().Len() != want {
			t.Fatalf("worker loaded %d tools, want %d: the %d registered and the builtins", w.Registry().Len(), want, len(tools))
		}
	}
	if _, err := store.Import(ctx, []schemas.Manifest{frobnicator}, false); err != nil {
		t.Fatal(err)
	}
	for _, w := range workers {
		waitTop(t, w, "frobnicate the widgets", true)
	}
	// Re-importing the same tool changes nothing; a different tool under its
	// id is refused.
	rep, err := store.Import(ctx, []schemas.Manifest{frobnicator}, false)
	if err != nil || len(rep.Unchanged) != 1 {
		t.Fatalf("identical re-import: %+v %v", rep, err)
	}
	other := frobnicator
	other.Description = "Something else entirely."
	if _, err := store.Import(ctx, []schemas.Manifest{other}, false); err == nil || !strings.Contains(err.Error(), "different tool") {
		t.Fatalf("conflicting import: %v", err)
	}
	if missing, err := store.Remove(ctx, frobnicator.ID); err != nil || len(missing) != 0 {
		t.Fatal(missing, err)
	}
	for _, w := range workers {
		waitTop(t, w, "frobnicate the widgets", false)
		if _, ok := w.Registry().Get(frobnicator.ID); ok {
			t.Error("removed tool still in a worker's registry")
		}
	}
}

// Two discover worker processes follow a tool added and removed with the CLI.
//
// Each process applies a registry change from its own KV watch, a few
// milliseconds after the CLI returns, so an intent published at once may
// still meet the old registry. The test therefore waits until every
// process says it applied the change (its debug log), and only then asks:
// from then on every answer must reflect it, with no retries. Every tier
// is answered (choose and answer run too), so an intent that does not
// offer the tool is counted as such rather than waited for: 0 offered after
// the removal means 8 answers without the tool, not 8 lost intents.
func TestToolsCLIChangesReachWorkerProcesses(t *testing.T) {
	env := startEnv(t)
	reg, _ := testRegistry(t)
	url := env.Server.ClientURL()
	runStagesInProcess(t, env, reg, bind.StageParse, bind.StageRoute, bind.StageChoose, bind.StageAnswer, bind.StageResolve, bind.StageExecute)
	workers := startWorkers(t, env, 2, bind.StageDiscover, reg, "--concurrency", "1", "--log-level", "debug")
	applied := func(removed bool) {
		t.Helper()
		for _, w := range workers {
			w.WaitOutput(t, fmt.Sprintf("id=%s removed=%v", frobnicator.ID, removed), 10*time.Second)
		}
	}

	add := exec.Command(binary, "tools", "add", "--nats", url, "-")
	add.Stdin = strings.NewReader(`{"id": "acme/frobnicate_widgets", "description": "Frobnicate the widgets of a production line.", "keywords": ["frobnicate", "widgets"]}`)
	if out, err := add.CombinedOutput(); err != nil || !strings.Contains(string(out), "1 added") {
		t.Fatalf("tools add: %v\n%s", err, out)
	}
	// offered asks 8 intents (spread over both workers), checks each is
	// answered, and counts those whose answer offers the frobnicator.
	round := 0
	offered := func(what string) int {
		t.Helper()
		round++
		session := fmt.Sprintf("r%d", round)
		for i := 0; i < 8; i++ {
			publishOutput(t, env.JS, schemas.AgentOutput{SessionID: session, MessageID: fmt.Sprintf("%s-%d", session, i), Text: "[TOOL: frobnicate the widgets of line 4]"})
		}
		answers := byIntent(results(t, env.JS, session, 30*time.Second, countAnswered(8)))
		if len(answers) != 8 {
			t.Fatalf("%s: %d of 8 intents answered: %v", what, len(answers), answers)
		}
		n := 0
		for _, rs := range answers {
			if r := rs[0]; r.ToolID == frobnicator.ID || hasMatch(r, frobnicator.ID) {
				n++
			}
		}
		return n
	}
	applied(false)
	if got := offered("after tools add"); got != 8 {
		t.Fatalf("after tools add: %d of 8 intents offered the tool, want 8", got)
	}
	if out, err := exec.Command(binary, "tools", "remove", "--nats", url, frobnicator.ID).CombinedOutput(); err != nil {
		t.Fatalf("tools remove: %v\n%s", err, out)
	}
	applied(true)
	if got := offered("after tools remove"); got != 0 {
		t.Fatalf("after tools remove: %d of 8 intents offered the tool, want 0", got)
	}
	// Invalid manifests are refused with the reason.
	bad := exec.Command(binary, "tools", "add", "--nats", url, "-")
	bad.Stdin = strings.NewReader(`{"id": "acme/bad", "description": "x", "parameters": {"type": "object", "properties": {"n": {"type": "nope"}}}}`)
	if out, err := bad.CombinedOutput(); err == nil || !strings.Contains(string(out), "not a valid JSON Schema") {
		t.Errorf("invalid manifest: %v\n%s", err, out)
	}
}

func hasMatch(r schemas.Result, id string) bool {
	for _, m := range r.Matches {
		if m.ToolID == id {
			return true
		}
	}
	return false
}

// New routing thresholds published to the models bucket are in force on a
// running worker without a restart.
func TestThresholdsHotReload(t *testing.T) {
	env := startEnv(t)
	reg, _ := testRegistry(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tools, err := registry.LoadFile(reg)
	if err != nil {
		t.Fatal(err)
	}
	set, err := stages.New(stages.Config{Tools: tools, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	store, err := models.Open(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	set.FollowModels(ctx, store)
	st, err := set.Stage(bind.StageRoute)
	if err != nil {
		t.Fatal(err)
	}
	route := func() string {
		t.Helper()
		cands, err := set.Engine().Discover(ctx, schemas.Intent{ID: "m.0", SessionID: "s", MessageID: "m", Text: "test/record label=x", Start: 0, End: 1})
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(cands)
		outs, err := st.Handler(ctx, &pipeline.Msg{Subject: "pipe.route.s", Data: data})
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(outs[0].Subject, "pipe.resolve.") {
			return schemas.TierActivated
		}
		var r schemas.Result
		_ = json.Unmarshal(outs[0].Data, &r)
		return r.Status
	}
	if got := route(); got != schemas.TierActivated {
		t.Fatalf("before: %s, want activated", got)
	}
	if _, err := store.Publish(ctx, models.KeyThresholds, map[string]float64{"activate": 1, "multiple": 0.5, "weak": 0.3}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for route() == schemas.TierActivated {
		if time.Now().After(deadline) {
			t.Fatal("new thresholds not in force after 5s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
