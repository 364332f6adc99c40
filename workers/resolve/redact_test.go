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
			data, err := o.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, call); err != nil {
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

// A resolution that fails on a secret argument (wrong pattern) or on a
// missing one quotes what it read: the stage hands those values to the
// runner's scrubber, and the call that succeeds is marked as carrying
// secrets to the executor.
func TestStageScrubsSecretsOfFailedResolutions(t *testing.T) {
	tool := schemas.Manifest{ID: "auth/login", Name: "login", Description: "Log in to the service with a user name, a PIN and an API token",
		Parameters: json.RawMessage(`{"type":"object","required":["user","token","pin"],"properties":{
			"user":{"type":"string","description":"user name"},
			"pin":{"type":"integer","description":"PIN"},
			"token":{"type":"string","description":"API token","writeOnly":true,"pattern":"^[a-z0-9-]+$"}}}`)}
	reg := registry.New(tool)
	cases := []struct {
		name, text string
		wantCode   string
	}{
		{"invalid secret", "log in with user=ann pin=1234 token=Zq9-SECRET-77", "invalid_arguments"},
		{"missing another argument", "log in with user=ann token=zq9-secret-77", "invalid_arguments"},
		{"resolved", "log in with user=ann pin=1234 token=zq9-secret-77", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := schemas.Intent{V: schemas.Version, ID: "m1.0", SessionID: "s1", MessageID: "m1", Text: c.text, End: 10}
			routed := schemas.Routed{V: schemas.Version, Intent: in, Tier: schemas.TierActivated,
				Candidates: []schemas.Candidate{{ToolID: tool.ID, Confidence: 0.95, MatchType: "hybrid"}}}
			data, _ := json.Marshal(routed)
			sc := pipeline.NewScrubber()
			ctx := pipeline.WithScrubber(context.Background(), sc)
			outs, err := Stage(reg).Handler(ctx, &pipeline.Msg{Subject: "pipe.resolve.s1", Data: data, NumDelivered: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range sc.Outs(outs) {
				data, err := o.Bytes()
				if err != nil {
					t.Fatal(err)
				}
				secret := strings.Contains(strings.ToLower(string(data)), "zq9-secret-77")
				if strings.HasPrefix(o.Subject, "pipe.execute.") {
					if !o.Secret || !secret {
						t.Errorf("the call must carry its secret to the executor: secret=%v %s", o.Secret, o.Data)
					}
					continue
				}
				if secret {
					t.Errorf("%s holds the secret: %s", o.Subject, o.Data)
				}
				if c.wantCode != "" && strings.HasPrefix(o.Subject, "result.") && !strings.Contains(string(o.Data), c.wantCode) {
					t.Errorf("result: %s, want %s", o.Data, c.wantCode)
				}
			}
		})
	}
}
