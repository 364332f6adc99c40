package bench

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// RawReport is what plain JetStream did on the same server: messages
// published (asynchronously, pipelined), consumed by a pull consumer and
// acked, through one file-backed stream.
type RawReport struct {
	Messages    int     `json:"raw_messages"`
	Size        int     `json:"raw_message_bytes"`
	Seconds     float64 `json:"raw_seconds"`
	MsgsPerS    float64 `json:"raw_msgs_per_s"`
	PublishPerS float64 `json:"raw_publish_per_s"`
}

type rawConfig struct {
	messages, size, window int
}

// RawOption configures Raw.
type RawOption func(*rawConfig)

// WithMessages sets how many messages go through (default 100,000).
func WithMessages(n int) RawOption { return func(c *rawConfig) { c.messages = n } }

// WithMessageSize sets each message's size in bytes (default 512).
func WithMessageSize(n int) RawOption { return func(c *rawConfig) { c.size = n } }

// Raw measures plain JetStream on js's server: a temporary stream, a
// publisher keeping a window of asynchronous publishes outstanding and a
// consumer acking each message as it arrives, both at once. The clock runs
// from the first publish to the server's confirmation of the last ack. The
// stream is deleted afterwards; creating it needs the right to (admin).
func Raw(ctx context.Context, js jetstream.JetStream, opts ...RawOption) (RawReport, error) {
	cfg := rawConfig{messages: 100_000, size: 512, window: 2048}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.messages < 1 || cfg.size < 1 {
		return RawReport{}, fmt.Errorf("messages (%d) and size (%d) must be at least 1", cfg.messages, cfg.size)
	}
	run, err := runID()
	if err != nil {
		return RawReport{}, err
	}
	name, subject := "BENCH_RAW_"+run, "bench.raw."+run
	stream, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name: name, Subjects: []string{subject}, Storage: jetstream.FileStorage,
		Retention: jetstream.WorkQueuePolicy, Description: "toolyard bench pipeline --raw (temporary)",
	})
	if err != nil {
		return RawReport{}, fmt.Errorf("create stream %s: %w", name, err)
	}
	defer js.DeleteStream(context.WithoutCancel(ctx), name)
	cons, err := stream.CreateConsumer(ctx, jetstream.ConsumerConfig{
		Durable: "bench", AckPolicy: jetstream.AckExplicitPolicy, MaxAckPending: 10 * cfg.window,
	})
	if err != nil {
		return RawReport{}, fmt.Errorf("consumer on %s: %w", name, err)
	}

	var acked atomic.Int64
	finished := make(chan error, 1)
	cc, err := cons.Consume(func(m jetstream.Msg) {
		if n := acked.Add(1); n == int64(cfg.messages) {
			// Acks are handled in order: once the last is confirmed, all are.
			finished <- m.DoubleAck(ctx)
			return
		}
		_ = m.Ack()
	}, jetstream.PullMaxMessages(cfg.window))
	if err != nil {
		return RawReport{}, fmt.Errorf("consume %s: %w", name, err)
	}
	defer cc.Stop()

	payload := bytes.Repeat([]byte("x"), cfg.size)
	start := time.Now()
	for sent := 0; sent < cfg.messages; {
		n := min(cfg.window, cfg.messages-sent)
		futures := make([]jetstream.PubAckFuture, 0, n)
		for i := 0; i < n; i++ {
			f, err := js.PublishAsync(subject, payload)
			if err != nil {
				return RawReport{}, fmt.Errorf("publish to %s: %w", subject, err)
			}
			futures = append(futures, f)
		}
		select {
		case <-js.PublishAsyncComplete():
		case <-ctx.Done():
			return RawReport{}, ctx.Err()
		}
		for _, f := range futures {
			select {
			case err := <-f.Err():
				return RawReport{}, fmt.Errorf("publish to %s: %w", subject, err)
			default:
			}
		}
		sent += n
	}
	published := time.Since(start)
	select {
	case err := <-finished:
		if err != nil {
			return RawReport{}, fmt.Errorf("last ack: %w", err)
		}
	case <-ctx.Done():
		return RawReport{}, ctx.Err()
	}
	elapsed := time.Since(start)
	return RawReport{
		Messages: cfg.messages, Size: cfg.size, Seconds: elapsed.Seconds(),
		MsgsPerS: Rate(cfg.messages, elapsed), PublishPerS: Rate(cfg.messages, published),
	}, nil
}
