package calibrate

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// root is the project root.
const root = "../.."

var (
	rowsOnce sync.Once
	rowsAll  []Row
	rowsErr  error
)

// hybridEngines builds the engines collections are ranked with: hybrid,
// on the build's word vectors (without them the test fails in CI and
// skips locally).
func hybridEngines(t *testing.T) func([]schemas.Manifest) (*discover.Engine, error) {
	t.Helper()
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	return func(tools []schemas.Manifest) (*discover.Engine, error) {
		return discover.New(tools, discover.WithMode(discover.ModeHybrid), discover.WithEmbedder(emb))
	}
}

// defaultRows ranks the default collections once for every test. Without
// the bench data or the vectors it fails in CI and skips locally.
func defaultRows(t *testing.T) []Row {
	t.Helper()
	// The default collections' paths start at the project root.
	t.Chdir(root)
	var missing []string
	cols := DefaultCollections(filepath.Join("..", "shared", "bench"), func(name string) { missing = append(missing, name) })
	if len(missing) > 0 {
		evaltest.Unavailable(t, "collections", fmt.Errorf("not found: %v", missing))
	}
	newEngine := hybridEngines(t)
	rowsOnce.Do(func() {
		for _, c := range cols {
			rs, err := Rows(context.Background(), c, newEngine)
			if err != nil {
				rowsErr = err
				return
			}
			rowsAll = append(rowsAll, rs...)
		}
	})
	if rowsErr != nil {
		t.Fatal(rowsErr)
	}
	return rowsAll
}

// Each small registry's request set, scored by a model fitted WITHOUT it
// (on the other registries): the confidence must carry over to a registry
// it never saw. Floors a little under what it reaches (2026-11-28,
// default-14, activated share of the requests with a tool / right when
// activated / requests needing no tool activated / ECE: sample 0.737 /
// 1.000 / 0 / 0.061; assistant 0.528 / 0.974 / 0 / 0.059, data API
// 0.500 / 0.872 / 0.088 / 0.092), so a regression fails. The sets'
// near misses (default-14) cost the sample set's share 0.780 → 0.737:
// without action_conflict the model fitted on the others activated 17%
// of them, and only 64% of the requests with a tool. With the lead
// counted in proportion to the coverage (default-13; default-12: the
// assistant 0.542 / 0.950 / 0.040 / 0.071, the data API 0.542 / 0.857 /
// 0.120 / 0.127, the mean ECE over the five collections 0.133 → 0.113)
// the assistant's and the data API's floors moved up.
func TestSmallRegistriesLeftOut(t *testing.T) {
	rows := defaultRows(t)
	folds, err := LeaveOneOut(rows, DefaultSpec(), 0.85)
	if err != nil {
		t.Fatal(err)
	}
	floors := map[string]struct{ activated, precision, noTool, ece float64 }{
		"sample": {0.72, 0.97, 0.05, 0.07},
		"home":   {0.50, 0.95, 0.05, 0.07},
		"data":   {0.48, 0.86, 0.10, 0.10},
	}
	for _, f := range folds {
		m := f.Metrics
		t.Logf("%s left out: activated %.3f precision %.3f no-tool activated %.3f ECE %.3f", f.LeftOut, m.Activated, m.Precision, m.NoToolActivated, m.ECE)
		want, ok := floors[f.LeftOut]
		if !ok {
			continue
		}
		delete(floors, f.LeftOut)
		if m.WithTool < 48 || m.NoTool < 20 {
			t.Errorf("%s set: %d requests with a tool, %d without; want >= 2 per tool and >= 20 without", f.LeftOut, m.WithTool, m.NoTool)
		}
		if m.Activated < want.activated || m.Precision < want.precision || m.NoToolActivated > want.noTool || m.ECE > want.ece {
			t.Errorf("%s left out: activated %.3f precision %.3f no-tool %.3f ECE %.3f; want >= %.2f, >= %.2f, <= %.2f, <= %.2f",
				f.LeftOut, m.Activated, m.Precision, m.NoToolActivated, m.ECE, want.activated, want.precision, want.noTool, want.ece)
		}
	}
	for name := range floors {
		t.Errorf("collection %s was not scored", name)
	}
}

