package fit

import (
	"math"
	"testing"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval/evaltest"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// The shipped DefaultCalibration is what 'toolyard train calibration'
// regenerates: fitted again on the benchmark dev sets, every weight and
// bias comes out as shipped (to the four decimals it is written with). A
// change of the engine's signals that moves them fails here: refit, and
// paste the command's output with its new figures. Needs the benchmark
// data and the word vectors (fails without them in CI).
func TestShippedCalibrationRegenerates(t *testing.T) {
	if testing.Short() {
		t.Skip("ranks every dev query of the benchmarks")
	}
	bench := evaltest.Path(t)
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	rows, err := CollectBench(t.Context(), bench, func(tools []schemas.Manifest) (*discover.Engine, error) {
		return discover.New(tools, discover.WithMode(discover.ModeHybrid), discover.WithEmbedder(emb))
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	shipped := discover.DefaultCalibration()
	m, err := Fit(rows, SpecOf(shipped))
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Calibration(shipped.Version, "")
	if err != nil {
		t.Fatal(err)
	}
	const tol = 2e-4 // the last written digit, and float noise across machines
	check := func(what string, g, w float64) {
		if math.Abs(g-w) > tol {
			t.Errorf("%s: refitted %.4f, shipped %.4f", what, g, w)
		}
	}
	for i, f := range shipped.Features {
		check("P(right | need) "+f, got.Weights[i], shipped.Weights[i])
	}
	check("P(right | need) bias", got.Bias, shipped.Bias)
	for i, f := range shipped.Need.Features {
		check("P(need) "+f, got.Need.Weights[i], shipped.Need.Weights[i])
	}
	check("P(need) bias", got.Need.Bias, shipped.Need.Bias)
}
