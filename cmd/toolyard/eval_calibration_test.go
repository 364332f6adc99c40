package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// eval calibration --held-out scores the shipped model and the model it
// fits on the held-out sets, which the fit never sees.
func TestEvalCalibrationScoresTheHeldOutSets(t *testing.T) {
	needWordVectors(t)
	rows := writeRows(t)
	t.Chdir(filepath.Join("..", ".."))
	out, stderr, err := runRoot("eval", "calibration", "--rows", rows, "--held-out", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var report calibrationReport
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(report.HeldOutShipped) != 5 || len(report.HeldOutFitted) != 5 {
		t.Fatalf("held-out folds: %d shipped, %d fitted; want the 5 sets", len(report.HeldOutShipped), len(report.HeldOutFitted))
	}
	differs := false
	for i, f := range report.HeldOutShipped {
		if !strings.HasPrefix(f.LeftOut, "holdout-") || f.Metrics.WithTool < 75 || f.Metrics.NoTool < 24 {
			t.Errorf("held-out set %q: %+v", f.LeftOut, f.Metrics)
		}
		differs = differs || f.Metrics != report.HeldOutFitted[i].Metrics
	}
	if !differs {
		t.Error("a model fitted on random rows scores exactly as the shipped one on every held-out set: the fitted model was not the one scored")
	}
	if _, _, err := runRoot("eval", "calibration", "--rows", rows); err != nil {
		t.Fatalf("without --held-out: %v", err)
	}
}
