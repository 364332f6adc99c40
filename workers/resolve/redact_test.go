package resolve

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
)

// The resolved call carries a secret argument; the audit record does not.
func TestStageRedactsSecretsFromAudit(t *testing.T) {
	tool := schemas.Manifest{ID: "auth/login", Name: "login", Description: "Log in to the service with a user name and an API token",
		Parameters: json.RawMessage(`{"type":"object","required":["user","token"],"properties":{
			"user":{"type":"string","description":"user name"},
			"token":{"type":"string","description":"API token","writeOnly":true}}}`)}
	reg := registry.New(tool)
	in := schemas.Intent{V: schemas.Version, ID: "m1.0", SessionID: "s1", MessageID: "m1", Index: 0,
		Text: "log in with user=ann token=Zq9-secret-77", Start: 0, End: 10}
	routed := schemas.Routed{V: schemas.Version, Intent: in, Tier: schemas.TierActivated,
		Candidates: []schemas.Candidate{{ToolID: tool.ID, Confidence: 0.95, MatchType: "hybrid"}}}
	data, err := json.Marshal(routed)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := Stage(reg).Handler(context.Background(), &pipeline.Msg{Subject: "pipe.resolve.s1", Data: data, NumDelivered: 1})
	if err != nil {
		t.Fatal(err)
	}
	var call *schemas.ToolCall
	var audit *schemas.AuditRecord
	for _, o := range outs {
		switch {
		case strings.HasPrefix(o.Subject, "pipe.execute."):
			call = new(schemas.ToolCall)
			if err := json.Unmarshal(o.Data, call); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(o.Subject, "audit."):
			audit = new(schemas.AuditRecord)
			if err := json.Unmarshal(o.Data, audit); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(o.Data), "Zq9-secret-77") {
				t.Errorf("secret in the audit record: %s", o.Data)
			}
		}
	}
	if call == nil || audit == nil {
		t.Fatalf("want a call and an audit record, got %d outputs", len(outs))
	}
	if call.Parameters["token"] != "Zq9-secret-77" {
		t.Errorf("the call lost its secret: %v", call.Parameters)
	}
	if audit.Parameters["token"] != "***" || audit.Parameters["user"] != "ann" {
		t.Errorf("audit parameters %v", audit.Parameters)
	}
}
