package integration

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// benchJSON runs 'toolyard bench pipeline' with args and decodes the one
// JSON object it prints.
func benchJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out := toolyard(t, append([]string{"bench", "pipeline", "--json"}, args...)...)
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	return got
}

// positive reads the named figures and fails the test unless each is a
// number above zero.
func positive(t *testing.T, got map[string]any, keys ...string) map[string]float64 {
	t.Helper()
	vals := map[string]float64{}
	for _, k := range keys {
		v, ok := got[k].(float64)
		if !ok || v <= 0 {
			t.Errorf("%s = %v, want a number above 0 (all: %v)", k, got[k], got)
		}
		vals[k] = v
	}
	return vals
}

// The benchmark starts its own server (auth on) and stages, sends every
// intent through them, reports the contract's keys with sane values, and,
// with --raw, plain JetStream's figure from the same kind of server.
func TestBenchPipelineCLI(t *testing.T) {
	const uptime = "how long has the system been up"
	// What one intent of one output stores: the output, an audit record per
	// decision (parse, discover, route, resolve, execute), the hand-offs
	// that go through PIPE (only to execute when the stages chain in
	// process), the execution record's claim and result, a receipt and a
	// result.
	chained := map[string]float64{"AGENT": 1, "AUDIT": 5, "PIPE": 1, "KV_executions": 2, "RESULT": 2}
	unchained := maps.Clone(chained)
	unchained["PIPE"] = 4
	for _, tc := range []struct {
		name    string
		args    []string
		raw     bool
		workers float64
		tool    string
		stored  map[string]float64
	}{
		{"pipeline", []string{"--intents", "200"}, false, 0, "toolyard/help", chained},
		{"with raw", []string{"--intents", "200", "--raw", "--raw-messages", "20000"}, true, 0, "toolyard/help", chained},
		// The stages in two worker processes over TCP with the worker
		// credential, as an operator runs them.
		{"worker processes", []string{"--intents", "200", "--workers", "2", "--local-handoff=false"}, false, 2, "toolyard/help", unchained},
		// A subprocess tool of a registry file, found by discovery and run
		// by the executor for every intent: none fails, so each ran.
		{"a tool of --tools", []string{"--intents", "200", "--tools", "../ops/sample/tools.jsonl", "--tool", uptime}, false, 0, uptime, chained},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := benchJSON(t, tc.args...)
			v := positive(t, got, "intents_per_s", "p50_ms", "p99_ms", "seconds")
			if v["p50_ms"] > v["p99_ms"] {
				t.Errorf("p50 %v ms above p99 %v ms", v["p50_ms"], v["p99_ms"])
			}
			if got["intents"] != 200.0 || got["failed"] != 0.0 || got["server"] != "embedded" {
				t.Errorf("want 200 intents, none failed, on the embedded server: %v", got)
			}
			// Throughput and time agree: every intent was counted once.
			if n := v["intents_per_s"] * v["seconds"]; n < 199 || n > 201 {
				t.Errorf("intents_per_s × seconds = %v, want 200", n)
			}
			stored := map[string]float64{}
			if m, ok := got["stored_per_intent"].(map[string]any); ok {
				for k, v := range m {
					stored[k], _ = v.(float64)
				}
			}
			if !maps.Equal(stored, tc.stored) {
				t.Errorf("stored per intent %v, want %v", stored, tc.stored)
			}
			if got["tool"] != tc.tool {
				t.Errorf("tool %v, want %q", got["tool"], tc.tool)
			}
			if w, _ := got["workers"].(float64); w != tc.workers {
				t.Errorf("workers %v, want %v", got["workers"], tc.workers)
			}
			_, hasRaw := got["raw_msgs_per_s"]
			if hasRaw != tc.raw {
				t.Errorf("raw_msgs_per_s present: %v, want %v", hasRaw, tc.raw)
			}
			if tc.raw {
				r := positive(t, got, "raw_msgs_per_s", "raw_publish_per_s")
				if got["raw_messages"] != 20000.0 {
					t.Errorf("raw_messages %v, want 20000", got["raw_messages"])
				}
				// Each intent is several stages of JetStream work: the
				// pipeline cannot beat one plain message.
				if v["intents_per_s"] > r["raw_msgs_per_s"] {
					t.Errorf("pipeline %v intents/s above raw JetStream %v msgs/s", v["intents_per_s"], r["raw_msgs_per_s"])
				}
			}
		})
	}
}

