package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
)

// Msg is a message handed to a handler.
type Msg struct {
	Subject string
	Data    []byte
	Header  nats.Header
	// Value is what Data encodes, as the stage that handed it over built
	// it, when that stage runs in this process (Local): the handler may
	// take it instead of decoding Data, and keep it in what it returns, but
	// must not change it: a hand-off that fails here goes to the stream
	// encoded from it (Handoff leaves Data nil until then). Nil from a stream,
	// unless the stage's own Secrets func, which runs first, decoded Data
	// and left the value here for its handler.
	Value any
	// NumDelivered counts deliveries of this message, 1 on the first.
	NumDelivered uint64
	// StreamSeq is the message's sequence in its stream: stable across redeliveries.
	StreamSeq uint64
}

// Out is a message a handler wants published. Everything a handler returns is
// published, and acknowledged by the server, before its input is acked.
type Out struct {
	Subject string
	Data    []byte
	// ID becomes the Nats-Msg-Id header: a message published twice with the
	// same ID inside the stream's duplicate window is stored once, so a
	// redelivered input never duplicates downstream work. Derive it from the
	// input (intent id and stage), never from time or randomness.
	ID string
	// Header carries extra headers.
	Header nats.Header
	// Secret marks a hand-off to another stage's work queue (pipe.…) that
	// must keep the input's secrets: the call the executor runs. Every
	// other output is scrubbed of them (Stage.Secrets).
	Secret bool
	// StampTraceID marks Data as a JSON object without a "trace_id" key
	// that takes the trace id of the message being handled, when it is
	// traced: results and audit records name their trace without every
	// stage handling trace context (trace.go).
	StampTraceID bool
	// Value, when set, is what Data encodes: a stage of this process that
	// takes the hand-off gets it as Msg.Value and need not decode Data.
	// The handler must not keep or change it after returning it. A Secret
	// hand-off may leave Data nil (Handoff): it is encoded from Value only
	// if it is published, not when a stage of this process takes it.
	Value any
	// traced: the trace context is in Header (and the id in Data) already.
	traced bool
}

// Handler processes one message. A nil error acks the input once every Out is
// published. A Permanent error means retrying cannot help (bad input): the
// stage's Reject answer is published, the input goes to the DLQ, and it is not
// retried. Any other error is transient: the input is redelivered with backoff
// until the consumer's MaxDeliver, then dead-lettered like a permanent one.
type Handler func(ctx context.Context, m *Msg) ([]Out, error)

// RejectFunc builds the messages that answer an input the stage gave up on
// (for example an error result to the agent's session), given the reason.
type RejectFunc func(m *Msg, reason error) []Out

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as not worth retrying.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

// Permanentf is Permanent(fmt.Errorf(format, args...)).
func Permanentf(format string, args ...any) error {
	return Permanent(fmt.Errorf(format, args...))
}

// IsPermanent reports whether err, or an error it wraps, was marked Permanent.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// Handoff is work for another stage's queue (a pipe.… subject) that keeps
// the input's secrets, with its value unencoded: most hand-offs go to a
// stage of the same process (local.go), which reads the value itself, so
// encoding it at once would be work thrown away (three of an intent's four
// hand-offs, about 3 % of the pipeline's CPU). Bytes encodes it when it is
// published.
func Handoff(subject, id string, v any) Out {
	return Out{Subject: subject, ID: id, Value: v, Secret: true}
}

// Bytes is the message's bytes: Data, or, for a hand-off from a stage of
// this process that left them to be encoded (Handoff), Value encoded as
// JSON, kept in Data for the next caller.
func (m *Msg) Bytes() ([]byte, error) {
	data, err := encoded(m.Data, m.Value, m.Subject)
	if err == nil {
		m.Data = data
	}
	return data, err
}

// Bytes is what publishing o sends: Data, or, for a hand-off whose Data was
// left to be encoded (Handoff), Value encoded as JSON.
func (o Out) Bytes() ([]byte, error) { return encoded(o.Data, o.Value, o.Subject) }

// encoded is data, or value encoded as JSON when data was left nil.
func encoded(data []byte, value any, subject string) ([]byte, error) {
	if data != nil || value == nil {
		return data, nil
	}
	data, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("encode the hand-off on %s: %w", subject, err)
	}
	return data, nil
}
