package effects

import "github.com/prometheus/client_golang/prometheus"

// Takeovers counts calls taken over from a worker whose claim lapsed (it
// died or lost NATS while the tool ran): the tool may have taken effect,
// or may still be taking it, under the old claim. A tool that dedupes on
// its idempotency key takes effect once all the same; for any other, each
// count is a possible second effect (crash windows 2 and 3 of the package
// documentation). Processes that serve /metrics register it.
var Takeovers = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "toolyard_execution_takeovers_total",
	Help: "Tool calls taken over after their claim lapsed: the tool may have run under the old claim too (deduped only by tools that honour the idempotency key).",
}, []string{"tool"})
