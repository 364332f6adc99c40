package learn

import "fmt"

// GuardConfig are the eval guard's tolerances: a new version is promoted
// only if, on the latest slice of history, it is not worse than the
// version in force on hit@1 by more than HitTolerance, nor on ECE by more
// than ECETolerance.
type GuardConfig struct {
	HitTolerance float64
	ECETolerance float64
}

// DefaultGuard tolerates noise of a few hundred examples, not regressions.
var DefaultGuard = GuardConfig{HitTolerance: 0.01, ECETolerance: 0.02}

// Judge compares a candidate's figures with the current version's on the
// same examples and says whether to promote it, and why (or why not).
func Judge(candidate, current Metrics, cfg GuardConfig) (bool, []string) {
	ok := true
	var why []string
	if d := candidate.HitAt1 - current.HitAt1; d < -cfg.HitTolerance {
		ok = false
		why = append(why, fmt.Sprintf("hit@1 %.3f is worse than the current %.3f by %.3f (tolerance %.3f)", candidate.HitAt1, current.HitAt1, -d, cfg.HitTolerance))
	} else {
		why = append(why, fmt.Sprintf("hit@1 %.3f vs current %.3f", candidate.HitAt1, current.HitAt1))
	}
	if d := candidate.ECE - current.ECE; d > cfg.ECETolerance {
		ok = false
		why = append(why, fmt.Sprintf("ECE %.3f is worse than the current %.3f by %.3f (tolerance %.3f)", candidate.ECE, current.ECE, d, cfg.ECETolerance))
	} else {
		why = append(why, fmt.Sprintf("ECE %.3f vs current %.3f", candidate.ECE, current.ECE))
	}
	if candidate.N == 0 {
		ok = false
		why = append(why, "no held-out examples to judge on")
	}
	return ok, why
}
