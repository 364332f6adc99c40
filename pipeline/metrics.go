package pipeline

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the per-stage Prometheus series every runner reports.
type Metrics struct {
	Messages     *prometheus.CounterVec
	Redeliveries *prometheus.CounterVec
	Latency      *prometheus.HistogramVec
	InFlight     *prometheus.GaugeVec
	Pending      *prometheus.GaugeVec
	AckPending   *prometheus.GaugeVec
	// StreamUsage is how full the stream a stage reads is against each of
	// its limits: the alert fires at 0.8, before a full stream refuses work.
	StreamUsage *prometheus.GaugeVec
	// Backpressure counts messages held because the stream their outputs
	// go to was full.
	Backpressure *prometheus.CounterVec
	// DLQRefused counts dead letters the DLQ refused because the stage's
	// share of it (or the whole stream) was full: the message stayed in
	// its stream instead.
	DLQRefused *prometheus.CounterVec
	// DLQEntries is how many dead letters a stage has in DLQ, and
	// DLQShareUsage how full its share is (0–1; absent without shares):
	// the alert fires at 0.8, before its dead letters are refused.
	DLQEntries    *prometheus.GaugeVec
	DLQShareUsage *prometheus.GaugeVec
	// DLQOldestAge is the age of a stage's oldest dead letter (0 when it
	// has none): entries nobody looks at grow old, and replaying them
	// late runs work the agent has long stopped waiting for.
	DLQOldestAge *prometheus.GaugeVec
	// LocalHandOffs counts messages a stage took directly from another
	// stage of its process, not from its stream (local.go); they are
	// counted in Messages too.
	LocalHandOffs *prometheus.CounterVec

	// usageAt is when each stream's usage was last read: the stages of a
	// process share these metrics and mostly read the same streams, so
	// one of them reads each stream per tick (usageDue).
	usageMu sync.Mutex
	usageAt map[string]time.Time
}

// usageDue says whether a stream's usage is to be read now, at most once
// per every (less a margin, as the stages' tickers drift) for all the
// stages sharing m.
func (m *Metrics) usageDue(stream string, now time.Time, every time.Duration) bool {
	m.usageMu.Lock()
	defer m.usageMu.Unlock()
	if last, ok := m.usageAt[stream]; ok && now.Sub(last) < every*3/4 {
		return false
	}
	if m.usageAt == nil {
		m.usageAt = map[string]time.Time{}
	}
	m.usageAt[stream] = now
	return true
}

// Outcomes of one message, the "outcome" label of toolyard_stage_messages_total.
const (
	OutcomeAck        = "ack"         // handled and acknowledged
	OutcomeRetry      = "retry"       // transient failure, redelivered later
	OutcomeRejected   = "rejected"    // permanent failure: answered with an error, dead-lettered
	OutcomeDeadLetter = "dead_letter" // gave up after MaxDeliver
)

// NewMetrics registers the stage metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Messages: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolyard_stage_messages_total", Help: "Messages handled by a stage, by outcome.",
		}, []string{"stage", "outcome"}),
		Redeliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolyard_stage_redeliveries_total", Help: "Messages that arrived more than once.",
		}, []string{"stage"}),
		Latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "toolyard_stage_handler_seconds", Help: "Handler time per message, publishing included.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2.5, 14),
		}, []string{"stage"}),
		InFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolyard_stage_in_flight", Help: "Messages being handled by this process.",
		}, []string{"stage"}),
		Pending: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolyard_stage_consumer_lag", Help: "Messages waiting for the stage's consumer (all processes).",
		}, []string{"stage"}),
		AckPending: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolyard_stage_ack_pending", Help: "Messages delivered to the stage and not yet acknowledged.",
		}, []string{"stage"}),
		StreamUsage: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolyard_stream_usage_ratio", Help: "Share of a stream's limit in use (0–1), by stream and limit (bytes, messages).",
		}, []string{"stream", "limit"}),
		Backpressure: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolyard_stage_backpressure_total", Help: "Messages a stage held because the stream its outputs go to was full.",
		}, []string{"stage"}),
		LocalHandOffs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolyard_stage_local_handoffs_total", Help: "Messages a stage took directly from another stage of its process, without a trip through its stream.",
		}, []string{"stage"}),
		DLQRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "toolyard_dlq_refused_total", Help: "Dead letters the DLQ refused because the stage's share of it, or the stream, was full; the message stays in its stream.",
		}, []string{"stage"}),
		DLQEntries: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolyard_dlq_entries", Help: "Dead letters a stage has in the DLQ.",
		}, []string{"stage"}),
		DLQShareUsage: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolyard_dlq_share_usage_ratio", Help: "Share of a stage's DLQ share (max dead letters per stage) in use (0–1).",
		}, []string{"stage"}),
		DLQOldestAge: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "toolyard_dlq_oldest_age_seconds", Help: "Age of a stage's oldest dead letter in the DLQ (0 when it has none).",
		}, []string{"stage"}),
	}
	reg.MustRegister(m.Messages, m.Redeliveries, m.Latency, m.InFlight, m.Pending, m.AckPending, m.StreamUsage, m.Backpressure, m.LocalHandOffs, m.DLQRefused,
		m.DLQEntries, m.DLQShareUsage, m.DLQOldestAge)
	return m
}
