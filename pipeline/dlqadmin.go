package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// DeadLetter is one entry of the DLQ stream, as the operator commands show it.
type DeadLetter struct {
	// ID is the entry's sequence in the DLQ stream.
	ID         uint64      `json:"id"`
	Stage      string      `json:"stage"`
	Reason     string      `json:"reason"`
	Subject    string      `json:"subject"` // where the message was when it was given up
	Stream     string      `json:"stream"`
	StreamSeq  uint64      `json:"stream_seq"`
	Deliveries uint64      `json:"deliveries"`
	Time       time.Time   `json:"time"`
	Data       []byte      `json:"-"`
	Header     nats.Header `json:"-"`
}

func deadLetterOf(seq uint64, subject string, h nats.Header, data []byte, stored time.Time) DeadLetter {
	d := DeadLetter{ID: seq, Stage: h.Get(HeaderDLQStage), Reason: h.Get(HeaderDLQReason), Subject: h.Get(HeaderDLQSubject),
		Stream: h.Get(HeaderDLQStream), Data: data, Header: h, Time: stored}
	if d.Stage == "" && len(subject) > len(DLQPrefix) {
		d.Stage = subject[len(DLQPrefix):]
	}
	d.StreamSeq, _ = strconv.ParseUint(h.Get(HeaderDLQStreamSeq), 10, 64)
	d.Deliveries, _ = strconv.ParseUint(h.Get(HeaderDLQDeliveries), 10, 64)
	if t, err := time.Parse(time.RFC3339Nano, h.Get(HeaderDLQTime)); err == nil {
		d.Time = t
	}
	return d
}

// DeadLetters calls fn with the DLQ's entries of stage ("" for all) stored
// since since (zero for all), oldest first, up to the last entry there when
// it started; it reads with an ordered consumer, in bounded memory.
func DeadLetters(ctx context.Context, js jetstream.JetStream, stage string, since time.Time, fn func(DeadLetter) error) error {
	filter := DLQPrefix + ">"
	if stage != "" {
		filter = DLQSubject(stage)
	}
	return ReadStream(ctx, js, StreamDLQ, filter, since, func(m jetstream.Msg, meta *jetstream.MsgMetadata) error {
		return fn(deadLetterOf(meta.Sequence.Stream, m.Subject(), m.Headers(), m.Data(), meta.Timestamp))
	})
}

// DeadLetterCount is how many entries one stage has in the DLQ.
func DeadLetterCount(ctx context.Context, js jetstream.JetStream, stage string) (uint64, error) {
	stream, err := js.Stream(ctx, StreamDLQ)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", StreamDLQ, err)
	}
	info, err := stream.Info(ctx, jetstream.WithSubjectFilter(DLQSubject(stage)))
	if err != nil {
		return 0, fmt.Errorf("%s entries of stage %s: %w", StreamDLQ, stage, err)
	}
	var n uint64
	for _, c := range info.State.Subjects {
		n += c
	}
	return n, nil
}

// DeadLetterByID reads one DLQ entry.
func DeadLetterByID(ctx context.Context, js jetstream.JetStream, id uint64) (DeadLetter, error) {
	stream, err := js.Stream(ctx, StreamDLQ)
	if err != nil {
		return DeadLetter{}, fmt.Errorf("open %s: %w", StreamDLQ, err)
	}
	m, err := stream.GetMsg(ctx, id)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return DeadLetter{}, fmt.Errorf("no dead letter %d (see 'toolyard dlq list')", id)
	}
	if err != nil {
		return DeadLetter{}, err
	}
	return deadLetterOf(m.Sequence, m.Subject, m.Header, m.Data, m.Time), nil
}

// Replay puts a dead letter back where it was given up, then removes it
// from the DLQ. The replay carries a message id derived from the entry, so
// replaying the same entry twice (two operators, a retry after a crash
// between the publish and the removal) publishes it once; what the stage
// does with it again is idempotent as every delivery is (intent-derived ids
// downstream, execution claims for effects).
func Replay(ctx context.Context, js jetstream.JetStream, d DeadLetter) error {
	if d.Subject == "" {
		return fmt.Errorf("dead letter %d has no original subject to replay to", d.ID)
	}
	m := nats.NewMsg(d.Subject)
	m.Data = d.Data
	for k, v := range d.Header {
		switch k {
		case HeaderDLQStage, HeaderDLQReason, HeaderDLQSubject, HeaderDLQStream, HeaderDLQStreamSeq, HeaderDLQDeliveries, HeaderDLQTime, jetstream.MsgIDHeader:
			continue
		}
		m.Header[k] = v
	}
	m.Header.Set(jetstream.MsgIDHeader, fmt.Sprintf("replay:%s:%d", d.Stream, d.StreamSeq))
	if _, err := js.PublishMsg(ctx, m); err != nil {
		return fmt.Errorf("replay dead letter %d to %s: %w", d.ID, d.Subject, err)
	}
	stream, err := js.Stream(ctx, StreamDLQ)
	if err != nil {
		return err
	}
	if err := stream.DeleteMsg(ctx, d.ID); err != nil {
		// Removed already (the same entry replayed twice) is done.
		if _, gerr := stream.GetMsg(ctx, d.ID); errors.Is(gerr, jetstream.ErrMsgNotFound) {
			return nil
		}
		return fmt.Errorf("replayed dead letter %d but could not remove it: %w", d.ID, err)
	}
	return nil
}

// PurgeDeadLetters removes the DLQ's entries of stage ("" for all).
func PurgeDeadLetters(ctx context.Context, js jetstream.JetStream, stage string) (uint64, error) {
	stream, err := js.Stream(ctx, StreamDLQ)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", StreamDLQ, err)
	}
	before, err := stream.Info(ctx)
	if err != nil {
		return 0, err
	}
	var opts []jetstream.StreamPurgeOpt
	if stage != "" {
		opts = append(opts, jetstream.WithPurgeSubject(DLQSubject(stage)))
	}
	if err := stream.Purge(ctx, opts...); err != nil {
		return 0, err
	}
	after, err := stream.Info(ctx)
	if err != nil {
		return 0, err
	}
	return before.State.Msgs - after.State.Msgs, nil
}
