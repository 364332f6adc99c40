package route_test

import (
	"context"
	"encoding/json"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/route"
)

func handle(t *testing.T, st pipeline.Stage, subject string, v any) []pipeline.Out {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := st.Handler(context.Background(), &pipeline.Msg{Subject: subject, Data: data})
	if err != nil {
		t.Fatalf("%s: %v", st.Name, err)
	}
	return outs
}

// handOff returns the one output that is not an audit record.
func handOff(t *testing.T, outs []pipeline.Out) pipeline.Out {
	t.Helper()
	var got []pipeline.Out
	for _, o := range outs {
		if !strings.HasPrefix(o.Subject, schemas.AuditPrefix) {
			got = append(got, o)
		}
	}
	if len(got) != 1 || len(outs) != 2 {
		t.Fatalf("outputs %d, hand-offs %d; want one hand-off and one audit record", len(outs), len(got))
	}
	// As published: a hand-off left unencoded (pipeline.Handoff) is
	// encoded here, so the tests read the bytes a worker would send.
	data, err := got[0].Bytes()
	if err != nil {
		t.Fatal(err)
	}
	got[0].Data = data
	return got[0]
}

// Each tier leaves routing on its own subject; the stages behind them
// answer the agent (or, for the medium tier with a disambiguator, resolve).
func TestTiersFlowThroughTheirStages(t *testing.T) {
	live, _ := route.NewLive(route.DefaultThresholds())
	routeStage := route.Stage(live)
	answer := route.AnswerStage()
	tests := []struct {
		conf        float64
		tier, next  string
		finalStatus string
	}{
		{0.9, schemas.TierActivated, "pipe.resolve.s", ""},
		{0.6, schemas.TierMultiple, "pipe.choose.s", schemas.StatusMultiple},
		{0.4, schemas.TierWeak, "pipe.answer.weak_matches.s", schemas.StatusWeak},
		{0.1, schemas.TierNotFound, "pipe.answer.not_found.s", schemas.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.tier, func(t *testing.T) {
			in := schemas.Intent{ID: "m.0", SessionID: "s", MessageID: "m", Text: "post the weekly report", End: 5}
			c := schemas.Candidates{Intent: in, Candidates: []schemas.Candidate{
				{ToolID: "email/send", Name: "send", Confidence: tt.conf, MatchType: schemas.MatchHybrid},
				{ToolID: "slack/post_message", Name: "post", Confidence: tt.conf / 2, MatchType: schemas.MatchHybrid},
			}}
			before := testutil.ToFloat64(route.Decisions.WithLabelValues(tt.tier))
			out := handOff(t, handle(t, routeStage, "pipe.route.s", c))
			if got := testutil.ToFloat64(route.Decisions.WithLabelValues(tt.tier)) - before; got != 1 {
				t.Errorf("toolyard_intents_total{tier=%q} went up by %v, want 1", tt.tier, got)
			}
			if out.Subject != tt.next {
				t.Fatalf("routed to %s, want %s", out.Subject, tt.next)
			}
			r, err := schemas.Decode[schemas.Routed](schemas.KindRouted, out.Data)
			if err != nil || r.Tier != tt.tier {
				t.Fatalf("hand-off %v: %s", err, out.Data)
			}
			if tt.finalStatus == "" {
				return
			}
			st := answer
			if tt.tier == schemas.TierMultiple {
				st = route.ChooseStage(nil)
			}
			res := handOff(t, handle(t, st, out.Subject, r))
			if res.Subject != "result.s" {
				t.Fatalf("answered on %s", res.Subject)
			}
			got, err := schemas.Decode[schemas.Result](schemas.KindResult, res.Data)
			if err != nil || got.Status != tt.finalStatus || got.Message == "" || got.IntentID != "m.0" {
				t.Fatalf("result %v: %s", err, res.Data)
			}
			if tt.tier != schemas.TierNotFound && (len(got.Matches) == 0 || got.Matches[0].ToolID != "email/send") {
				t.Errorf("matches %v", got.Matches)
			}
		})
	}
}

func TestChooseStageHandsAChoiceToResolveFakeLLM(t *testing.T) {
	live, _ := route.NewLive(route.DefaultThresholds())
	in := schemas.Intent{ID: "m.0", SessionID: "s", MessageID: "m", Text: "post the weekly report", End: 5}
	c := schemas.Candidates{Intent: in, Candidates: []schemas.Candidate{
		{ToolID: "email/send", Name: "send", Confidence: 0.6, MatchType: schemas.MatchHybrid},
		{ToolID: "slack/post_message", Name: "post", Confidence: 0.55, MatchType: schemas.MatchHybrid},
	}}
	routed := handOff(t, handle(t, route.Stage(live), "pipe.route.s", c))
	llm := &scriptedLLM{choice: route.Choice{ToolID: "slack/post_message", Confidence: 0.95, Reason: "the conversation is about Slack"}}
	var r schemas.Routed
	_ = json.Unmarshal(routed.Data, &r)
	next := handOff(t, handle(t, route.ChooseStage(nil, route.WithDisambiguator(llm, 0)), routed.Subject, r))
	if next.Subject != bind.PipeSubject(bind.StageResolve, "s") {
		t.Fatalf("chosen intent went to %s", next.Subject)
	}
	// The second hand-off of the intent must not look like a duplicate of the first.
	if next.ID == routed.ID || next.ID == "" {
		t.Fatalf("hand-off ids %q and %q", routed.ID, next.ID)
	}
	got, err := schemas.Decode[schemas.Routed](schemas.KindRouted, next.Data)
	if err != nil || got.Tier != schemas.TierActivated || got.Candidates[0].ToolID != "slack/post_message" || got.DecidedBy != route.DecidedByDisambiguator {
		t.Fatalf("%v: %s", err, next.Data)
	}
}

func TestAnswerStageRefusesActivated(t *testing.T) {
	st := route.AnswerStage()
	r := schemas.Routed{Intent: schemas.Intent{ID: "m.0", SessionID: "s", MessageID: "m", Text: "x", End: 1}, Tier: schemas.TierActivated,
		Candidates: []schemas.Candidate{{ToolID: "a/b", Name: "b", Confidence: 0.9, MatchType: schemas.MatchKeyword}}}
	data, _ := json.Marshal(r)
	if _, err := st.Handler(context.Background(), &pipeline.Msg{Subject: "pipe.answer.not_found.s", Data: data}); !pipeline.IsPermanent(err) {
		t.Fatalf("activated intent on the answer stage: %v", err)
	}
	if _, err := st.Handler(context.Background(), &pipeline.Msg{Subject: "pipe.answer.not_found.s", Data: []byte(`{"tier": "weak_matches"}`)}); !pipeline.IsPermanent(err) {
		t.Fatalf("invalid input: %v", err)
	}
}
