// Package bind holds what every stage binding shares: the subjects stages
// talk on, and the encoding of results, audit records and hand-offs as
// pipeline outputs with de-duplication ids.
package bind

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// Stage names.
const (
	StageParse    = "parse"
	StageDiscover = "discover"
	StageRoute    = "route"
	// StageChoose takes the medium tier (multiple_matches): a configured
	// disambiguator may pick one, else the alternatives are answered.
	StageChoose = "choose"
	// StageAnswer answers the weak_matches and not_found tiers.
	StageAnswer  = "answer"
	StageResolve = "resolve"
	StageExecute = "execute"
	// StageJoin reads results and hands a nested intent to discovery once
	// the intents nested in it have run.
	StageJoin = "join"
)

// Stages lists the stages in pipeline order (join, fed by results, last).
var Stages = []string{StageParse, StageDiscover, StageRoute, StageChoose, StageAnswer, StageResolve, StageExecute, StageJoin}

// PipePrefix is the root of the work-queue subjects between stages.
const PipePrefix = "pipe."

// PipeSubject is where work for a stage is queued: pipe.<stage>.<session>.
func PipeSubject(stage, session string) string { return PipePrefix + stage + "." + session }

// PipeFilter matches all of a stage's work.
func PipeFilter(stage string) string { return PipePrefix + stage + ".>" }

// SessionOf is the session of a pipe, agent or result subject, or "" when
// the subject does not name exactly one valid session (SubjectSession says why).
func SessionOf(subject string) string {
	s, err := SubjectSession(subject)
	if err != nil {
		return ""
	}
	return s
}

// MsgID scopes a de-duplication id to its session. Intent and message ids
// come from the agent's message ids, which two sessions may share ("m1"),
// and a stream de-duplicates by id whatever the subject: without the
// session, the second session's receipt, error result or work would be
// dropped as a duplicate of the first's.
func MsgID(session, id string) string { return session + "/" + id }

// Next hands v to the next stage. The id makes a redelivered input's hand-off
// a duplicate the stream drops. A hand-off keeps the secrets of the work
// (Out.Secret): the intent or call carries them to the executor that needs
// them, on a work queue that forgets them once the next stage acks.
func Next(stage, session, intentID string, v any) pipeline.Out {
	return pipeline.Handoff(PipeSubject(stage, session), MsgID(session, intentID+":"+stage), v)
}

// Input decodes a stage's input: the value a stage of the same process
// handed over (pipeline.Msg.Value, as Next put it there), checked as a
// decoded one is, or else the message's bytes (schemas.DecodeInternal).
func Input[T any](k schemas.Kind, m *pipeline.Msg) (T, error) {
	if v, ok := m.Value.(T); ok {
		return v, schemas.CheckInternal(k, v)
	}
	data, err := m.Bytes()
	if err != nil {
		var zero T
		return zero, err
	}
	return schemas.DecodeInternal[T](k, data)
}

// Result encodes a result for the agent's session. Results of an intent share
// one id whichever stage sends them, so an intent is answered once. The
// result of a nested intent (Outer set) also goes to the join stage, on
// pipe.join.<session>: the join stage reads only those, not every result.
func Result(r schemas.Result) []pipeline.Out {
	out := result(r)
	if r.Outer == "" {
		return []pipeline.Out{out}
	}
	join := out
	join.Subject, join.ID = PipeSubject(StageJoin, r.SessionID), MsgID(r.SessionID, r.IntentID+":"+StageJoin)
	return []pipeline.Out{out, join}
}

func result(r schemas.Result) pipeline.Out {
	if r.V == 0 {
		r.V = schemas.Version
	}
	if r.Timestamp.IsZero() {
		r.Timestamp = time.Now().UTC()
	}
	id := r.IntentID + ":result"
	if r.IntentID == "" {
		id = r.MessageID + ":" + r.Status
	}
	data, _ := json.Marshal(r) // a Result holds only JSON-safe values
	// The runner writes the trace id of the message being handled.
	return pipeline.Out{Subject: schemas.ResultSubject(r.SessionID), Data: data, ID: MsgID(r.SessionID, id), StampTraceID: r.TraceID == ""}
}

// Audit encodes one audit record of a stage decision.
func Audit(a schemas.AuditRecord) pipeline.Out {
	if a.V == 0 {
		a.V = schemas.Version
	}
	if a.Timestamp.IsZero() {
		a.Timestamp = time.Now().UTC()
	}
	if a.Parameters == nil {
		a.Parameters = map[string]any{}
	}
	data, err := json.Marshal(a)
	if err != nil {
		// Parameters came from JSON, so this is unreachable in practice; keep
		// the record rather than lose the decision.
		a.Parameters = map[string]any{"unencodable": err.Error()}
		data, _ = json.Marshal(a)
	}
	key := a.IntentID
	if key == "" {
		key = a.MessageID
	}
	return pipeline.Out{Subject: schemas.AuditSubject(a.Stage, a.SessionID), Data: data, ID: MsgID(a.SessionID, key+":"+a.Stage+":audit"), StampTraceID: a.TraceID == ""}
}

