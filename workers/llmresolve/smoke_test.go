package llmresolve_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/llmresolve"
	"github.com/toolyard/toolyard/workers/resolve"
)

// TestSmokeRealModel runs one resolution against a real model, only when
// TOOLYARD_LLM_URL names its server (TOOLYARD_LLM_PROVIDER: ollama, the
// default, or openai; TOOLYARD_LLM_MODEL: the model, functiongemma or
// gpt-4o-mini by default). Skipped otherwise, which is not a pass.
//
//	ollama pull functiongemma
//	TOOLYARD_LLM_URL=http://127.0.0.1:11434 go test -run TestSmokeRealModel -v ./workers/llmresolve/
func TestSmokeRealModel(t *testing.T) {
	url := os.Getenv("TOOLYARD_LLM_URL")
	if url == "" {
		t.Skip("TOOLYARD_LLM_URL is not set: no real model to talk to")
	}
	cfg := llmresolve.Config{Provider: os.Getenv("TOOLYARD_LLM_PROVIDER"), Model: os.Getenv("TOOLYARD_LLM_MODEL"), URL: url}
	if cfg.Provider == "" {
		cfg.Provider = llmresolve.ProviderOllama
	}
	model, err := llmresolve.NewModel(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := llmresolve.New(model, llmresolve.WithTimeout(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	in := routed("compute the sha256 checksum of the file /etc/hosts")
	cs := candidates()
	cs[0], cs[2] = cs[2], cs[0]
	cs[0].Confidence, cs[2].Confidence = 0.9, 0.1
	in.Candidates = cs
	start := time.Now()
	out, err := r.ResolveRouted(context.Background(), in, lookup)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s:%s answered in %s: decision %s, note %q, call %+v, message %q",
		cfg.Provider, cfg.ModelName(), time.Since(start).Round(time.Millisecond), out.Decision, out.Note, out.Call, out.Message)
	if out.Decision != resolve.DecisionResolvedLLM {
		t.Fatalf("the model did not resolve an easy request itself (decision %s)", out.Decision)
	}
	if out.Call.ToolID != "files/checksum" || out.Call.Parameters["path"] != "/etc/hosts" {
		t.Errorf("call %s %v, want files/checksum with path /etc/hosts", out.Call.ToolID, out.Call.Parameters)
	}
}
