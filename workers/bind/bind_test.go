package bind

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// A rejected input of any stage is answered on the subject's session, naming
// the intent (or output) it was about.
func TestRejecterIdentifiesEveryInputShape(t *testing.T) {
	in := schemas.Intent{ID: "m1.0", SessionID: "s1", MessageID: "m1", Text: "show disk usage"}
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	tests := []struct {
		name, subject string
		data          []byte
		intentID      string
		messageID     string
		text          string
	}{
		{"agent output", "agent.output.s1", enc(schemas.AgentOutput{SessionID: "s1", MessageID: "m1", Text: "hi"}), "", "m1", "hi"},
		{"intent", "pipe.discover.s1", enc(in), "m1.0", "m1", "show disk usage"},
		{"candidates", "pipe.route.s1", enc(schemas.Candidates{Intent: in}), "m1.0", "m1", "show disk usage"},
		{"routed", "pipe.resolve.s1", enc(schemas.Routed{Intent: in}), "m1.0", "m1", "show disk usage"},
		{"tool call", "pipe.execute.s1", enc(schemas.ToolCall{IntentID: "m1.0", SessionID: "s1", MessageID: "m1", Intent: "show disk usage"}), "m1.0", "m1", "show disk usage"},
		{"not JSON", "pipe.execute.s1", []byte("{"), "", "seq-7", ""},
		{"wrong session in payload", "agent.output.s1", enc(schemas.AgentOutput{SessionID: "other", MessageID: "m1"}), "", "m1", ""},
		// Rejected for a field of the wrong type: the others still name it.
		{"text of the wrong type", "agent.output.s1", []byte(`{"session_id": "s1", "message_id": "m1", "text": 42}`), "", "m1", ""},
		{"scope of the wrong type", "agent.output.s1", []byte(`{"session_id": "s1", "message_id": "m1", "text": "hi", "scope": "system"}`), "", "m1", "hi"},
		{"intent id of the wrong type", "pipe.execute.s1", []byte(`{"intent_id": 7, "session_id": "s1", "message_id": "m1", "intent": "show disk usage"}`), "", "m1", "show disk usage"},
		{"an array", "agent.output.s1", []byte(`[1]`), "", "seq-7", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outs := Rejecter("x")(&pipeline.Msg{Subject: tt.subject, Data: tt.data, StreamSeq: 7}, pipeline.Permanent(errors.New("bad")))
			if len(outs) != 2 || outs[0].Subject != "result.s1" || !strings.HasPrefix(outs[1].Subject, "audit.x.s1") {
				t.Fatalf("outs = %+v", outs)
			}
			var r schemas.Result
			if err := json.Unmarshal(outs[0].Data, &r); err != nil {
				t.Fatal(err)
			}
			if r.IntentID != tt.intentID || r.MessageID != tt.messageID || r.Intent != tt.text || r.Status != schemas.StatusError || r.Error.Code != CodeInvalidInput {
				t.Fatalf("result = %+v", r)
			}
			if err := schemas.Validate(schemas.KindResult, outs[0].Data); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// The result of a nested intent also goes to the join stage, on
// pipe.join.<session>, with the same bytes and an id of its own; other
// results do not. A rejected input of a nested intent is answered the same
// way, whatever stage gave it up, but an agent's output never names an
// outer intent for the join stage.
func TestNestedResultsAlsoGoToJoin(t *testing.T) {
	inner := schemas.Intent{ID: "m1.0", SessionID: "s1", MessageID: "m1", Text: "find the url", Outer: "m1.1"}
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	reject := func(stage, subject string, v any) []pipeline.Out {
		return Rejecter(stage)(&pipeline.Msg{Subject: subject, Data: enc(v)}, pipeline.Permanent(errors.New("bad")))
	}
	tests := []struct {
		name  string
		outs  []pipeline.Out
		joins bool
	}{
		{"top-level result", Result(schemas.Result{SessionID: "s1", IntentID: "m1.2", Status: schemas.StatusExecuted}), false},
		{"nested result", Result(schemas.Result{SessionID: "s1", IntentID: "m1.0", Status: schemas.StatusExecuted, Outer: "m1.1"}), true},
		{"rejected nested intent", reject(StageDiscover, "pipe.discover.s1", inner), true},
		{"rejected nested routing", reject(StageResolve, "pipe.resolve.s1", schemas.Routed{Intent: inner}), true},
		{"rejected nested call", reject(StageExecute, "pipe.execute.s1", schemas.ToolCall{IntentID: "m1.0", SessionID: "s1", Outer: "m1.1"}), true},
		{"rejected top-level intent", reject(StageDiscover, "pipe.discover.s1", schemas.Intent{ID: "m1.2", SessionID: "s1"}), false},
		{"an agent output naming an outer intent", reject(StageParse, "agent.output.s1", map[string]any{"session_id": "s1", "message_id": "m1", "text": "x", "outer": "m1.1"}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var joins []pipeline.Out
			var result pipeline.Out
			for _, o := range tt.outs {
				switch {
				case o.Subject == "pipe.join.s1":
					joins = append(joins, o)
				case o.Subject == "result.s1":
					result = o
				}
			}
			if got := len(joins) == 1; got != tt.joins || len(joins) > 1 {
				t.Fatalf("%d outs to the join stage, want joins=%v: %+v", len(joins), tt.joins, tt.outs)
			}
			if !tt.joins {
				return
			}
			if string(joins[0].Data) != string(result.Data) || joins[0].ID == result.ID || joins[0].ID != MsgID("s1", "m1.0:join") {
				t.Errorf("join copy %+v, result %+v", joins[0], result)
			}
		})
	}
}

func TestWithCandidates(t *testing.T) {
	a := WithCandidates(IntentAudit("route", schemas.Intent{ID: "i", SessionID: "s", Text: "t"}),
		[]schemas.Candidate{{ToolID: "a", Confidence: 0.9}, {ToolID: "b"}})
	if a.ToolID != "a" || a.Confidence != 0.9 || strings.Join(a.Candidates, ",") != "a,b" || a.IntentExpressed != "t" || a.Stage != "route" {
		t.Fatalf("%+v", a)
	}
}
