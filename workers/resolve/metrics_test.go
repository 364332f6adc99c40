package resolve

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// Each resolution is counted by outcome, with its arguments: filled from
// the request, missing, or stated and unused.
func TestStageCountsResolutions(t *testing.T) {
	tool := schemas.Manifest{ID: "net/probe", Name: "probe", Description: "Check that a host answers on a port",
		Parameters: json.RawMessage(`{"type":"object","required":["host","port"],"properties":{
			"host":{"type":"string","description":"host name"},
			"port":{"type":"integer","description":"TCP port"}}}`)}
	reg := registry.New(tool)
	tests := []struct {
		name, text, outcome       string
		filled, missing, unplaced float64
	}{
		{"complete", "probe host=db1 port=5432", OutcomeResolved, 2, 0, 0},
		{"a required argument missing", "probe host=db1", OutcomeMissing, 1, 1, 0},
		{"nothing given", "probe it", OutcomeMissing, 0, 2, 0},
		{"a value no parameter takes", "probe host=db1 port=5432 retries=3", OutcomeResolved, 2, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resolutions := testutil.ToFloat64(Resolutions.WithLabelValues(tt.outcome))
			args := map[string]float64{}
			for _, l := range []string{"filled", "missing", "unplaced"} {
				args[l] = testutil.ToFloat64(Arguments.WithLabelValues(l))
			}
			in := schemas.Intent{V: schemas.Version, ID: "m1.0", SessionID: "s1", MessageID: "m1", Text: tt.text, End: len(tt.text)}
			data, err := json.Marshal(schemas.Routed{V: schemas.Version, Intent: in, Tier: schemas.TierActivated,
				Candidates: []schemas.Candidate{{ToolID: tool.ID, Confidence: 0.95, MatchType: "hybrid"}}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Stage(reg).Handler(context.Background(), &pipeline.Msg{Subject: "pipe.resolve.s1", Data: data, NumDelivered: 1}); err != nil {
				t.Fatal(err)
			}
			if got := testutil.ToFloat64(Resolutions.WithLabelValues(tt.outcome)) - resolutions; got != 1 {
				t.Errorf("toolyard_resolutions_total{outcome=%q} rose by %v, want 1", tt.outcome, got)
			}
			for l, want := range map[string]float64{"filled": tt.filled, "missing": tt.missing, "unplaced": tt.unplaced} {
				if got := testutil.ToFloat64(Arguments.WithLabelValues(l)) - args[l]; got != want {
					t.Errorf("toolyard_resolved_arguments_total{outcome=%q} rose by %v, want %v", l, got, want)
				}
			}
		})
	}
}
