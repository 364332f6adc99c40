package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/service"
)

// Feedback on an intent the service finds no routing decision of (a
// direct call, or one beyond its search) is recorded, as the service does,
// but said on stderr: the reply's "tier":"unknown" alone went unnoticed.
// (An intent the session never had is refused by the service: 404.)
func TestFeedbackOnAnUnknownIntentWarns(t *testing.T) {
	env := pipelinetest.Start(t)
	for _, tt := range []struct {
		tier string
		warn bool
	}{
		{route.TierUnknown, true},
		{"multiple_matches", false},
	} {
		sub, err := env.NC.Subscribe(service.SessionSubject(service.SubjectFeedback, "demo"), func(m *nats.Msg) {
			data, _ := json.Marshal(service.FeedbackReply{Recorded: true, Subject: "audit.feedback.demo", Tier: tt.tier, Verdict: route.VerdictUnknown})
			_ = m.Respond(data)
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := env.NC.Flush(); err != nil {
			t.Fatal(err)
		}
		root := newRoot()
		var stdout, stderr bytes.Buffer
		root.SetOut(&stdout)
		root.SetErr(&stderr)
		root.SetArgs([]string{"feedback", "--nats", env.Server.ClientURL(), "--creds", pipelinetest.AdminCreds(env.Server.DataDir()),
			"--session", "demo", "--intent", "turn-9.0", "--tool", "files/checksum"})
		if err := root.Execute(); err != nil {
			t.Fatalf("tier %s: %v", tt.tier, err)
		}
		_ = sub.Unsubscribe()
		if !strings.Contains(stdout.String(), `"recorded":true`) {
			t.Errorf("tier %s: the reply is not printed: %q", tt.tier, stdout.String())
		}
		warned := strings.Contains(stderr.String(), `no routing decision of intent "turn-9.0" was found in session "demo"'s audit`)
		if warned != tt.warn {
			t.Errorf("tier %s: warned %v, want %v: %q", tt.tier, warned, tt.warn, stderr.String())
		}
	}
}
