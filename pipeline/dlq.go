package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Headers of a dead letter: the payload is the original message, these say
// where it came from and why it was given up.
const (
	HeaderDLQStage      = "Toolyard-Stage"
	HeaderDLQReason     = "Toolyard-Reason"
	HeaderDLQSubject    = "Toolyard-Subject"
	HeaderDLQStream     = "Toolyard-Stream"
	HeaderDLQStreamSeq  = "Toolyard-Stream-Seq"
	HeaderDLQDeliveries = "Toolyard-Deliveries"
	HeaderDLQTime       = "Toolyard-Time"
	// HeaderDLQRedacted says the payload had secrets replaced by Redacted:
	// a replay runs without them.
	HeaderDLQRedacted = "Toolyard-Redacted"
)

// DLQSubject is where a stage's dead letters go.
func DLQSubject(stage string) string { return DLQPrefix + stage }

// deadLetter builds the DLQ copy of a message, scrubbed of its secrets.
// Its id makes a second attempt to dead-letter the same message (two
// processes, a retry) a duplicate.
func deadLetter(stage, stream string, m *Msg, reason error, sc *Scrubber) Out {
	h := nats.Header{}
	for k, v := range m.Header {
		if k != jetstream.MsgIDHeader {
			h[k] = v
		}
	}
	h.Set(HeaderDLQStage, stage)
	h.Set(HeaderDLQReason, reason.Error())
	h.Set(HeaderDLQSubject, m.Subject)
	h.Set(HeaderDLQStream, stream)
	h.Set(HeaderDLQStreamSeq, strconv.FormatUint(m.StreamSeq, 10))
	h.Set(HeaderDLQDeliveries, strconv.FormatUint(m.NumDelivered, 10))
	h.Set(HeaderDLQTime, time.Now().UTC().Format(time.RFC3339Nano))
	data, redacted := sc.Bytes(m.Data)
	if redacted {
		h.Set(HeaderDLQRedacted, "true")
	}
	return Out{
		Subject: DLQSubject(stage), Data: data, Header: sc.Header(h),
		ID: fmt.Sprintf("dlq:%s:%s:%d", stage, stream, m.StreamSeq),
	}
}

// maxDeliveriesAdvisory is the part of the server's advisory we use.
type maxDeliveriesAdvisory struct {
	Stream     string `json:"stream"`
	Consumer   string `json:"consumer"`
	StreamSeq  uint64 `json:"stream_seq"`
	Deliveries uint64 `json:"deliveries"`
}

// sweepMaxDeliveries dead-letters messages whose last delivery was never
// answered: the process handling it died, so no handler could. The server
// announces them with an advisory; the stage's processes share a queue group
// so one of them handles each.
func (r *runner) sweepMaxDeliveries(ctx context.Context) (*nats.Subscription, error) {
	subject := fmt.Sprintf("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.%s.%s", r.stage.Stream, r.stage.Name)
	return r.nc.QueueSubscribe(subject, "toolyard-dlq-"+r.stage.Name, func(msg *nats.Msg) {
		var adv maxDeliveriesAdvisory
		if err := json.Unmarshal(msg.Data, &adv); err != nil {
			r.log.Warn("unreadable max-deliveries advisory", "error", err)
			return
		}
		if err := r.deadLetterBySeq(ctx, adv); err != nil {
			r.log.Error("dead-letter after max deliveries failed; message stays in its stream", "stream_seq", adv.StreamSeq, "error", err)
		}
	})
}

