package pipeline

import (
	"context"
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
	// take it instead of decoding Data, and owns it. Nil from a stream,
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
	// The handler must not keep or change it after returning it.
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
