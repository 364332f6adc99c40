package route

import "github.com/prometheus/client_golang/prometheus"

// Decisions are the routing stage's domain metrics: how many intents each
// tier gets, and how confident discovery was about them. Processes that
// serve /metrics register them (Collectors). A redelivered intent is
// counted again, which is rare and shows as a redelivery too.
var (
	Decisions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolyard_intents_total",
		Help: "Intents routed, by tier (activated, multiple_matches, weak_matches, not_found).",
	}, []string{"tier"})
	Confidence = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "toolyard_intent_confidence",
		Help:    "Calibrated confidence of the top candidate of each routed intent, by tier.",
		Buckets: []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99},
	}, []string{"tier"})
)

// Collectors are the metrics to register.
func Collectors() []prometheus.Collector {
	return []prometheus.Collector{Decisions, Confidence, Judged}
}

func observe(d Decision) {
	Decisions.WithLabelValues(d.Tier).Inc()
	top := 0.0
	if len(d.Matches) > 0 {
		top = d.Matches[0].Confidence
	}
	Confidence.WithLabelValues(d.Tier).Observe(top)
}
