package pipeline

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"
)

// Reader reads a consumer's messages one at a time until its context ends.
//
// An ordered consumer's Next makes its server-side consumer afresh on every
// call and, while the server is away, retries that without end whatever
// the context says (nats.go's reset takes no context): a reader waiting
// with a deadline outlived it, 'publish --wait' past its --timeout. An
// iterator stopped when the context ends does not, and reads without a
// new consumer per message.
type Reader struct {
	ctx  context.Context
	it   jetstream.MessagesContext
	stop func() bool
}

// NewReader starts reading cons; Stop it when done.
func NewReader(ctx context.Context, cons jetstream.Consumer) (*Reader, error) {
	it, err := cons.Messages()
	if err != nil {
		return nil, err
	}
	return &Reader{ctx: ctx, it: it, stop: context.AfterFunc(ctx, it.Stop)}, nil
}

// Next is the next message; once the context has ended, its error.
func (r *Reader) Next() (jetstream.Msg, error) {
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	m, err := r.it.Next(jetstream.NextContext(r.ctx))
	if err != nil && r.ctx.Err() != nil {
		return nil, r.ctx.Err()
	}
	return m, err
}

// Stop ends the reading.
func (r *Reader) Stop() {
	r.stop()
	r.it.Stop()
}
