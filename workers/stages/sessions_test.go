package stages_test

import (
	"context"
	"errors"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/session"
	"github.com/toolyard/toolyard/workers/stages"
)

// An embedder that was configured but down at start leaves discovery
// keyword-only; session sets then stay empty rather than be chosen by half
// the evidence, while plain keyword deployments seed as usual.
func TestSessionsFailSafeWhenVectorsWereRequired(t *testing.T) {
	env := pipelinetest.Start(t)
	st, err := session.Open(context.Background(), env.JS)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		require bool
		empty   bool
	}{{"vectors required", true, true}, {"keyword deployment", false, false}} {
		t.Run(tt.name, func(t *testing.T) {
			set, err := stages.New(stages.Config{Tools: ms, Discover: []discover.Option{discover.WithMode(discover.ModeAuto)},
				Sessions: &stages.SessionConfig{Store: st, RequireVectors: tt.require}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = set.StrictSearch(context.Background(), "how long has the system been up", 8, nil)
			if tt.require != errors.Is(err, discover.ErrEmbedderFailed) {
				t.Fatalf("strict search: %v", err)
			}
			sd, err := set.Seeder()
			if err != nil {
				t.Fatal(err)
			}
			ts, _, err := sd.Seed(context.Background(), schemas.AgentOutput{SessionID: "s" + tt.name[:1], MessageID: "m", Text: "how long has the system been up"})
			if err != nil || (len(ts.Tools) == 0) != tt.empty || (ts.Degraded != "") != tt.empty {
				t.Fatalf("seeded %v (degraded %q), %v", ts.IDs(), ts.Degraded, err)
			}
		})
	}
}
