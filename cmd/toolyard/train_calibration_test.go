package main

import (
	"bytes"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/training/calibrate"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/training/fit"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// writeRows writes rows of random signals (a --rows file), labels drawn
// so that a larger margin means right and more known words a need.
func writeRows(t *testing.T) string {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var rows []fit.Row
	for i := range 600 {
		x := map[string]float64{}
		for _, f := range append(discover.FeatureNames(), fit.Extras...) {
			x[f] = r.Float64()
		}
		row := fit.Row{Set: fit.SetMetaTool, X: x, Need: true}
		if i%3 == 0 {
			row.Set, row.Need = fit.SetAwareness, r.Float64() < x[discover.FeatureKnown]
		}
		row.Right = row.Need && r.Float64() < x[discover.FeatureMargin]
		rows = append(rows, row)
	}
	p := filepath.Join(t.TempDir(), "rows.jsonl")
	if err := writeFileWith(p, func(w io.Writer) error { return calibrate.WriteRows(w, rows) }); err != nil {
		t.Fatal(err)
	}
	return p
}

// needWordVectors fails the test in CI, and skips it locally, when the
// build has no word vectors.
func needWordVectors(t *testing.T) {
	t.Helper()
	if _, err := embed.NewLocal(); err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
}

func runRoot(args ...string) (string, string, error) {
	var out, errOut bytes.Buffer
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.Execute()
	return out.String(), errOut.String(), err
}

func TestTrainCalibrationPrintsAShippableModel(t *testing.T) {
	rows := writeRows(t)
	out, stderr, err := runRoot("train", "calibration", "--rows", rows, "--format", "json", "--seeds", "1,2", "--version", "test-7")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	c, err := discover.ParseCalibration([]byte(out))
	if err != nil {
		t.Fatalf("the JSON printed is not a calibration: %v\n%s", err, out)
	}
	shipped := discover.DefaultCalibration()
	if c.Version != "test-7" || strings.Join(c.Features, ",") != strings.Join(shipped.Features, ",") || c.Need == nil {
		t.Errorf("calibration %+v; want test-7 with the shipped features and a need model", c)
	}
	if !strings.Contains(c.Note, "toolyard train calibration") {
		t.Errorf("note %q does not name the command that produced it", c.Note)
	}
	for _, want := range []string{"shuffle 1", "shuffle 2", "awareness", "AUROC(need)", "largest difference from the shipped " + shipped.Version} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	out, stderr, err = runRoot("train", "calibration", "--rows", rows, "--encoder", "use-lite")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.HasPrefix(out, "return Calibration{") || !strings.Contains(out, `"encoder_cosine"`) || !strings.Contains(out, "--encoder use-lite") {
		t.Errorf("--encoder use-lite should refit the encoder model's features, as Go:\n%s", out)
	}
}

func TestTrainCalibrationRefusesBadRequests(t *testing.T) {
	rows := writeRows(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--rows", rows, "--format", "yaml"}, `--format "yaml"`},
		{[]string{"--rows", rows, "--encoder", "minilm"}, `--encoder "minilm"`},
		{[]string{"--rows", rows, "--right", "log:margin"}, "cannot be shipped"},
		{[]string{"--rows", rows, "--right", "nope"}, `unknown feature "nope"`},
		{[]string{"--rows", rows, "--folds", "1"}, "at least 2 folds"},
		{[]string{"--bench", filepath.Join(t.TempDir(), "none")}, "benchmark data is needed"},
	}
	for _, tt := range tests {
		_, stderr, err := runRoot(append([]string{"train", "calibration"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want one saying %q\n%s", tt.args, err, tt.want, stderr)
		}
	}
}
