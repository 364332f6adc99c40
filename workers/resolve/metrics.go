package resolve

import "github.com/prometheus/client_golang/prometheus"

// Outcomes of a resolution (toolyard_resolutions_total).
const (
	OutcomeResolved     = "resolved"          // a complete call went to execution
	OutcomeMissing      = "missing_arguments" // a required argument was not in the request
	OutcomeInvalid      = "invalid_arguments" // an argument did not fit the schema
	OutcomeUnplaced     = "unplaced"          // a stated value would have gone unused
	OutcomeAlternatives = "alternatives"      // the resolver offered tools to choose from
	OutcomeUnknownTool  = "unknown_tool"      // the routed tool left the registry
)

// What the resolve stage counts: every activated intent's resolution by
// outcome, and the arguments of those that got as far as the tool's
// schema. The production counterpart of `eval resolve`'s fill rate, which
// needs gold calls: filled / (filled + missing) is the share of the
// arguments a call needed or took that the request supplied, and unplaced
// values are requests saying more than the call could use. Processes that
// serve /metrics register them (Collectors).
var (
	Resolutions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolyard_resolutions_total",
		Help: "Activated intents resolved into calls, by outcome (resolved, missing_arguments, invalid_arguments, unplaced, alternatives, unknown_tool).",
	}, []string{"outcome"})
	Arguments = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolyard_resolved_arguments_total",
		Help: "Arguments of resolved intents: filled from the request, missing (required, not in the request), unplaced (a value the request states that no argument took). Fill rate: filled / (filled + missing).",
	}, []string{"outcome"})
)

// Collectors are the metrics to register.
func Collectors() []prometheus.Collector { return []prometheus.Collector{Resolutions, Arguments} }

// observe counts one resolution and its arguments.
func observe(outcome string, filled, missing, unplaced int) {
	Resolutions.WithLabelValues(outcome).Inc()
	addArguments("filled", filled)
	addArguments("missing", missing)
	addArguments("unplaced", unplaced)
}

func addArguments(outcome string, n int) {
	if n > 0 {
		Arguments.WithLabelValues(outcome).Add(float64(n))
	}
}
