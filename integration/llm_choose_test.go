package integration

import (
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/llmresolve/llmtest"
)

// TestProtocolFakeLLMDisambiguatesMediumTier runs routing and the choose
// stage in a worker process with --llm-disambiguate against a fake Ollama
// server, with thresholds that put every intent in the medium tier: the
// model's confident pick is resolved and executed; when it sees no fit the
// agent gets the alternatives.
func TestProtocolFakeLLMDisambiguatesMediumTier(t *testing.T) {
	env := startEnv(t)
	reg, recordFile := testRegistry(t)
	fake := llmtest.NewFakeServer(t)
	others := stagesExcept(bind.StageRoute, bind.StageChoose)
	runStagesInProcess(t, env, reg, others...)
	startWorkers(t, env, 1, bind.StageRoute+","+bind.StageChoose, reg,
		"--activate-threshold", "0.9999", "--multiple-threshold", "0.0001", "--weak-threshold", "0.00005",
		"--llm", "ollama", "--llm-url", fake.OllamaURL(), "--llm-model", "fake-model", "--llm-disambiguate")

	steps := []struct {
		label, reply, status string
		ran                  bool
	}{
		{"picked", `{"use_tool": true, "server": "test", "tool": "test/record", "confidence": 0.92, "reasoning": "the user asked to record"}`, schemas.StatusExecuted, true},
		{"nofit", `{"use_tool": false, "reasoning": "unclear"}`, schemas.StatusMultiple, false},
	}
	for _, st := range steps {
		fake.Script(llmtest.Reply{Text: st.reply})
		session := "choose-" + st.label
		publishOutput(t, env.JS, schemas.AgentOutput{SessionID: session, MessageID: st.label,
			Text:         "[TOOL: test/record label=" + st.label + "]",
			Conversation: []schemas.Message{{Role: "user", Content: "please note " + st.label + " in the test log"}}})
		rs := byIntent(results(t, env.JS, session, 60*time.Second, countAnswered(1)))
		got := rs[st.label+".0"]
		if len(got) != 1 || got[0].Status != st.status {
			t.Fatalf("%s: results %+v, want one %s", st.label, got, st.status)
		}
		if _, ran := records(t, recordFile)[st.label]; ran != st.ran {
			t.Errorf("%s: ran %v, want %v", st.label, ran, st.ran)
		}
	}
	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2", len(reqs))
	}
	if !strings.Contains(reqs[0].Last(), "please note picked in the test log") {
		t.Errorf("the model was not shown the conversation:\n%s", reqs[0].Last())
	}
	if !strings.Contains(reqs[0].Last(), "label (string, required)") {
		t.Errorf("the model was not shown the candidates' parameters:\n%s", reqs[0].Last())
	}
}