func (r *runner) deadLetterBySeq(ctx context.Context, adv maxDeliveriesAdvisory) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	stream, err := r.js.Stream(ctx, r.stage.Stream)
	if err != nil {
		return fmt.Errorf("stream %s: %w", r.stage.Stream, err)
	}
	raw, err := stream.GetMsg(ctx, adv.StreamSeq)
	if err != nil {
		return fmt.Errorf("get message %d: %w", adv.StreamSeq, err)
	}
	m := &Msg{Subject: raw.Subject, Data: raw.Data, Header: raw.Header, NumDelivered: adv.Deliveries, StreamSeq: adv.StreamSeq}
	// The dead letter and the answer belong to the message's trace.
	ctx = ExtractTrace(ctx, m.Header)
	reason := fmt.Errorf("no worker finished this message in %d deliveries (workers crashed or timed out while handling it)", adv.Deliveries)
	sc := r.scrubber(ctx, m)
	defer holdSecrets(sc)()
	outs := r.rejectOuts(m, reason, sc)
	if err := r.publish(ctx, outs); err != nil {
		if r.refusedByDLQ(err) {
			return fmt.Errorf("%s: %w", dlqFullMessage, err)
		}
		return err
	}
	r.metrics.Messages.WithLabelValues(r.stage.Name, OutcomeDeadLetter).Inc()
	r.log.Warn("dead-lettered after max deliveries", "subject", m.Subject, "stream_seq", m.StreamSeq, "deliveries", adv.Deliveries)
	if r.stage.removeAfterDeadLetter() {
		if err := stream.DeleteMsg(ctx, adv.StreamSeq); err != nil && !isNotFound(err) {
			return fmt.Errorf("remove dead-lettered message %d: %w", adv.StreamSeq, err)
		}
	}
	return nil
}

// publishError is a publish the server refused or never acknowledged,
// with the subject it went to.
type publishError struct {
	subject string
	err     error
}

func (e *publishError) Error() string { return "publish to " + e.subject + ": " + e.err.Error() }
func (e *publishError) Unwrap() error { return e.err }

// dlqFullMessage says what a refused dead letter means for the message.
const dlqFullMessage = "dead letter refused: the DLQ holds as many entries for this stage as it may (its per-stage share, or the whole stream, is full); " +
	"the message stays in its stream, unacknowledged, and is tried again; make room with 'toolyard dlq replay' or 'toolyard dlq purge' for the stage"

// dlqFullKeptMessage says what happens instead to answered bad input
// (runner.letGoAnswered); the log line says whether its stream keeps it.
const dlqFullKeptMessage = "rejected and answered with an error result, but not dead-lettered: the DLQ holds as many entries for this stage as it may; " +
	"the input is not tried again; make room with 'toolyard dlq replay' or 'toolyard dlq purge' for the stage"

// refusedByDLQ reports whether err is the DLQ refusing a dead letter
// because it is full (discard-new: older entries are never evicted for a
// newer one), and counts it.
func (r *runner) refusedByDLQ(err error) bool {
	var pe *publishError
	if !errors.As(err, &pe) || !strings.HasPrefix(pe.subject, DLQPrefix) || !streamFull(pe.err) {
		return false
	}
	r.metrics.DLQRefused.WithLabelValues(r.stage.Name).Inc()
	return true
}

// reportDLQ sets the stage's dead-letter gauges, and DLQ's usage against
// its own limits (every stage reports it; they agree).
func (r *runner) reportDLQ(ctx context.Context) {
	st, err := r.js.Stream(ctx, StreamDLQ)
	if err != nil {
		return
	}
	subject := DLQSubject(r.stage.Name)
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(subject))
	if err != nil {
		return
	}
	n := info.State.Subjects[subject]
	r.metrics.DLQEntries.WithLabelValues(r.stage.Name).Set(float64(n))
	age := 0.0
	if n > 0 {
		// The stage's first entry: a get that jumps to its subject.
		if m, err := st.GetMsg(ctx, info.State.FirstSeq, jetstream.WithGetMsgSubject(subject)); err == nil {
			age = max(0, time.Since(m.Time).Seconds())
		}
	}
	r.metrics.DLQOldestAge.WithLabelValues(r.stage.Name).Set(age)
	if share := info.Config.MaxMsgsPerSubject; share > 0 {
		r.metrics.DLQShareUsage.WithLabelValues(r.stage.Name).Set(float64(n) / float64(share))
	}
	for limit, used := range streamUsage(info) {
		r.metrics.StreamUsage.WithLabelValues(StreamDLQ, limit).Set(used)
	}
}

func isNotFound(err error) bool {
	return err == jetstream.ErrMsgNotFound || err == jetstream.ErrMsgDeleteUnsuccessful
}
