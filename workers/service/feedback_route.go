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
	isRoute := func(r schemas.AuditRecord) bool { return r.Stage == bind.StageRoute && r.IntentID == intent }
	rec, found, err = scanRecords(ctx, stream, subject, last.Sequence, isRoute)
	if errors.Is(err, errScanBound) {
		err = nil // as not found: the latest and the oldest were read
	}
	return rec, found, err
}

// errScanBound says scanRecords read maxRouteScan records without finding
// what it looked for.
var errScanBound = fmt.Errorf("searched %d records", maxRouteScan)

// scanRecords reads the records on subject (a session's, of one stage or
// all) oldest first, by message gets that jump from one to the next, up to
// but not including the one at sequence before (0: to the end), at most
// maxRouteScan of them, and returns the first that match accepts.
func scanRecords(ctx context.Context, stream jetstream.Stream, subject string, before uint64, match func(schemas.AuditRecord) bool) (schemas.AuditRecord, bool, error) {
	seq := uint64(1)
	for range maxRouteScan {
		m, err := stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subject))
		if errors.Is(err, jetstream.ErrMsgNotFound) || err == nil && before > 0 && m.Sequence >= before {
			return schemas.AuditRecord{}, false, nil
		}
		if err != nil {
			return schemas.AuditRecord{}, false, fmt.Errorf("record %d on %s: %w", seq, subject, err)
		}
		var r schemas.AuditRecord
		if json.Unmarshal(m.Data, &r) == nil && match(r) {
			return r, true, nil
		}
		seq = m.Sequence + 1
	}
	return schemas.AuditRecord{}, false, fmt.Errorf("%w on %s", errScanBound, subject)
}

// routeRecordOf decodes data as the route record of intent.
func routeRecordOf(data []byte, intent string) (schemas.AuditRecord, bool) {
	var r schemas.AuditRecord
	if json.Unmarshal(data, &r) != nil || r.IntentID != intent || r.Stage != bind.StageRoute {
		return schemas.AuditRecord{}, false
	}
	return r, true
}

// errNoSuchIntent says a feedback's intent has no record in its session's
// audit: an id that never was (a typo, another session's), or one older
// than AUDIT keeps. Training could not use the feedback either way: a
// label needs the intent's words, which only its own records hold.
var errNoSuchIntent = errors.New("no such intent")

// judgeFeedback finds the tier req's intent was routed to, by the route
// stage or the resolve_intent endpoint, and what req says of its top tool
// then (unknown, unknown when it was not routed, as a direct call). It returns errNoSuchIntent when the
// session's audit holds no record of the intent at all.
func judgeFeedback(ctx context.Context, js jetstream.JetStream, req FeedbackRequest) (tier, verdict string, err error) {
	// The reply waits for this: a long session on a cluster (a round
	// trip a record) is judged "unknown" rather than held past the
	// client's timeout.
	ctx, cancel := context.WithTimeout(ctx, maxJudgeTime)
	defer cancel()
	rec, found, err := routeDecision(ctx, js, req.SessionID, req.IntentID)
	tier, verdict = route.TierUnknown, route.VerdictUnknown
	if found {
		return rec.Decision, route.Judge(rec.ToolID, req.ToolID, req.Wrong), nil
	}
	if err != nil {
		return tier, verdict, err
	}
	first, known, err := intentRecord(ctx, js, req.SessionID, req.IntentID)
	switch {
	case err != nil:
		return tier, verdict, err
	case !known:
		return tier, verdict, errNoSuchIntent
	case first.Stage == StageService:
		// Routed by the resolve_intent endpoint (the MCP gateway's
		// resolve_intent), whose one record holds the tier and the tools
		// it ranked, the top one first.
		top := first.ToolID
		if len(first.Candidates) > 0 {
			top = first.Candidates[0]
		}
		return first.Decision, route.Judge(top, req.ToolID, req.Wrong), nil
	}
	return tier, verdict, nil
}

// intentRecord is the first record any stage but feedback wrote of intent
// in session's audit, reading at most maxRouteScan of the session's
// records; found is false when there is none, and err says when it could
// not read them all.
func intentRecord(ctx context.Context, js jetstream.JetStream, session, intent string) (schemas.AuditRecord, bool, error) {
	stream, err := js.Stream(ctx, pipeline.StreamAudit)
	if err != nil {
		return schemas.AuditRecord{}, false, fmt.Errorf("open %s: %w", pipeline.StreamAudit, err)
	}
	return scanRecords(ctx, stream, schemas.AuditSubject("*", session), 0, func(r schemas.AuditRecord) bool {
		return r.IntentID == intent && r.Stage != StageFeedback
	})
}
