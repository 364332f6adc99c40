package pipeline

import (
	"maps"
	"testing"

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
