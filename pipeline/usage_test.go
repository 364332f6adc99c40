package pipeline

import (
	"maps"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

func TestStreamUsage(t *testing.T) {
	info := func(maxBytes, maxMsgs int64, bytes, msgs uint64) *jetstream.StreamInfo {
		return &jetstream.StreamInfo{
			Config: jetstream.StreamConfig{MaxBytes: maxBytes, MaxMsgs: maxMsgs},
			State:  jetstream.StreamState{Bytes: bytes, Msgs: msgs},
		}
	}
	for _, tc := range []struct {
		name string
		in   *jetstream.StreamInfo
		want map[string]float64
	}{
		{"no info", nil, map[string]float64{}},
		{"unlimited (-1) reports nothing", info(-1, -1, 500, 5), map[string]float64{}},
		{"bytes limit only", info(1000, -1, 800, 3), map[string]float64{LimitBytes: 0.8}},
		{"both limits", info(1000, 10, 250, 9), map[string]float64{LimitBytes: 0.25, LimitMessages: 0.9}},
		{"full", info(100, 0, 100, 1), map[string]float64{LimitBytes: 1}},
	} {
		if got := streamUsage(tc.in); !maps.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The stages of a process share their metrics: each stream's usage is read
// by one of them per tick, whichever comes first.
func TestUsageDueOncePerTick(t *testing.T) {
	m := &Metrics{}
	t0 := time.Unix(1000, 0)
	every := 4 * time.Second
	steps := []struct {
		stream string
		at     time.Duration
		due    bool
	}{
		{StreamPipe, 0, true},
		{StreamPipe, 10 * time.Millisecond, false}, // another stage, same tick
		{StreamResult, 10 * time.Millisecond, true},
		{StreamPipe, 2 * time.Second, false},
		{StreamPipe, 3 * time.Second, true}, // the next tick, drifted early
		{StreamPipe, 3*time.Second + time.Millisecond, false},
	}
	for i, s := range steps {
		if got := m.usageDue(s.stream, t0.Add(s.at), every); got != s.due {
			t.Errorf("step %d (%s at %s): due %v, want %v", i, s.stream, s.at, got, s.due)
		}
	}
}