// IntentAudit starts the audit record of a stage's decision about an intent.
func IntentAudit(stage string, in schemas.Intent) schemas.AuditRecord {
	return schemas.AuditRecord{
		SessionID: in.SessionID, ConversationContext: in.ContextBefore, IntentExpressed: in.Text,
		Stage: stage, IntentID: in.ID, MessageID: in.MessageID,
	}
}

// WithCandidates records the tools a decision considered, the first being
// the one it chose.
func WithCandidates(a schemas.AuditRecord, cs []schemas.Candidate) schemas.AuditRecord {
	for _, c := range cs {
		a.Candidates = append(a.Candidates, c.ToolID)
	}
	if len(cs) > 0 {
		a.ToolID, a.Confidence = cs[0].ToolID, cs[0].Confidence
	}
	return a
}

// Millis is a duration in milliseconds, as results and audit records carry it.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// ErrorResult is the result that tells the agent why a stage failed.
func ErrorResult(stage, session, messageID, intentID, intent, code string, err error) schemas.Result {
	return schemas.Result{
		SessionID: session, MessageID: messageID, IntentID: intentID, Intent: intent,
		Status: schemas.StatusError, Stage: stage,
		Message: err.Error(),
		Error:   &schemas.Error{Code: code, Message: err.Error()},
	}
}

// Error codes of error results.
const (
	CodeInvalidInput = "invalid_input"
	CodeGaveUp       = "gave_up"
	CodeToolFailed   = "tool_failed"
	CodeInvalidArgs  = "invalid_arguments"
	CodeUnknownTool  = "unknown_tool"
	CodeNotRunnable  = "not_runnable"
)

// Rejecter answers an input the stage gave up on with an error result to the
// session named by the input's subject, plus an audit record. It reads what it
// can of the input (intent id, message id) so the agent can tell which request
// failed; input too broken to read is answered at message level. The code is
// the reason's own (CodeOf), else invalid_input or gave_up.
//
// A subject that names no valid session gets no answer: there is no session
// to answer on, and the payload's word for it is not to be trusted (it may
// name another agent's session). The runner keeps the input in the DLQ.
func Rejecter(stage string) pipeline.RejectFunc {
	return func(m *pipeline.Msg, reason error) []pipeline.Out {
		// The subject names the session that is listening; a payload may be
		// wrong about it, which may be the very reason for the rejection.
		session, err := SubjectSession(m.Subject)
		if err != nil {
			return nil
		}
		ref := peek(m.Data)
		code := CodeGaveUp
		if pipeline.IsPermanent(reason) {
			code = CodeOf(reason, CodeInvalidInput)
		}
		msgID := ref.MessageID
		if msgID == "" && ref.IntentID == "" {
			// Nothing identifies the input but its place in the stream.
			msgID = "seq-" + strconv.FormatUint(m.StreamSeq, 10)
		}
		res := ErrorResult(stage, session, msgID, ref.IntentID, ref.Text, code, reason)
		if stage != StageParse {
			// An agent's output names no outer intent; work between
			// stages does, and the join stage waits for its answer.
			res.Outer = ref.Outer
		}
		return append(Result(res),
			Audit(schemas.AuditRecord{
				SessionID: session, IntentExpressed: ref.Text, Stage: stage,
				IntentID: ref.IntentID, MessageID: msgID, Decision: "rejected",
				Result: "error", Error: reason.Error(),
			}))
	}
}

// ref is what a rejecter can learn of an input of any stage.
type ref struct {
	SessionID string
	MessageID string
	IntentID  string
	Text      string
	Outer     string
}

// peek reads what identifies an input of any stage: an AgentOutput or an
// Intent carries it at the top, Candidates and Routed in their "intent"
// object, a ToolCall in intent_id and its "intent" text.
func peek(data []byte) ref {
	v, ok := peekFields(data)
	if !ok {
		return ref{}
	}
	if len(v.Intent) > 0 && v.Intent[0] == '{' {
		if inner, ok := peekFields(v.Intent); ok {
			v = inner
		}
	} else if len(v.Intent) > 0 && v.Intent[0] == '"' {
		_ = json.Unmarshal(v.Intent, &v.Text)
	}
	if v.IntentID == "" {
		v.IntentID = v.ID
	}
	return ref{SessionID: v.SessionID, MessageID: v.MessageID, IntentID: v.IntentID, Text: clip(v.Text, 200), Outer: v.Outer}
}

// peeked are the identifying fields of one JSON object.
type peeked struct {
	ID, SessionID, MessageID, IntentID, Text, Outer string
	Intent                                          json.RawMessage
}

// peekFields reads each identifying field of a JSON object on its own: an
// input is often rejected for a field of the wrong type ("text": 42), and
// decoding them together lost every other field with it, so the error
// result named no message id the agent could match.
func peekFields(data []byte) (peeked, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return peeked{}, false
	}
	str := func(key string) string {
		var s string
		_ = json.Unmarshal(m[key], &s)
		return s
	}
	return peeked{ID: str("id"), SessionID: str("session_id"), MessageID: str("message_id"), IntentID: str("intent_id"),
		Text: str("text"), Outer: str("outer"), Intent: m["intent"]}, true
}

// clip shortens s to at most n bytes without splitting a UTF-8 character.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
