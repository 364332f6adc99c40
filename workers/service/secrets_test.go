package service_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/stages"
)

// resolve_intent is a boundary of its own: the secret an intent gives a
// writeOnly argument, and the one the tool's environment holds, are in
// neither its reply nor its audit record, whether the call runs or fails.
func TestResolveIntentKeepsSecrets(t *testing.T) {
	const argSecret, envSecret = "vault-SECRET-51d2", "env-SECRET-0b7e"
	t.Setenv("TY_SVC_SECRET", envSecret)
	env := pipelinetest.Start(t)
	tools, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	tools = append(tools, schemas.Manifest{ID: "vault/unlock", Name: "unlock vault", Description: "Unlock the vault with a vault token",
		Keywords: []string{"vault", "unlock", "token"},
		Parameters: json.RawMessage(`{"type":"object","required":["token"],"properties":{
			"token":{"type":"string","writeOnly":true,"pattern":"^[A-Za-z0-9-]+$","description":"vault token"}}}`),
		Executor: &schemas.Executor{Kind: schemas.ExecSubprocess, Argv: []string{"/bin/sh", "-c", `echo "unlocked with $0 and $TY_SVC_SECRET"`, "{token}"},
			Env: []string{"TY_SVC_SECRET"}, Timeout: schemas.Duration(5 * time.Second)}})
	set, err := stages.New(stages.Config{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.Start(env.NC, set)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Stop() })

	cases := []struct {
		name, text, status string
	}{
		{"executed", "unlock the vault with token=" + argSecret, schemas.StatusExecuted},
		{"invalid", `unlock the vault with token="` + argSecret + ` x"`, schemas.StatusError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]string{"session_id": "v1", "text": c.text})
			data, code, desc := request(t, env.NC, service.SubjectResolveIntent, string(body))
			if code != "" {
				t.Fatalf("error %s: %s", code, desc)
			}
			r := decode[schemas.Result](t, data)
			if r.Status != c.status || r.ToolID != "vault/unlock" {
				t.Fatalf("status %s tool %s: %s", r.Status, r.ToolID, data)
			}
			for _, s := range []string{argSecret, envSecret} {
				if strings.Contains(string(data), s) {
					t.Errorf("reply holds %s: %s", s, data)
				}
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	recs := env.Collect(t, pipeline.StreamAudit, "audit.service.v1", len(cases), 5*time.Second)
	if len(recs) != len(cases) || ctx.Err() != nil {
		t.Fatalf("%d audit records, want %d", len(recs), len(cases))
	}
	for _, m := range recs {
		for _, s := range []string{argSecret, envSecret} {
			if strings.Contains(string(m.Data()), s) {
				t.Errorf("audit record holds %s: %s", s, m.Data())
			}
		}
	}
}