// With --nats the benchmark only publishes and measures: the stages are
// whatever workers serve that server (here, this test's).
func TestBenchPipelineAgainstExternalServer(t *testing.T) {
	env := startEnv(t)
	runStagesInProcess(t, env, "")
	got := benchJSON(t, "--nats", env.Server.ClientURL(), "--intents", "40", "--in-flight", "4")
	positive(t, got, "intents_per_s", "p50_ms", "p99_ms")
	if got["server"] != env.Server.ClientURL() || got["failed"] != 0.0 || got["intents"] != 40.0 {
		t.Errorf("want 40 intents through %s, none failed: %v", env.Server.ClientURL(), got)
	}
	if _, ok := got["stage_concurrency"]; ok {
		t.Errorf("stage_concurrency reported for stages the benchmark does not run: %v", got)
	}
	// Other clients may write to a server the benchmark does not own.
	if _, ok := got["stored_per_intent"]; ok {
		t.Errorf("stored_per_intent reported for a server others may write to: %v", got)
	}
}

// Words no tool answers fail the run at once, with the agent's answer
// rather than a guess that the stages are down; --tools is refused where
// it cannot apply.
func TestBenchPipelineToolErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no such tool", []string{"--intents", "10", "--tool", "frobnicate the quux"}, "not_found"},
		{"brackets", []string{"--intents", "10", "--tool", "[x]"}, "without brackets"},
		{"tools with worker processes", []string{"--intents", "10", "--workers", "2", "--tools", "../ops/sample/tools.jsonl"}, "--workers processes read only the builtins"},
		{"tools with --nats", []string{"--intents", "10", "--nats", "nats://127.0.0.1:1", "--tools", "../ops/sample/tools.jsonl"}, "the workers' registry answers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runToolyard(append([]string{"bench", "pipeline"}, tc.args...)...)
			if err == nil {
				t.Fatalf("no error:\n%s", out)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output does not say %q:\n%s", tc.want, out)
			}
			if strings.Contains(out, "are the stages running") {
				t.Errorf("blames the stages for an answer they gave:\n%s", out)
			}
		})
	}
}

// With TOOLYARD_NATS set (as in the deploy files' containers) and no
// --nats, bench measures an embedded server of its own: it says so, so the
// figure is not taken for the cluster's.
func TestBenchPipelineSaysItIgnoresTOOLYARDNATS(t *testing.T) {
	c := exec.Command(binary, "bench", "pipeline", "--intents", "5")
	c.Env = append(os.Environ(), "TOOLYARD_NATS=nats://127.0.0.1:1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `TOOLYARD_NATS is set, but without --nats this measures an embedded server of its own`) {
		t.Errorf("bench does not say it ignores TOOLYARD_NATS:\n%s", out)
	}
}

// How long an output may wait is the operator's to set (a run through a
// worker kill needs more than the workers' --ack-wait), and an output
// that waited too long names the flag.
func TestBenchPipelineOutputTimeout(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"not positive", []string{"--output-timeout", "0s"}, "--output-timeout 0s: want a positive duration"},
		{"too short to answer", []string{"--output-timeout", "1ns"}, "results after 1ns (--output-timeout)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runToolyard(append([]string{"bench", "pipeline", "--intents", "5"}, tc.args...)...)
			if err == nil || !strings.Contains(out, tc.want) {
				t.Errorf("want an error saying %q, got %v:\n%s", tc.want, err, out)
			}
		})
	}
}
