package stages_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// LoadModels puts in force, once, the thresholds and the calibration the
// models bucket holds, as the workers that follow it have them; an empty
// bucket leaves the defaults, and a document a worker would refuse is an
// error naming its key.
func TestLoadModelsTakesWhatTheWorkersFollow(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	store, err := models.Open(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	newSet := func() *stages.Set {
		set, err := stages.New(stages.Config{Tools: ms, Discover: []discover.Option{discover.WithMode(discover.ModeKeyword)}})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}

	set := newSet()
	if err := set.LoadModels(ctx, store); err != nil {
		t.Fatal(err)
	}
	if set.Thresholds() != route.DefaultThresholds() || set.Engine().Calibration().Version != discover.DefaultCalibration().Version {
		t.Fatalf("an empty bucket changed the models: %+v, %s", set.Thresholds(), set.Engine().Calibration().Version)
	}

	th := route.Thresholds{Activate: 0.9, Multiple: 0.6, Weak: 0.2}
	calib := discover.DefaultCalibration()
	calib.Version = "operator-1"
	for key, v := range map[string]any{models.KeyThresholds: th, models.KeyCalibration: calib} {
		if _, err := store.Publish(ctx, key, v); err != nil {
			t.Fatal(err)
		}
	}
	set = newSet()
	if err := set.LoadModels(ctx, store); err != nil {
		t.Fatal(err)
	}
	if set.Thresholds() != th || set.Engine().Calibration().Version != "operator-1" {
		t.Errorf("in force: %+v, %s; want %+v, operator-1", set.Thresholds(), set.Engine().Calibration().Version, th)
	}

	if _, err := store.Publish(ctx, models.KeyCalibration, map[string]any{"version": "bad", "features": []string{"no_such_signal"}, "weights": []float64{1}}); err != nil {
		t.Fatal(err)
	}
	if err := newSet().LoadModels(ctx, store); err == nil || !strings.Contains(err.Error(), models.KeyCalibration) {
		t.Errorf("a calibration the workers refuse: error %v, want one naming %s", err, models.KeyCalibration)
	}
}
