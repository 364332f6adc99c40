package bench

import (
	"context"
	"fmt"
	"math"

	"github.com/nats-io/nats.go/jetstream"
)

// Sequences are the last sequence numbers of a server's streams (KV
// buckets and object stores included) by name: how many messages each has
// ever stored, work queues' consumed ones too.
type Sequences map[string]uint64

// StreamSequences reads the last sequence of every stream js can list.
func StreamSequences(ctx context.Context, js jetstream.JetStream) (Sequences, error) {
	seqs := Sequences{}
	l := js.ListStreams(ctx)
	for info := range l.Info() {
		seqs[info.Config.Name] = info.State.LastSeq
	}
	if err := l.Err(); err != nil {
		return nil, fmt.Errorf("list streams: %w", err)
	}
	return seqs, nil
}

// PerIntent is what each intent stored in each stream between before and
// after, the streams that stored nothing left out: the messages a stream
// gained, divided by intents, to two decimals. It is exact only on a
// server the run had to itself.
func PerIntent(before, after Sequences, intents int) map[string]float64 {
	out := map[string]float64{}
	if intents < 1 {
		return out
	}
	for name, last := range after {
		if d := last - min(before[name], last); d > 0 {
			out[name] = math.Round(float64(d)/float64(intents)*100) / 100
		}
	}
	return out
}
