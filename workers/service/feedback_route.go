package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/route"
)

// maxRouteScan bounds the route records of one session read to find the
// decision a feedback is about: a session's records are read by message
// gets that jump from one of its records to the next, so this is their
// number, never the stream's.
const maxRouteScan = 5000

// maxJudgeTime bounds the search for the decision a feedback is about.
const maxJudgeTime = 2 * time.Second

// routeDecision finds the route stage's record of intent in session's
// audit: the session's latest route record first (feedback is mostly about
// the intent just answered), then its route records oldest first, at most
// maxRouteScan. found is false when the audit holds none: older than
// AUDIT keeps, or an intent that was never routed (a direct call).
//
// The gets need no more than a worker's credential has (stream info and
// message gets): reading AUDIT by consumer is the admin's.
func routeDecision(ctx context.Context, js jetstream.JetStream, session, intent string) (rec schemas.AuditRecord, found bool, err error) {
	stream, err := js.Stream(ctx, pipeline.StreamAudit)
	if err != nil {
		return rec, false, fmt.Errorf("open %s: %w", pipeline.StreamAudit, err)
	}
	subject := schemas.AuditSubject(bind.StageRoute, session)
	last, err := stream.GetLastMsgForSubject(ctx, subject)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return rec, false, nil
	}
	if err != nil {
		return rec, false, fmt.Errorf("latest record on %s: %w", subject, err)
	}
	if rec, ok := routeRecordOf(last.Data, intent); ok {
		return rec, true, nil
	}
	seq := uint64(1)
	for range maxRouteScan {
		m, err := stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subject))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			break
		}
		if err != nil {
			return rec, false, fmt.Errorf("record %d on %s: %w", seq, subject, err)
		}
		if m.Sequence >= last.Sequence {
			break
		}
		if rec, ok := routeRecordOf(m.Data, intent); ok {
			return rec, true, nil
		}
		seq = m.Sequence + 1
	}
	return rec, false, nil
}

// routeRecordOf decodes data as the route record of intent.
func routeRecordOf(data []byte, intent string) (schemas.AuditRecord, bool) {
	var r schemas.AuditRecord
	if json.Unmarshal(data, &r) != nil || r.IntentID != intent || r.Stage != bind.StageRoute {
		return schemas.AuditRecord{}, false
	}
	return r, true
}

// judgeFeedback counts req in route.Judged, by the tier its intent was
// routed to and what it says of the top tool then.
func judgeFeedback(ctx context.Context, js jetstream.JetStream, req FeedbackRequest) (tier, verdict string, err error) {
	// The reply waits for this: a long session on a cluster (a round
	// trip a record) is judged "unknown" rather than held past the
	// client's timeout.
	ctx, cancel := context.WithTimeout(ctx, maxJudgeTime)
	defer cancel()
	rec, found, err := routeDecision(ctx, js, req.SessionID, req.IntentID)
	tier, verdict = route.TierUnknown, route.VerdictUnknown
	if found {
		tier, verdict = rec.Decision, route.Judge(rec.ToolID, req.ToolID, req.Wrong)
	}
	route.Judged.WithLabelValues(tier, verdict).Inc()
	return tier, verdict, err
}
