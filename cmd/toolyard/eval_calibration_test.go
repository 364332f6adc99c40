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

// A --bench that holds no benchmark (or --out, which writes the model
// meant to be fitted on every collection) is an error, not a fit on the
// three small sets with a note on stderr.
func TestEvalCalibrationNeedsTheBenchItIsGiven(t *testing.T) {
	t.Setenv("TOOLYARD_BENCH", "")
	missing := filepath.Join(t.TempDir(), "no-bench")
	t.Chdir(filepath.Join("..", ".."))
	for _, args := range [][]string{
		{"eval", "calibration", "--bench", missing},
		{"eval", "calibration", "--bench", missing, "--out", filepath.Join(t.TempDir(), "cal.json")},
	} {
		_, _, err := runRoot(args...)
		if err == nil || !strings.Contains(err.Error(), "collections metatool, sealtools not found (the small sets are read from the repository's root, metatool and sealtools under --bench "+missing) {
			t.Errorf("%v: %v", args[2:], err)
		}
	}
}
