package stages

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolyard/toolyard/workers/effects"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

// Collectors are the stages' own metrics beside the runner's
// (pipeline.NewMetrics): routing decisions and feedback on them,
// resolutions, the executor's calls and takeovers, prediction and
// prefetch. Every process that runs stages registers them, and ops/ checks
// the alert rules and the dashboard against this list, so a series is
// exported exactly when the deploy files may query it.
func Collectors() []prometheus.Collector {
	out := append(route.Collectors(), effects.Takeovers, execute.Calls)
	out = append(out, resolve.Collectors()...)
	return append(out, predict.Collectors()...)
}
