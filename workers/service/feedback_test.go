package service_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
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
	for _, tt := range []struct{ body, code string }{
		{`{"session_id": "s1", "intent_id": "m1.0"}`, "400"},
		{`{"session_id": "s1", "tool_id": "files/checksum"}`, "400"},
		{`{"session_id": "a.b", "intent_id": "m1.0", "tool_id": "files/checksum"}`, "400"},
		{`{"session_id": "s1", "intent_id": "m1.0", "tool_id": "no/such_tool"}`, "404"},
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
