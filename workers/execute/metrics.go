package execute

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// Calls counts the calls the execute stage answered, by tool, executor
// kind and outcome: "executed", or the error code of the result
// (tool_failed, invalid_arguments, unavailable, a guard's code…). A call
// that takes effect once is counted when it runs, not when a redelivery
// republishes its stored result; a transient failure is counted when it
// is finally answered. Processes that serve /metrics register it.
var Calls = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "toolyard_tool_calls_total",
	Help: "Tool calls answered by the execute stage, by tool (at most 500 distinct ids a process, then \"other\"), executor kind and outcome (executed, or the result's error code).",
}, []string{"tool", "kind", "outcome"})

// maxToolLabels bounds the tool label's values a process exports: a
// registry may hold a million tools, and a series per tool ever called
// would grow without end. The first ones called keep their ids.
const maxToolLabels = 500

var toolLabels = &boundedLabels{max: maxToolLabels}

// boundedLabels hands out label values: the first max distinct ones as
// they are, every later one as "other".
type boundedLabels struct {
	mu   sync.Mutex
	max  int
	seen map[string]bool
}

func (b *boundedLabels) label(v string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen[v] {
		return v
	}
	if len(b.seen) >= b.max {
		return "other"
	}
	if b.seen == nil {
		b.seen = map[string]bool{}
	}
	b.seen[v] = true
	return v
}

// observeCall counts an answered call.
func (e *Executor) observeCall(toolID, code string) {
	kind := "unknown"
	if m, ok := e.manifest(toolID); ok {
		// A registered tool may have no executor (a description only,
		// as imported catalogues have): its call is answered, not run,
		// and must not panic here.
		kind = "none"
		if m.Executor != nil && m.Executor.Kind != "" {
			kind = m.Executor.Kind
		}
	}
	outcome := code
	if outcome == "" {
		outcome = "executed"
	}
	Calls.WithLabelValues(toolLabels.label(toolID), kind, outcome).Inc()
}
