package learn

import (
	"context"
	"fmt"
	"slices"

	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// GuardConfig are the eval guard's tolerances: a new version is promoted
// only if, on the latest slice of history, it is not worse than the
// version in force on hit@1 by more than HitTolerance, nor on ECE by more
// than ECETolerance, and that slice holds at least MinExamples examples
// (on fewer, "not worse" is luck: one right answer passed a version that
// made every request with history sure).
type GuardConfig struct {
	HitTolerance float64
	ECETolerance float64
	MinExamples  int
}

// DefaultGuard tolerates noise of a few hundred examples, not regressions.
var DefaultGuard = GuardConfig{HitTolerance: 0.01, ECETolerance: 0.02, MinExamples: 30}

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
	if candidate.N < max(cfg.MinExamples, 1) {
		ok = false
		why = append(why, fmt.Sprintf("%d held-out examples are too few to judge on (at least %d: more history, or --guard-min-examples; 'toolyard models promote --force' puts it in force all the same)",
			candidate.N, max(cfg.MinExamples, 1)))
	}
	return ok, why
}

// ScoreCurrent measures the version in force for the eval guard, putting
// it in force on engine. A version is trained on every example up to its
// manifest's Trained.Until, test slice included, so scoring it on examples
// it learned from measures recall of its own history, not discovery:
// retraining on an overlapping window would be refused against a current
// version that "knows" the answers. So it is scored on the test examples
// later than what it was trained on; when it was trained on all of them,
// its own held-out figures (recorded when it was trained) stand for it.
// what says which, for the guard's reasons.
func ScoreCurrent(ctx context.Context, engine *discover.Engine, cur *bundle.Bundle, test []labels.Example) (m Metrics, what string, err error) {
	until := cur.Manifest.Trained.Until
	unseen := test
	if !until.IsZero() {
		unseen = slices.DeleteFunc(slices.Clone(test), func(e labels.Example) bool { return !e.Time.After(until) })
	}
	if len(unseen) == 0 {
		rec := cur.Manifest.Metrics
		if _, ok := rec["after_hit_at_1"]; !ok {
			return Metrics{}, "", fmt.Errorf("the version in force, %s, was trained on the whole test slice and records no held-out figures to compare with", cur.Manifest.Version)
		}
		m = Metrics{N: int(rec["after_n"]), HitAt1: rec["after_hit_at_1"], RecallAt5: rec["after_recall_at_5"], ECE: rec["after_ece"],
			Activated: rec["after_activated"], ActivatedPrecision: rec["after_activated_precision"]}
		return m, fmt.Sprintf("%s was trained on every test example: its own held-out figures", cur.Manifest.Version), nil
	}
	if err := cur.Apply(ctx, engine); err != nil {
		return Metrics{}, "", err
	}
	if m, err = Evaluate(ctx, engine, unseen, nil); err != nil {
		return Metrics{}, "", err
	}
	return m, fmt.Sprintf("%s scored on the %d of %d test examples later than its training", cur.Manifest.Version, len(unseen), len(test)), nil
}
