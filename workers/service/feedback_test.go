package service_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/service"
)

// Feedback lands in AUDIT as the record training/labels reads; bad
// requests are refused with the reason and record nothing.
func TestFeedbackIsRecordedInAudit(t *testing.T) {
	f := start(t, false)
	if err := pipeline.DefaultTopology().Ensure(context.Background(), f.env.JS); err != nil {
		t.Fatal(err)
	}
	nc := f.env.NC
	// The intents' records, as the parse stage writes them.
	for _, id := range []string{"m1.0", "m1.1"} {
		publishAudit(t, f.env.JS, schemas.AuditRecord{SessionID: "s1", IntentID: id, Stage: "parse", Decision: "intent"})
	}
	for _, tt := range []struct{ body, code string }{
		{`{"session_id": "s1", "intent_id": "m1.0"}`, "400"},
		{`{"session_id": "s1", "tool_id": "files/checksum"}`, "400"},
		{`{"session_id": "a.b", "intent_id": "m1.0", "tool_id": "files/checksum"}`, "400"},
		{`{"session_id": "s1", "intent_id": "m1.0", "tool_id": "no/such_tool"}`, "404"},
		// An intent the session never had: refused, not recorded.
		{`{"session_id": "s1", "intent_id": "m1.7", "tool_id": "files/checksum"}`, "404"},
		{`{"session_id": "s9", "intent_id": "m1.0", "wrong": true}`, "404"},
	} {
		if _, code, desc := request(t, nc, service.SubjectFeedback, tt.body); code != tt.code {
			t.Errorf("%s: code %q (%s), want %s", tt.body, code, desc, tt.code)
		}
	}
	for _, body := range []string{
		`{"session_id": "s1", "intent_id": "m1.0", "tool_id": "files/checksum"}`,
		`{"session_id": "s1", "intent_id": "m1.1", "wrong": true}`,
	} {
		data, code, desc := request(t, nc, service.SubjectFeedback, body)
		if code != "" {
			t.Fatalf("%s: %s %s", body, code, desc)
		}
		if r := decode[service.FeedbackReply](t, data); !r.Recorded || r.Subject != "audit.feedback.s1" {
			t.Errorf("reply %+v", r)
		}
	}
	msgs := f.env.Collect(t, pipeline.StreamAudit, "audit.feedback.s1", 2, 5*time.Second)
	var recs []schemas.AuditRecord
	for _, m := range msgs {
		var r schemas.AuditRecord
		if err := json.Unmarshal(m.Data(), &r); err != nil {
			t.Fatal(err)
		}
		if err := schemas.ValidateValue(schemas.KindAuditRecord, r); err != nil {
			t.Errorf("feedback record is not a valid audit record: %v", err)
		}
		recs = append(recs, r)
	}
	if len(recs) != 2 || recs[0].Decision != service.FeedbackCorrect || recs[0].ToolID != "files/checksum" || recs[0].IntentID != "m1.0" ||
		recs[1].Decision != service.FeedbackWrong || recs[1].IntentID != "m1.1" {
		t.Errorf("records %+v", recs)
	}
}

