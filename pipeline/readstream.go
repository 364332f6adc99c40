package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ReadStream calls fn with the messages of a stream that match filter,
// stored since since (zero: from the start), oldest first, and stops at the
// last message stored when it started: what arrives meanwhile is for the
// next reader. It reads with an ordered consumer (no server-side state left
// behind), in batches, so memory stays bounded however long the stream.
func ReadStream(ctx context.Context, js jetstream.JetStream, name, filter string, since time.Time, fn func(jetstream.Msg, *jetstream.MsgMetadata) error) error {
	stream, state, err := openStream(ctx, js, name)
	if err != nil || state.Msgs == 0 {
		return err
	}
	last := state.LastSeq
	cfg := jetstream.OrderedConsumerConfig{FilterSubjects: []string{filter}}
	if !since.IsZero() {
		cfg.DeliverPolicy, cfg.OptStartTime = jetstream.DeliverByStartTimePolicy, &since
	}
	cons, err := stream.OrderedConsumer(ctx, cfg)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	return readUpTo(cons, last, fn)
}

// ReadStreamTail calls fn with the last n messages of a stream, oldest
// first, as ReadStream does: in batches, up to the last message stored
// when it started.
func ReadStreamTail(ctx context.Context, js jetstream.JetStream, name string, n uint64, fn func(jetstream.Msg, *jetstream.MsgMetadata) error) error {
	stream, state, err := openStream(ctx, js, name)
	if err != nil || state.Msgs == 0 || n == 0 {
		return err
	}
	last, start := state.LastSeq, state.FirstSeq
	if last >= n {
		start = max(start, last-n+1)
	}
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: start})
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	return readUpTo(cons, last, fn)
}

// openStream opens a stream and reads its state: where a reader starts
// and stops.
func openStream(ctx context.Context, js jetstream.JetStream, name string) (jetstream.Stream, jetstream.StreamState, error) {
	stream, err := js.Stream(ctx, name)
	if err != nil {
		return nil, jetstream.StreamState{}, fmt.Errorf("open %s: %w", name, err)
	}
	info, err := stream.Info(ctx)
	if err != nil {
		return nil, jetstream.StreamState{}, fmt.Errorf("stream %s: %w", name, err)
	}
	return stream, info.State, nil
}

// readUpTo feeds fn the consumer's messages, 500 a fetch, until the one at
// stream sequence last or the first fetch that finds nothing more (the
// messages up to last were removed meanwhile, or none of them match).
func readUpTo(cons jetstream.Consumer, last uint64, fn func(jetstream.Msg, *jetstream.MsgMetadata) error) error {
	for {
		batch, err := cons.Fetch(500, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			return err
		}
		n := 0
		for m := range batch.Messages() {
			n++
			meta, err := m.Metadata()
			if err != nil {
				return err
			}
			if err := fn(m, meta); err != nil {
				return err
			}
			if meta.Sequence.Stream >= last {
				return nil
			}
		}
		if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) {
			return err
		}
		if n == 0 {
			// Nothing more matches the filter up to the end.
			return nil
		}
	}
}

// FollowFromEnd returns an ordered consumer of the messages matching filter
// that a stream stores from now on. It starts after the stream's last
// sequence as it is now, not at "new" messages: an ordered consumer is
// created on its first read, and a reply published between this call and
// that read must not slip past (publish, then read its answers).
func FollowFromEnd(ctx context.Context, js jetstream.JetStream, name, filter string) (jetstream.Consumer, error) {
	stream, state, err := openStream(ctx, js, name)
	if err != nil {
		return nil, err
	}
	return stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{filter},
		DeliverPolicy:  jetstream.DeliverByStartSequencePolicy, OptStartSeq: state.LastSeq + 1,
	})
}
