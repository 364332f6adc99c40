package status

import (
	"fmt"
	"sync"
	"time"

	"github.com/toolyard/toolyard/pipeline"
)

// rateMeter turns the stages' ack floors into rates: each read of the page
// against the one before. A page read alone has no rate; one read after a
// consumer was recreated (its floor fell) has none either.
type rateMeter struct {
	mu   sync.Mutex
	last map[string]floor // stream/consumer → its previous floor
}

type floor struct {
	acked uint64
	at    time.Time
}

// rates measures st against the previous call's status.
func (m *rateMeter) rates(st pipeline.Status) map[string]float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]float64{}
	next := map[string]floor{}
	for _, s := range st.Streams {
		for _, c := range s.Consumers {
			key := s.Name + "/" + c.Name
			now := floor{acked: c.Acked, at: st.Time}
			next[key] = now
			prev, ok := m.last[key]
			if dt := now.at.Sub(prev.at).Seconds(); ok && dt > 0 && now.acked >= prev.acked {
				out[key] = float64(now.acked-prev.acked) / dt
			}
		}
	}
	m.last = next
	return out
}

// rateOf is a stage's rate for the page: "—" before a second read.
func rateOf(rates map[string]float64, stream, consumer string) string {
	r, ok := rates[stream+"/"+consumer]
	if !ok {
		return "—"
	}
	return fmt.Sprintf("%.1f", r)
}