// Feedback is judged against the routing decision its intent got: the
// reply and toolyard_feedback_total say the tier and whether the top tool
// was right; the same feedback again is recorded and counted once.
func TestFeedbackIsJudgedAgainstTheRouting(t *testing.T) {
	f := start(t, false)
	ctx := context.Background()
	if err := pipeline.DefaultTopology().Ensure(ctx, f.env.JS); err != nil {
		t.Fatal(err)
	}
	// Route records as the route stage writes them, for two sessions; the
	// intent asked about first is not the session's latest.
	for _, r := range []schemas.AuditRecord{
		{SessionID: "j1", IntentID: "m1.0", Stage: "route", Decision: schemas.TierActivated, ToolID: "files/checksum"},
		{SessionID: "j2", IntentID: "m1.0", Stage: "route", Decision: schemas.TierMultiple, ToolID: "files/head"},
		{SessionID: "j1", IntentID: "m2.0", Stage: "route", Decision: schemas.TierActivated, ToolID: "system/uptime"},
		{SessionID: "j1", IntentID: "m3.0", Stage: "route", Decision: schemas.TierMultiple, ToolID: "files/head"},
		// A direct call: parsed, never routed.
		{SessionID: "j1", IntentID: "m9.0", Stage: "parse", Decision: "direct_call", ToolID: "files/head"},
		// Routed and run by the resolve_intent endpoint.
		{SessionID: "j1", IntentID: "svc-1.0", Stage: "service", Decision: schemas.TierActivated, ToolID: "system/uptime", Candidates: []string{"system/uptime", "files/head"}},
		{SessionID: "j1", IntentID: "svc-2.0", Stage: "service", Decision: schemas.TierMultiple, Candidates: []string{"files/head", "files/tail"}},
	} {
		publishAudit(t, f.env.JS, r)
	}
	count := func(tier, verdict string) float64 {
		return testutil.ToFloat64(route.Judged.WithLabelValues(tier, verdict))
	}
	for _, tt := range []struct {
		name, body, tier, verdict string
		counted                   bool
	}{
		{"right, an older intent", `{"session_id": "j1", "intent_id": "m1.0", "tool_id": "files/checksum"}`, schemas.TierActivated, route.VerdictRight, true},
		{"the same again", `{"session_id": "j1", "intent_id": "m1.0", "tool_id": "files/checksum"}`, "", "", false},
		{"another tool wanted", `{"session_id": "j1", "intent_id": "m2.0", "tool_id": "files/checksum"}`, schemas.TierActivated, route.VerdictWrong, true},
		{"the latest, wrong", `{"session_id": "j1", "intent_id": "m3.0", "wrong": true}`, schemas.TierMultiple, route.VerdictWrong, true},
		{"another session's intent of the same id", `{"session_id": "j2", "intent_id": "m1.0", "tool_id": "files/head"}`, schemas.TierMultiple, route.VerdictRight, true},
		{"never routed", `{"session_id": "j1", "intent_id": "m9.0", "tool_id": "files/head"}`, route.TierUnknown, route.VerdictUnknown, true},
		{"routed by resolve_intent, wrong", `{"session_id": "j1", "intent_id": "svc-1.0", "wrong": true}`, schemas.TierActivated, route.VerdictWrong, true},
		{"offered by resolve_intent, the top one right", `{"session_id": "j1", "intent_id": "svc-2.0", "tool_id": "files/head"}`, schemas.TierMultiple, route.VerdictRight, true},
	} {
		tier, verdict := tt.tier, tt.verdict
		if !tt.counted {
			tier, verdict = schemas.TierActivated, route.VerdictRight // what the first one counted
		}
		before := count(tier, verdict)
		data, code, desc := request(t, f.env.NC, service.SubjectFeedback, tt.body)
		if code != "" {
			t.Fatalf("%s: %s %s", tt.name, code, desc)
		}
		r := decode[service.FeedbackReply](t, data)
		if !r.Recorded || r.Tier != tt.tier || r.Verdict != tt.verdict {
			t.Errorf("%s: reply %+v, want tier %q verdict %q", tt.name, r, tt.tier, tt.verdict)
		}
		want := before
		if tt.counted {
			want++
		}
		if got := count(tier, verdict); got != want {
			t.Errorf("%s: toolyard_feedback_total{tier=%q,verdict=%q} = %v, want %v", tt.name, tier, verdict, got, want)
		}
	}
}

// publishAudit writes r on its stage's audit subject, as that stage does.
func publishAudit(t *testing.T, js jetstream.JetStream, r schemas.AuditRecord) {
	t.Helper()
	r.V, r.Timestamp, r.Result, r.Parameters = schemas.Version, time.Now().UTC(), r.Decision, map[string]any{}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(context.Background(), schemas.AuditSubject(r.Stage, r.SessionID), data); err != nil {
		t.Fatal(err)
	}
}
