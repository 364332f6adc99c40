package predict

import "github.com/prometheus/client_golang/prometheus"

// Prometheus metrics of the predictor and the prefetch lookups.
var (
	Predictions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolyard_predictions_total",
		Help: "Predicted intents whose search was prefetched, by source (prefix, end, context, next).",
	}, []string{"source"})
	Lookups = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolyard_prefetch_lookups_total",
		Help: "Real intents looked up among the prefetched searches, by outcome (hit, miss).",
	}, []string{"outcome"})
	WrongHits = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "toolyard_prefetch_wrong_hits_total",
		Help: "Hits a fresh search checked and found another top tool or tier for.",
	})
	CheckedHits = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "toolyard_prefetch_checked_hits_total",
		Help: "Hits checked against a fresh search.",
	})
	SavedSeconds = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "toolyard_prefetch_saved_seconds_total",
		Help: "Time hits saved: the checking fresh search's duration less the lookup's.",
	})
	Chunks = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "toolyard_predict_chunks_total",
		Help: "Stream chunks the predict stage read (those dropped as invalid, duplicate or stale included).",
	})
	Sessions = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "toolyard_predict_sessions",
		Help: "Sessions the predict stage follows now (each about a kilobyte; forgotten when they end, go idle past the TTL, or past the cap).",
	})
	Dropped = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolyard_predict_dropped_total",
		Help: "Predictions not prefetched (busy: too many searches running) and chunks dropped (duplicate, stale).",
	}, []string{"reason"})
)

// The dropped-chunk counters the stage moves on every chunk, looked up once.
var (
	droppedDuplicate = Dropped.WithLabelValues("duplicate")
	droppedStale     = Dropped.WithLabelValues("stale")
)

// Collectors are the package's metrics, for a registry.
func Collectors() []prometheus.Collector {
	return []prometheus.Collector{Predictions, Lookups, WrongHits, CheckedHits, SavedSeconds, Dropped, Chunks, Sessions}
}
