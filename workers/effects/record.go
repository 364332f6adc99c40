package effects

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline"
)

// ID names one call: the session it belongs to and its intent. Intent ids
// are made from the agent's message ids, which two sessions may share, so
// the session is part of the identity.
type ID struct {
	SessionID string
	IntentID  string
	// ToolID is recorded for operators; it is not part of the identity.
	ToolID string
	// Call is a digest of what was asked (CallDigest), recorded so that a
	// later, different call under the same identity (an agent that reused a
	// message id) can be told from a redelivery; not part of the identity.
	Call string
}

// CallDigest is the digest of a call an execution record keeps: of the
// intent's words, which a redelivery repeats exactly (its tool and
// arguments are resolved again, and a model may resolve them otherwise),
// or, for a call the agent wrote itself, of its tool and arguments.
func CallDigest(intent, toolID string, direct bool, params map[string]any) string {
	h := sha256.New()
	if direct {
		b, _ := json.Marshal(params) // map keys sorted: the same arguments, the same bytes
		h.Write([]byte("direct\x00" + toolID + "\x00"))
		h.Write(b)
	} else {
		h.Write([]byte("intent\x00" + intent))
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Key is the call's key in the executions bucket: the session (a subject
// token already) and the intent id in unpadded base64url, since intent ids
// may hold characters a key cannot.
func (id ID) Key() string {
	return id.SessionID + "." + base64.RawURLEncoding.EncodeToString([]byte(id.IntentID))
}

// IdempotencyKey is the key a tool receives to dedupe its own effects: the
// same for every delivery and every attempt of the call, different for
// every other call.
func (id ID) IdempotencyKey() string {
	sum := sha256.Sum256([]byte(id.SessionID + "\x00" + id.IntentID))
	return "ty1-" + hex.EncodeToString(sum[:16])
}

func (id ID) validate() error {
	if id.SessionID == "" || id.IntentID == "" {
		return fmt.Errorf("execution id needs a session and an intent id (got session %q, intent %q)", id.SessionID, id.IntentID)
	}
	return nil
}

// States of a record.
const (
	StateRunning = "running"
	StateDone    = "done"
)

// Record is the stored state of one call.
type Record struct {
	V         int    `json:"v"`
	SessionID string `json:"session_id"`
	IntentID  string `json:"intent_id"`
	ToolID    string `json:"tool_id,omitempty"`
	// Call is the digest of the call that claimed the record (ID.Call);
	// empty in records written before it was kept.
	Call  string `json:"call,omitempty"`
	State string `json:"state"`
	// Owner is the claim's token: the worker and a nonce of this claim.
	Owner      string    `json:"owner,omitempty"`
	LeaseUntil time.Time `json:"lease_until,omitempty"`
	// Claims counts the claims: more than one means a worker took over
	// from one that died (crash window 2 or 3 of the package doc).
	Claims     int       `json:"claims"`
	ClaimedAt  time.Time `json:"claimed_at"`
	FinishedAt time.Time `json:"finished_at,omitempty"`
	// Outputs are the messages the finished call published.
	Outputs []StoredOut `json:"outputs,omitempty"`
}

// StoredOut is a pipeline output kept in a record, to be published again.
type StoredOut struct {
	Subject string          `json:"subject"`
	ID      string          `json:"id,omitempty"`
	Data    json.RawMessage `json:"data"`
	Header  nats.Header     `json:"header,omitempty"`
	// StampTraceID is kept so that a stored answer published again names
	// the trace of the delivery that publishes it (pipeline.Out).
	StampTraceID bool `json:"stamp_trace_id,omitempty"`
}

// Outs are the stored messages as pipeline outputs.
func (r Record) Outs() []pipeline.Out {
	outs := make([]pipeline.Out, len(r.Outputs))
	for i, o := range r.Outputs {
		outs[i] = pipeline.Out{Subject: o.Subject, ID: o.ID, Data: []byte(o.Data), Header: o.Header, StampTraceID: o.StampTraceID}
	}
	return outs
}

// leaseLive reports whether the claim still holds at now.
func (r Record) leaseLive(now time.Time) bool {
	return r.State == StateRunning && now.Before(r.LeaseUntil)
}

func storeOuts(outs []pipeline.Out) ([]StoredOut, error) {
	s := make([]StoredOut, len(outs))
	for i, o := range outs {
		if !json.Valid(o.Data) {
			return nil, fmt.Errorf("output %d to %s is not JSON; only JSON messages can be stored", i, o.Subject)
		}
		s[i] = StoredOut{Subject: o.Subject, ID: o.ID, Data: json.RawMessage(o.Data), Header: o.Header, StampTraceID: o.StampTraceID}
	}
	return s, nil
}

const recordVersion = 1

func encodeRecord(r Record) []byte {
	r.V = recordVersion
	outs := r.Outputs
	r.Outputs = nil
	data, _ := json.Marshal(r) // a Record holds only JSON-safe values
	if len(outs) == 0 {
		return data
	}
	return appendOutputs(data, outs)
}

// errCorrupt: a record no version of this code wrote.
var errCorrupt = errors.New("unreadable execution record")

func decodeRecord(data []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return Record{}, fmt.Errorf("%w: %w", errCorrupt, err)
	}
	if r.State != StateRunning && r.State != StateDone {
		return Record{}, fmt.Errorf("%w: state %q", errCorrupt, r.State)
	}
	return r, nil
}
