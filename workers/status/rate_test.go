package status

import (
	"testing"
	"time"

	"github.com/toolyard/toolyard/pipeline"
)

// A stage's rate is its ack floor's change since the page was last read;
// the first read, and a floor that fell (the consumer was recreated), have
// none.
func TestRateMeter(t *testing.T) {
	status := func(at time.Time, acked uint64) pipeline.Status {
		return pipeline.Status{Time: at, Streams: []pipeline.StreamStatus{{Name: "PIPE",
			Consumers: []pipeline.ConsumerStatus{{Name: "execute", Acked: acked}}}}}
	}
	var m rateMeter
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if r := m.rates(status(t0, 100)); len(r) != 0 {
		t.Errorf("first read: %v, want no rate", r)
	}
	if r := m.rates(status(t0.Add(2*time.Second), 150)); r["PIPE/execute"] != 25 {
		t.Errorf("second read: %v, want PIPE/execute 25/s", r)
	}
	if r := m.rates(status(t0.Add(4*time.Second), 150)); r["PIPE/execute"] != 0 || len(r) != 1 {
		t.Errorf("idle: %v, want 0/s", r)
	}
	if r := m.rates(status(t0.Add(6*time.Second), 10)); len(r) != 0 {
		t.Errorf("after the floor fell: %v, want no rate", r)
	}
	if got := rateOf(map[string]float64{"PIPE/execute": 0}, "PIPE", "execute"); got != "0.0" {
		t.Errorf("rateOf an idle stage = %q, want 0.0", got)
	}
	if got := rateOf(nil, "PIPE", "execute"); got != "—" {
		t.Errorf("rateOf before a second read = %q", got)
	}
}
