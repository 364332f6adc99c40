package route

import "github.com/prometheus/client_golang/prometheus"

// Verdicts of feedback on a routed intent's top tool.
const (
	VerdictRight   = "right"
	VerdictWrong   = "wrong"
	VerdictUnknown = "unknown"
)

// TierUnknown labels feedback on an intent whose routing decision was not
// found (older than the audit keeps, or never routed: a direct call).
const TierUnknown = "unknown"

// Judged counts feedback by the tier its intent was routed to and what it
// says of the top tool. Its activated series is activation's precision
// where agents said what they wanted: right / (right + wrong). The tiers
// promise "right with probability ≥ 0.85" when activated, so a falling
// share is calibration drifting from the traffic (ops/prometheus/alerts.yaml).
var Judged = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "toolyard_feedback_total",
	Help: "Feedback on routed intents, by the tier the intent was routed to (unknown: its decision was not found) and whether it says the top tool was right (right, wrong, unknown).",
}, []string{"tier", "verdict"})

// Judge says what feedback tells of a routed intent's top tool. wanted is
// the tool the agent says it wanted; with wrong set, the agent says
// instead that wanted (the top tool when empty) was the wrong one, which
// judges the top tool only when it names it.
func Judge(top, wanted string, wrong bool) string {
	switch {
	case top == "":
		return VerdictUnknown
	case !wrong && wanted == top:
		return VerdictRight
	case !wrong:
		return VerdictWrong
	case wanted == "" || wanted == top:
		return VerdictWrong
	}
	return VerdictUnknown
}
