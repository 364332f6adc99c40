package integration

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/llmresolve/llmtest"
	"github.com/toolyard/toolyard/workers/resolve"
)

// TestProtocolFakeLLMResolveWorker runs a resolve worker process with
// --llm ollama against a fake model server (scripted replies over the real
// Ollama chat protocol): the model's arguments are executed, an unsure
// model yields alternatives instead of a run, and a model that answers
// nonsense falls back to the deterministic resolver.
func TestProtocolFakeLLMResolveWorker(t *testing.T) {
	env := startEnv(t)
	reg, recordFile := testRegistry(t)
	fake := llmtest.NewFakeServer(t)
	others := stagesExcept(bind.StageResolve)
	runStagesInProcess(t, env, reg, others...)
	startWorkers(t, env, 1, bind.StageResolve, reg,
		"--llm", "ollama", "--llm-url", fake.OllamaURL(), "--llm-model", "fake-model", "--llm-timeout", "10s")

	pick := `{"use_tool": true, "server": "test", "tool": "test/record", "confidence": 0.95, "reasoning": "it records"}`
	steps := []struct {
		label    string
		replies  []llmtest.Reply
		status   string
		recorded string
		decision string
	}{
		{"llm", []llmtest.Reply{{Text: pick}, {Text: `{"label": "chosen-by-model", "pause": 0}`}},
			schemas.StatusExecuted, "chosen-by-model", resolve.DecisionResolvedLLM},
		{"unsure", []llmtest.Reply{{Text: `<tool_call><item_id>test/record</item_id><confidence>0.4</confidence></tool_call>`}},
			schemas.StatusMultiple, "", resolve.DecisionUnsure},
		{"fallback", []llmtest.Reply{{Text: "no idea"}, {Text: "still no idea"}},
			schemas.StatusExecuted, "fallback", resolve.DecisionFallback},
	}
	for _, st := range steps {
		fake.Script(st.replies...)
		session := "llm-" + st.label
		publishOutput(t, env.JS, schemas.AgentOutput{SessionID: session, MessageID: st.label,
			Text: "[TOOL: test/record label=" + st.label + "]"})
		rs := byIntent(results(t, env.JS, session, 60*time.Second, countAnswered(1)))
		got := rs[st.label+".0"]
		if len(got) != 1 {
			t.Fatalf("%s: results %+v", st.label, rs)
		}
		if got[0].Status != st.status {
			t.Fatalf("%s: status %s, want %s: %s", st.label, got[0].Status, st.status, got[0].Message)
		}
		if st.recorded != "" {
			if _, ok := records(t, recordFile)[st.recorded]; !ok {
				t.Errorf("%s: label %q not recorded; log: %v", st.label, st.recorded, records(t, recordFile))
			}
		}
		audits := env.Collect(t, pipeline.StreamAudit, schemas.AuditSubject(bind.StageResolve, session), 1, 10*time.Second)
		if len(audits) != 1 {
			t.Fatalf("%s: %d resolve audit records", st.label, len(audits))
		}
		var a schemas.AuditRecord
		if err := json.Unmarshal(audits[0].Data(), &a); err != nil {
			t.Fatal(err)
		}
		if a.Decision != st.decision {
			t.Errorf("%s: audit decision %q, want %q", st.label, a.Decision, st.decision)
		}
	}
	if n := len(fake.Requests()); n != 5 {
		t.Errorf("the model got %d requests, want 5", n)
	}
	if _, ran := records(t, recordFile)["llm"]; ran {
		t.Error("the intent's own label ran although the model gave another")
	}
	if _, ran := records(t, recordFile)["unsure"]; ran {
		t.Error("an unsure model's tool ran")
	}
	if i := slices.IndexFunc(fake.Requests(), func(r llmtest.Request) bool { return !strings.Contains(r.Path, "/api/chat") }); i >= 0 {
		t.Errorf("request %d went to %s", i, fake.Requests()[i].Path)
	}
}
