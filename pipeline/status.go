package pipeline

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Status is a snapshot of the streams and their consumers.
type Status struct {
	Time    time.Time      `json:"time"`
	Streams []StreamStatus `json:"streams"`
}

// StreamStatus is one stream with its consumers.
type StreamStatus struct {
	Name     string   `json:"name"`
	Subjects []string `json:"subjects"`
	Messages uint64   `json:"messages"`
	Bytes    uint64   `json:"bytes"`
	// UsedPercent is the fullest of the stream's limits (bytes, messages),
	// 0 when it has none: at 100 a publish is refused or old data dropped.
	UsedPercent float64 `json:"used_percent"`
	// Consumers are the durable ones: the stages' shared queues.
	Consumers []ConsumerStatus `json:"consumers"`
	// Ephemeral counts the other consumers (readers of results, watches,
	// exports), which come and go.
	Ephemeral int `json:"ephemeral_consumers"`
}

// ConsumerStatus is one consumer: a stage's shared queue.
type ConsumerStatus struct {
	Name        string `json:"name"`
	Pending     uint64 `json:"pending"`
	AckPending  int    `json:"ack_pending"`
	Redelivered int    `json:"redelivered"`
	Waiting     int    `json:"waiting_pulls"`
	// Acked is the consumer's ack floor: deliveries handled so far, its
	// change over time the stage's rate.
	Acked uint64 `json:"acked"`
}

// ReadStatus reads the state of the topology's streams.
func ReadStatus(ctx context.Context, js jetstream.JetStream) (Status, error) {
	st := Status{Time: time.Now().UTC()}
	for _, name := range []string{StreamAgent, StreamPipe, StreamResult, StreamAudit, StreamDLQ} {
		s, err := js.Stream(ctx, name)
		if err != nil {
			return st, err
		}
		info, err := s.Info(ctx)
		if err != nil {
			return st, err
		}
		ss := StreamStatus{Name: name, Subjects: info.Config.Subjects, Messages: info.State.Msgs, Bytes: info.State.Bytes}
		for _, used := range streamUsage(info) {
			ss.UsedPercent = max(ss.UsedPercent, 100*used)
		}
		cl := s.ListConsumers(ctx)
		for ci := range cl.Info() {
			if ci.Config.Durable == "" {
				ss.Ephemeral++
				continue
			}
			ss.Consumers = append(ss.Consumers, ConsumerStatus{
				Name: ci.Name, Pending: ci.NumPending, AckPending: ci.NumAckPending,
				Redelivered: ci.NumRedelivered, Waiting: ci.NumWaiting, Acked: ci.AckFloor.Consumer,
			})
		}
		st.Streams = append(st.Streams, ss)
	}
	return st, nil
}
