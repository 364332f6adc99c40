package parse

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// A direct call's secret argument goes to execution but not to the audit.
func TestDirectCallSecretsRedactedFromAudit(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"},"token":{"type":"string","x-secret":true}}}`)
	lookup := func(id string) []json.RawMessage {
		if id == "auth/login" {
			return []json.RawMessage{schema}
		}
		return nil
	}
	tests := []struct {
		name      string
		opts      []Option
		wantAudit any
	}{
		{"with schemas", []Option{WithAuditSchemas(lookup)}, "***"},
		{"without schemas", nil, "Zq9-secret-77"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := schemas.AgentOutput{V: schemas.Version, SessionID: "s1", MessageID: "m1",
				Text: `<tool_call name="auth/login">{"user": "ann", "token": "Zq9-secret-77"}</tool_call>`}
			data, _ := json.Marshal(out)
			outs, err := Stage(New(tt.opts...)).Handler(context.Background(), &pipeline.Msg{Subject: "agent.output.s1", Data: data, NumDelivered: 1})
			if err != nil {
				t.Fatal(err)
			}
			var call schemas.ToolCall
			var audit schemas.AuditRecord
			for _, o := range outs {
				switch {
				case strings.HasPrefix(o.Subject, "pipe.execute."):
					data, err := o.Bytes()
					if err != nil {
						t.Fatal(err)
					}
					if err := json.Unmarshal(data, &call); err != nil {
						t.Fatal(err)
					}
				case strings.HasPrefix(o.Subject, "audit."):
					if err := json.Unmarshal(o.Data, &audit); err != nil {
						t.Fatal(err)
					}
				}
			}
			if call.Parameters["token"] != "Zq9-secret-77" {
				t.Errorf("call parameters %v", call.Parameters)
			}
			if audit.Decision != "direct_call" || audit.Parameters["token"] != tt.wantAudit || audit.Parameters["user"] != "ann" {
				t.Errorf("audit %s parameters %v, want token %v", audit.Decision, audit.Parameters, tt.wantAudit)
			}
		})
	}
}

func TestParserSecrets(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"},"token":{"type":"string","writeOnly":true}}}`)
	p := New(WithAuditSchemas(func(id string) []json.RawMessage {
		if id == "auth/login" {
			return []json.RawMessage{schema}
		}
		return nil
	}))
	cases := []struct {
		name, text string
		want       []string
	}{
		{"direct call", `<tool_call name="auth/login">{"user": "ann", "token": "Zq9-secret-77"}</tool_call>`, []string{"Zq9-secret-77"}},
		{"two calls", `<tool_call name="auth/login">{"token": "first-secret"}</tool_call> and <tool_call name="auth/login">{"token": "second-secret"}</tool_call>`, []string{"first-secret", "second-secret"}},
		{"unknown tool", `<tool_call name="other/tool">{"token": "Zq9-secret-77"}</tool_call>`, nil},
		{"plain words", `[TOOL: log in with token=Zq9-secret-77]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, _ := json.Marshal(schemas.AgentOutput{V: schemas.Version, SessionID: "s1", MessageID: "m1", Text: c.text})
			got := p.Secrets(context.Background(), &pipeline.Msg{Subject: "agent.output.s1", Data: data})
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("secrets %v, want %v", got, c.want)
			}
		})
	}
}
