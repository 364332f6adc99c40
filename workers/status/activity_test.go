package status

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// The page's feedback table joins feedback with the routing decisions in
// the same window: by session and intent, per tier, unknown verdicts and
// feedback whose decision is outside the window left out.
func TestActivityJudgesFeedback(t *testing.T) {
	route := func(session, intent, tier, top string) schemas.AuditRecord {
		return schemas.AuditRecord{Stage: "route", SessionID: session, IntentID: intent, Decision: tier, ToolID: top}
	}
	feedback := func(session, intent, decision, tool string) schemas.AuditRecord {
		return schemas.AuditRecord{Stage: "feedback", SessionID: session, IntentID: intent, Decision: decision, ToolID: tool}
	}
	a := Activity{Tiers: map[string]int{}, Discovery: map[string]int{}, Feedback: map[string]*FeedbackTally{}}
	tools := map[string]*ToolActivity{}
	for _, r := range []schemas.AuditRecord{
		route("s1", "m1.0", "activated", "files/checksum"),
		route("s1", "m2.0", "activated", "system/uptime"),
		route("s2", "m1.0", "multiple_matches", "files/head"),
		feedback("s1", "m1.0", "correct", "files/checksum"), // right
		feedback("s1", "m2.0", "wrong", ""),                 // wrong
		feedback("s2", "m1.0", "correct", "files/tail"),     // wrong, another tier
		feedback("s2", "m1.0", "wrong", "files/tail"),       // says nothing of the top tool
		feedback("s3", "m1.0", "correct", "files/tail"),     // its routing is not in the window
	} {
		a.add(r, tools)
	}
	a.judge()
	want := map[string]FeedbackTally{"activated": {Right: 1, Wrong: 1}, "multiple_matches": {Wrong: 1}}
	if len(a.Feedback) != len(want) {
		t.Fatalf("feedback %v, want %v", a.Feedback, want)
	}
	for tier, w := range want {
		if got := a.Feedback[tier]; got == nil || *got != w {
			t.Errorf("%s: %+v, want %+v", tier, got, w)
		}
	}
	if p := a.Feedback["activated"].Precision(); p != 0.5 {
		t.Errorf("activated precision %v, want 0.5", p)
	}
	if a.Tiers["activated"] != 2 {
		t.Errorf("tiers %v", a.Tiers)
	}
}
