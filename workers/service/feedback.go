package service

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/route"
)

// FeedbackRequest tells Toolyard what an intent should have done: ToolID
// is the tool the agent wanted, or, with Wrong, the tool that was wrong
// (empty: the one that ran).
type FeedbackRequest struct {
	SessionID string `json:"session_id"`
	IntentID  string `json:"intent_id"`
	ToolID    string `json:"tool_id,omitempty"`
	Wrong     bool   `json:"wrong,omitempty"`
	Note      string `json:"note,omitempty"`
}

// FeedbackReply says where the feedback was recorded.
type FeedbackReply struct {
	Recorded bool   `json:"recorded"`
	Subject  string `json:"subject"`
	// Tier is the tier the intent was routed to ("unknown" when its
	// decision is not in the audit), Verdict what the feedback says of
	// the top tool then (right, wrong, unknown); both empty for feedback
	// given before, which is not counted again.
	Tier    string `json:"tier,omitempty"`
	Verdict string `json:"verdict,omitempty"`
}

// Feedback decisions in the audit record (training/labels reads them).
const (
	StageFeedback    = "feedback"
	FeedbackCorrect  = "correct"
	FeedbackWrong    = "wrong"
	feedbackNoteSize = 500
)

// FeedbackRecord is the audit record of a feedback request.
func FeedbackRecord(req FeedbackRequest, at time.Time) schemas.AuditRecord {
	decision := FeedbackCorrect
	if req.Wrong {
		decision = FeedbackWrong
	}
	note := req.Note
	if len(note) > feedbackNoteSize {
		note = note[:feedbackNoteSize]
	}
	return schemas.AuditRecord{V: schemas.Version, Timestamp: at.UTC(), SessionID: req.SessionID, IntentID: req.IntentID,
		Stage: StageFeedback, Decision: decision, ToolID: req.ToolID, Result: "feedback", ConversationContext: note,
		Parameters: map[string]any{}}
}

func (s *Service) feedback(ctx context.Context, data []byte) (any, error) {
	var req FeedbackRequest
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	if err := checkSession(req.SessionID); err != nil {
		return nil, err
	}
	req.IntentID, req.ToolID = strings.TrimSpace(req.IntentID), strings.TrimSpace(req.ToolID)
	switch {
	case req.IntentID == "":
		return nil, badRequest("intent_id is empty: name the intent the feedback is about (results and receipts carry it)")
	case !req.Wrong && req.ToolID == "":
		return nil, badRequest("say which tool the intent wanted (tool_id) or that the tool was wrong (wrong: true)")
	}
	if req.ToolID != "" {
		if _, ok := s.set.Registry().Get(req.ToolID); !ok {
			return nil, &requestError{code: codeNotFound, err: badRequest("no tool %q in the registry", req.ToolID)}
		}
	}
	js, err := jetstream.New(s.nc)
	if err != nil {
		return nil, err
	}
	// Judged before it is recorded: feedback on an intent the session's
	// audit has no record of is refused, not recorded as if it counted.
	tier, verdict, jerr := judgeFeedback(ctx, js, req)
	if errors.Is(jerr, errNoSuchIntent) {
		return nil, &requestError{code: codeNotFound, err: badRequest("no intent %q in session %q: the session's audit has no record of it (intent ids are in receipts and results, as <message_id>.<n>; or it is older than the AUDIT stream keeps); nothing was recorded", req.IntentID, req.SessionID)}
	}
	if jerr != nil {
		s.log.Warn("feedback recorded, its intent's routing not found", "session_id", req.SessionID, "intent_id", req.IntentID, "err", jerr)
	}
	rec := FeedbackRecord(req, time.Now())
	body, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	subject := schemas.AuditSubject(StageFeedback, req.SessionID)
	id := "feedback:" + req.SessionID + ":" + req.IntentID + ":" + rec.Decision + ":" + req.ToolID
	ack, err := js.Publish(ctx, subject, body, jetstream.WithMsgID(id))
	if err != nil {
		return nil, &requestError{code: codeUnavail, err: err}
	}
	reply := FeedbackReply{Recorded: true, Subject: subject}
	if ack.Duplicate {
		// The same feedback again: recorded once, counted once.
		return reply, nil
	}
	reply.Tier, reply.Verdict = tier, verdict
	route.Judged.WithLabelValues(tier, verdict).Inc()
	return reply, nil
}
