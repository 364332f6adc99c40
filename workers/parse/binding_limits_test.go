package parse

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Every input check of the parse binding fails the whole output with a
// permanent, coded error whose message names the rule and how to comply,
// and the rejection goes to the subject's session only when it has one.
func TestStageRefusesBadInput(t *testing.T) {
	good := `{"session_id":"s1","message_id":"m1","text":"[TOOL: show disk usage]"}`
	tests := []struct {
		name, subject, data string
		opts                []StageOption
		before              int // outputs of the session handled first
		code, mentions      string
		answerOn            string // the rejecter's result subject; "" for no answer at all
	}{
		{"invalid UTF-8 byte", "agent.output.s1", "{\"session_id\":\"s1\",\"message_id\":\"m1\",\"text\":\"[TOOL: rm \xff]\"}", nil, 0, CodeInvalidUTF8, "not valid UTF-8", "result.s1"},
		{"lone surrogate escape", "agent.output.s1", `{"session_id":"s1","message_id":"m1","text":"[TOOL: \ud800]"}`, nil, 0, CodeInvalidUTF8, "surrogate", "result.s1"},
		{"subject with two session tokens", "agent.output.a.s1", good, nil, 0, CodeInvalidSession, "one session token", ""},
		{"wildcard session", "agent.output.*", good, nil, 0, CodeInvalidSession, "wildcard", ""},
		// Answered on the subject's session, the one listening, never on
		// the session the payload names.
		{"payload names another session", "agent.output.s2", good, nil, 0, CodeInvalidSession, "does not match", "result.s2"},
		{"rate limited", "agent.output.s1", good, []StageOption{WithSessionRate(1, 2)}, 2, CodeRateLimited, "--session-rate", "result.s1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := Stage(New(), tt.opts...)
			for range tt.before {
				if _, err := st.Handler(context.Background(), &pipeline.Msg{Subject: tt.subject, Data: []byte(good), NumDelivered: 1}); err != nil {
					t.Fatalf("an output within the limits: %v", err)
				}
			}
			m := &pipeline.Msg{Subject: tt.subject, Data: []byte(tt.data), NumDelivered: 1}
			outs, err := st.Handler(context.Background(), m)
			if err == nil || !pipeline.IsPermanent(err) {
				t.Fatalf("handler = %d outs, %v; want a permanent error", len(outs), err)
			}
			var pe *Error
			if !errors.As(err, &pe) || pe.Code != tt.code || !strings.Contains(pe.Message, tt.mentions) {
				t.Fatalf("err = %v, want code %s mentioning %q", err, tt.code, tt.mentions)
			}
			rej := st.Reject(m, err)
			if tt.answerOn == "" {
				if len(rej) != 0 {
					t.Fatalf("rejection published %+v for a subject without one valid session", rej)
				}
				return
			}
			if len(rej) != 2 || rej[0].Subject != tt.answerOn {
				t.Fatalf("rejection = %+v, want a result on %s and an audit record", rej, tt.answerOn)
			}
			var r schemas.Result
			if err := json.Unmarshal(rej[0].Data, &r); err != nil {
				t.Fatal(err)
			}
			if r.Status != schemas.StatusError || r.Error.Code != tt.code {
				t.Fatalf("result = %+v, want error %s", r, tt.code)
			}
		})
	}
}

// A redelivered output was counted on its first delivery: its retry is not
// refused by the rate limit.
func TestRateLimitCountsFirstDeliveriesOnly(t *testing.T) {
	st := Stage(New(), WithSessionRate(1, 1))
	data := []byte(`{"session_id":"s1","message_id":"m1","text":"hi"}`)
	for n := uint64(1); n <= 3; n++ {
		if _, err := st.Handler(context.Background(), &pipeline.Msg{Subject: "agent.output.s1", Data: data, NumDelivered: n}); err != nil {
			t.Fatalf("delivery %d: %v", n, err)
		}
	}
	_, err := st.Handler(context.Background(), &pipeline.Msg{Subject: "agent.output.s1", Data: data, NumDelivered: 1})
	if bind.CodeOf(err, "") != CodeRateLimited {
		t.Fatalf("a second first delivery = %v, want rate_limited", err)
	}
	if _, err := st.Handler(context.Background(), &pipeline.Msg{Subject: "agent.output.s2", Data: []byte(`{"session_id":"s2","message_id":"m1","text":"hi"}`), NumDelivered: 1}); err != nil {
		t.Fatalf("another session is limited by the first's bucket: %v", err)
	}
}

// The receipt tells the agent when its intents carry only the end of the
// conversation.
func TestReceiptSaysTheConversationWasCut(t *testing.T) {
	out := schemas.AgentOutput{SessionID: "s1", MessageID: "m1", Text: "[TOOL: show disk usage]",
		Conversation: []schemas.Message{{Role: "user", Content: strings.Repeat("a", 200)}, {Role: "user", Content: "b"}}}
	data, _ := json.Marshal(out)
	outs, err := Stage(New(WithIntentConversationBytes(100))).Handler(context.Background(), &pipeline.Msg{Subject: "agent.output.s1", Data: data, NumDelivered: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		var r schemas.Result
		if o.Subject == "result.s1" && json.Unmarshal(o.Data, &r) == nil && r.Status == schemas.StatusAccepted {
			if !strings.Contains(r.Message, "each intent carries the last 2 of the conversation's 2 turns") {
				t.Fatalf("receipt message %q does not say the conversation was cut", r.Message)
			}
			return
		}
	}
	t.Fatal("no receipt")
}
