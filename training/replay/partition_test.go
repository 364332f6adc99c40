package replay

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/synth"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// replayInGroups replays recs split into n groups of sessions and returns
// the summary, without what changes from run to run (latency, speed).
func replayInGroups(t *testing.T, recs []schemas.AuditRecord, n int, side *Side) Summary {
	t.Helper()
	dir := t.TempDir()
	p, err := NewPartition(n, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := p.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if p.Groups() != max(n, 1) || p.Records() != len(recs) {
		t.Fatalf("%d groups, %d records", p.Groups(), p.Records())
	}
	acc := NewAccumulator()
	groups := 0
	run := func(ctx context.Context, _ int, intents []Intent) ([]Row, error) {
		groups++
		return Run(ctx, intents, nil, side, RunOptions{})
	}
	skipped, err := ReplayGroups(context.Background(), p, labels.Options{}, acc, run, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n > 1 && groups < 2 {
		t.Fatalf("%d groups replayed of %d", groups, n)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("the groups' files are still there: %v", left)
	}
	s := acc.Summary(skipped, SideInfo{}, SideInfo{})
	for _, m := range []*Metrics{&s.Baseline.Metrics, &s.Candidate.Metrics} {
		m.LatencyP50MS, m.LatencyP99MS = nil, nil
	}
	return s
}

// A history replayed a group of sessions at a time gives the report the
// whole history replayed at once gives: labels never need another
// session's records.
func TestGroupsOfSessionsReplayLikeTheWhole(t *testing.T) {
	tools := synth.Tools(60, 3)
	var recs []schemas.AuditRecord
	for r := range synth.History(tools, 3000, 5) {
		recs = append(recs, r)
	}
	set, err := stages.New(stages.Config{Tools: tools, Thresholds: route.DefaultThresholds(), Discover: []discover.Option{discover.WithMode(discover.ModeKeyword)}})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Engine().Close()
	side, err := NewSide("candidate", set, route.Thresholds{Activate: 0.9, Multiple: 0.5, Weak: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	whole := replayInGroups(t, recs, 1, side)
	if whole.Intents < 500 || whole.Labelled < whole.Intents/2 || whole.ChangedTier == 0 {
		t.Fatalf("the synthetic history gave %d intents, %d labelled, %d changed tiers", whole.Intents, whole.Labelled, whole.ChangedTier)
	}
	// Corrections (multiple_matches, then the agent's activate) are labels.
	if whole.Skipped["direct call (no discovery)"] != 0 || whole.Baseline.Metrics.Tiers[schemas.TierMultiple] == 0 {
		t.Fatalf("skipped %v, tiers %v", whole.Skipped, whole.Baseline.Metrics.Tiers)
	}
	grouped := replayInGroups(t, recs, 7, side)
	if !reflect.DeepEqual(grouped, whole) {
		t.Fatalf("replayed in 7 groups:\n%+v\nwhole:\n%+v", grouped, whole)
	}
}

func TestGroupsFor(t *testing.T) {
	for _, c := range []struct {
		size, group int64
		want        int
	}{{0, 100, 1}, {100, 100, 1}, {101, 100, 2}, {1000, 0, 1}, {3 * DefaultGroupBytes, 0, 3}, {1 << 40, 1 << 20, MaxGroups}} {
		if got := GroupsFor(c.size, c.group); got != c.want {
			t.Errorf("GroupsFor(%d, %d) = %d, want %d", c.size, c.group, got, c.want)
		}
	}
}

// A session goes to the same group in every run, so a grouped replay's
// progress and spill files read the same each time.
func TestSessionsGoToTheSameGroupInEveryRun(t *testing.T) {
	placed := func() []int {
		p, err := NewPartition(7, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		for i := range 40 {
			if err := p.Add(schemas.AuditRecord{SessionID: fmt.Sprintf("session-%d", i)}); err != nil {
				t.Fatal(err)
			}
		}
		return append([]int(nil), p.counts...)
	}
	first := placed()
	if again := placed(); !reflect.DeepEqual(first, again) {
		t.Fatalf("groups of two runs: %v, then %v", first, again)
	}
	used := 0
	for _, n := range first {
		if n > 0 {
			used++
		}
	}
	if used < 4 {
		t.Fatalf("40 sessions in %d of 7 groups: %v", used, first)
	}
}