// The shipped model on the held-out sets (HeldOutCollections), which
// nothing fits on: floors a little under what it reaches (2026-11-28,
// default-14: activated / right / requests needing no tool activated /
// ECE: sample 0.593 / 0.941 / 0.100 / 0.078, DevOps 0.667 / 0.961 /
// 0.040 / 0.055, travel 0.358 / 0.935 / 0.080 / 0.068, office 0.372 /
// 0.871 / 0.080 / 0.122, study 0.474 / 0.974 / 0.040 / 0.056; default-13
// before action_conflict: sample 0.617 / 0.926 / 0.133 / 0.088, DevOps
// 0.667 / 0.925 / 0.120 / 0.086, travel 0.383 / 0.909 / 0.080 / 0.083,
// office 0.385 / 0.875 / 0.080 / 0.158, study 0.474 / 0.974 / 0.040 /
// 0.072; named
// places as values (default-11) cost the sample set one more request
// needing no tool activated, 3 → 4 of 30, and gained the others), so that a change to
// discovery or to the model that loses ground on registries it was not
// tuned on fails here, not in a user's first hour.
func TestHeldOutSets(t *testing.T) {
	checkShipped(t, HeldOutCollections(), map[string]floor{
		"holdout-sample": {0.56, 0.92, 0.11, 0.09},
		"holdout-ops":    {0.60, 0.92, 0.06, 0.08},
		"holdout-travel": {0.30, 0.90, 0.09, 0.08},
		"holdout-office": {0.30, 0.86, 0.09, 0.14},
		"holdout-study":  {0.42, 0.95, 0.05, 0.07},
	})
}

// floor is what the shipped model must reach on a set: at least the
// activated share and the precision, at most the share of requests
// needing no tool activated and the ECE (0: not held).
type floor struct{ activated, precision, noTool, ece float64 }

// checkShipped scores the shipped model on each collection and holds it
// to its floor; every collection must have one, and every floor a
// collection.
func checkShipped(t *testing.T, cols []Collection, floors map[string]floor) {
	t.Helper()
	t.Chdir(root)
	newEngine := hybridEngines(t)
	shipped := discover.DefaultCalibration()
	for _, c := range cols {
		rows, err := Rows(context.Background(), c, newEngine)
		if err != nil {
			t.Fatal(err)
		}
		m := Score(shipped, rows, 0.85)
		t.Logf("%s: activated %.3f precision %.3f no-tool activated %.3f ECE %.3f", c.Name, m.Activated, m.Precision, m.NoToolActivated, m.ECE)
		want, ok := floors[c.Name]
		if !ok {
			t.Errorf("%s: no floors", c.Name)
			continue
		}
		delete(floors, c.Name)
		if m.Activated < want.activated || m.Precision < want.precision || m.NoToolActivated > want.noTool || want.ece > 0 && m.ECE > want.ece {
			t.Errorf("%s: activated %.3f precision %.3f no-tool %.3f ECE %.3f; want >= %.2f, >= %.2f, <= %.2f, <= %.2f (0: any)",
				c.Name, m.Activated, m.Precision, m.NoToolActivated, m.ECE, want.activated, want.precision, want.noTool, want.ece)
		}
	}
	for name := range floors {
		t.Errorf("set %s was not scored", name)
	}
}

// The shipped model is what 'toolyard eval calibration' fits on the default
// collections: its constants were regenerated, not edited by hand.
func TestDefaultCalibrationIsTheFit(t *testing.T) {
	rows := defaultRows(t)
	got, err := Fit(rows, DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	want := discover.DefaultCalibration()
	near := func(what string, a, b []float64) {
		for i := range a {
			if math.Abs(a[i]-b[i]) > 0.01 {
				t.Errorf("%s weight %d: fitted %.4f, shipped %.4f: regenerate DefaultCalibration with 'toolyard eval calibration --out FILE'", what, i, a[i], b[i])
			}
		}
	}
	near("right", append(got.Weights, got.Bias), append(want.Weights, want.Bias))
	near("need", append(got.Need.Weights, got.Need.Bias), append(want.Need.Weights, want.Need.Bias))
}

// The shipped model on the check sets (CheckCollections), which nothing
// fits on: each holds one kind of request, and a change that loses ground
// on it fails here. Floors a little under what it reaches (2026-11-28,
// default-18: activated share of the requests with a tool / right among
// the activated, requests needing no tool counted wrong / requests needing
// no tool activated): terse 0.925 / 0.925 / 0.200 (3 of 15: "cpu
// temperature" and the like), near misses 0.933 / 0.933 / 0.067, the
// first hour 0.811 / 0.915 / 0.080 (4 of 50; 7 before the readings of
// questions, command lines and languages of stop 43, from which it was
// written), the requests naming one of a tool's things but asking another
// (all needing no tool: the share activated is what is still wrong, a
// ceiling here) sample 0.167, assistant 0.750, data API 0.250, and the
// CRUD registry 0.100 / 1.000.
func TestCheckSets(t *testing.T) {
	checkShipped(t, CheckCollections(), map[string]floor{
		"check-terse":            {0.90, 0.90, 0.21, 0},
		"check-nearmiss":         {0.90, 0.90, 0.07, 0},
		"check-firsthour":        {0.78, 0.90, 0.09, 0},
		"check-uncovered-sample": {0, 0, 0.17, 0},
		"check-uncovered-home":   {0, 0, 0.75, 0},
		"check-uncovered-data":   {0, 0, 0.25, 0},
		"check-crud":             {0.10, 0.99, 0, 0},
	})
}
