package bind

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

func TestSubjectSession(t *testing.T) {
	tests := []struct {
		subject, want string // want "" means refused
	}{
		{"agent.output.s1", "s1"},
		{"agent.stream.s-1_A", "s-1_A"},
		{"result.s1", "s1"},
		{"agent.end.s1", "s1"},
		{"agent.end.a.s1", ""},
		{"pipe.execute.s1", "s1"},
		{"agent.output.", ""},
		{"agent.output.a.b", ""}, // the last token is not the session
		{"result.a.b", ""},
		{"pipe.execute", ""},
		{"pipe..s1", ""},
		{"pipe.answer.weak_matches.s1", "s1"},
		{"pipe.a.b.c.s1", ""},
		{"pipe..x.s1", ""},
		{"agent.output.*", ""},
		{"agent.output.>", ""},
		{"agent.output.a b", ""},
		{"audit.parse.s1", ""}, // not a family that names a session
		{"s1", ""},
		{"", ""},
		{"result." + strings.Repeat("x", 129), ""},
	}
	for _, tt := range tests {
		t.Run(tt.subject, func(t *testing.T) {
			got, err := SubjectSession(tt.subject)
			if got != tt.want || (err == nil) != (tt.want != "") {
				t.Fatalf("SubjectSession(%q) = %q, %v; want %q", tt.subject, got, err, tt.want)
			}
			if SessionOf(tt.subject) != tt.want {
				t.Errorf("SessionOf(%q) = %q, want %q", tt.subject, SessionOf(tt.subject), tt.want)
			}
		})
	}
}

type codedErr struct{ code string }

func (e codedErr) Error() string     { return "coded" }
func (e codedErr) ErrorCode() string { return e.code }

func TestCodeOf(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"plain", errors.New("x"), "def"},
		{"coded", codedErr{"rate_limited"}, "rate_limited"},
		{"wrapped", fmt.Errorf("stage: %w", codedErr{"too_large"}), "too_large"},
		{"permanent", pipeline.Permanent(codedErr{"invalid_utf8"}), "invalid_utf8"},
		{"empty code", codedErr{""}, "def"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CodeOf(tt.err, "def"); got != tt.want {
				t.Fatalf("CodeOf = %q, want %q", got, tt.want)
			}
		})
	}
}

// An input on a subject without one valid session is not answered at all:
// nothing is published to a subject built from a bad token, and the payload
// cannot point the answer at another session.
func TestRejecterAnswersNoInvalidSession(t *testing.T) {
	data := []byte(`{"session_id":"victim","message_id":"m1","text":"hi"}`)
	for _, subject := range []string{"agent.output.a.victim", "agent.output.*", "pipe.execute.", "agent.output.a b"} {
		if outs := Rejecter("parse")(&pipeline.Msg{Subject: subject, Data: data}, pipeline.Permanent(errors.New("bad"))); len(outs) != 0 {
			t.Errorf("%s: rejecter published %+v", subject, outs)
		}
	}
}

// A rejection carries the reason's own code.
func TestRejecterUsesTheReasonsCode(t *testing.T) {
	outs := Rejecter("parse")(&pipeline.Msg{Subject: "agent.output.s1", Data: []byte(`{}`)}, pipeline.Permanent(codedErr{"invalid_utf8"}))
	if len(outs) != 2 {
		t.Fatalf("outs = %+v", outs)
	}
	r, err := schemas.Decode[schemas.Result](schemas.KindResult, outs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Error == nil || r.Error.Code != "invalid_utf8" {
		t.Fatalf("result error = %+v, want code invalid_utf8", r.Error)
	}
}

// Two sessions may use the same message id: their receipts, results, work
// and audit records must not share a de-duplication id.
func TestMsgIDsAreSessionScoped(t *testing.T) {
	ids := map[string]string{}
	for _, session := range []string{"s1", "s2"} {
		outs := []pipeline.Out{Next(StageDiscover, session, "m1.0", schemas.Intent{})}
		outs = append(outs, Result(schemas.Result{SessionID: session, MessageID: "m1", Status: schemas.StatusError})...)
		outs = append(outs, Result(schemas.Result{SessionID: session, MessageID: "m1", IntentID: "m1.0", Status: schemas.StatusExecuted, Outer: "m1.1"})...)
		outs = append(outs, Audit(schemas.AuditRecord{SessionID: session, MessageID: "m1", IntentID: "m1.0", Stage: StageParse}))
		for _, o := range outs {
			if other, dup := ids[o.ID]; dup {
				t.Fatalf("id %q used by %s and %s", o.ID, other, session)
			}
			ids[o.ID] = session
		}
	}
}
