package llmresolve_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/llmresolve"
	"github.com/toolyard/toolyard/workers/llmresolve/llmtest"
	"github.com/toolyard/toolyard/workers/resolve"
)

// TestProtocolBreakerSkipsAFailingModel: after two failed requests the
// model is not asked for the cooldown (the deterministic resolver answers
// at once), then one probe finds it back.
func TestProtocolBreakerSkipsAFailingModel(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			const cooldown = 300 * time.Millisecond
			r, srv := newResolver(t, provider, []llmtest.Reply{{Status: http.StatusBadGateway}, {Status: http.StatusBadGateway}},
				llmresolve.WithBreaker(2, cooldown))
			resolveOnce := func() resolve.Outcome {
				t.Helper()
				out, err := r.ResolveRouted(context.Background(), routed(intentText), lookup)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			for i := range 3 {
				if out := resolveOnce(); out.Decision != resolve.DecisionFallback {
					t.Fatalf("resolution %d: decision %s, want a fallback", i, out.Decision)
				}
			}
			if n := len(srv.Requests()); n != 2 {
				t.Fatalf("the model got %d requests, want 2 (the third skipped)", n)
			}
			if out := resolveOnce(); !strings.Contains(out.Note, "skipped after repeated failures") {
				t.Errorf("note %q should say the model was skipped", out.Note)
			}
			time.Sleep(cooldown + 50*time.Millisecond)
			srv.Script(text(pickScrape), text(argsScrape))
			if out := resolveOnce(); out.Decision != resolve.DecisionResolvedLLM {
				t.Fatalf("after the cooldown: decision %s (%s), want the model's call", out.Decision, out.Note)
			}
			if n := len(srv.Requests()); n != 4 {
				t.Errorf("the model got %d requests, want 4", n)
			}
		})
	}
}
