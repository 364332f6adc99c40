package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/calibrate"
	"github.com/toolyard/toolyard/training/fit"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// newTrainCalibration refits the confidence models on the benchmark dev
// sets: it regenerates DefaultEncoderCalibration (--encoder use-lite) and,
// without an encoder, fits DefaultCalibration's signals on the benchmarks
// alone, for comparison (the shipped DefaultCalibration is fitted across
// registries by 'toolyard eval calibration'). The fitting experiments that
// were tests with environment knobs, as flags.
func newTrainCalibration() *cobra.Command {
	var (
		bench, encoder, format, rowsFile, version string
		right, need                               []string
		prior                                     float64
		folds                                     int
		seeds                                     []uint
	)
	c := &cobra.Command{
		Use:   "calibration [--bench DIR] [--encoder use-lite] [--format go|json]",
		Short: "Refit a confidence model on the benchmark dev sets and print it (Go or JSON) with its cross-validated figures",
		Long: `With --encoder use-lite, regenerates DefaultEncoderCalibration
(workers/discover/calibration.go). Without, fits DefaultCalibration's signals on the
benchmarks alone, to compare: the shipped DefaultCalibration is fitted across five
registries, small ones included, by 'toolyard eval calibration --out FILE'. Every
query of the dev sets under --bench (MetaTool queries and awareness over MetaTool's
tools, Seal-Tools over its own) is ranked by the hybrid engine; the top candidate's
signals are the row. P(right | needs a tool) is fitted on the rows that need a tool,
P(needs a tool) on the awareness rows (labelled needs_tool) with its bias moved to
--prior; both are L2-regularised logistic regressions (l2 1e-3).

Printed on stderr: per set, the figures of --folds-fold cross-validation (one block
per --seeds fold shuffle): ECE, the share activated (>= 0.85) and how many of those
are right, AUROC of right vs wrong and, for awareness, of needs a tool vs not. Then
how far the model fitted on all rows is from the shipped one. On stdout: that model,
as the Go return statement of the Default…Calibration function (--format go) or as
the JSON document 'toolyard models' and SetCalibration read (--format json).

Experiments: --right and --need choose other features (signals, the extras
coverage_margin, tool_coverage_margin, margin_ratio, or derived ones: a*b, log:a,
a>t, a<t); only a model of signals, their
hinges (a>t) and products of two (a*b) is printed. Collecting the rows takes minutes:
--rows FILE keeps them (read when the file exists, written when not; delete it after
changing the engine).`,
		Example: `  toolyard train calibration --bench ../shared/bench > /tmp/default.go
  toolyard train calibration --encoder use-lite --format json --seeds 1,2,3
  toolyard train calibration --rows /tmp/rows.json --right margin,cosine,coverage,known`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			shipped, err := shippedCalibration(encoder)
			if err != nil {
				return err
			}
			spec := fit.SpecOf(shipped)
			if len(right) > 0 {
				spec.Right = right
			}
			if len(need) > 0 {
				spec.Need = need
			}
			if cmd.Flags().Changed("prior") {
				spec.Prior = prior
			}
			if version == "" {
				version = shipped.Version
			}
			if format != "go" && format != "json" {
				return fmt.Errorf("--format %q: want go or json", format)
			}
			stderr := cmd.ErrOrStderr()
			rows, err := benchRows(cmd, bench, encoder, rowsFile)
			if err != nil {
				return err
			}
			for _, seed := range seeds {
				conf, _, err := fit.CrossValidate(rows, spec, folds, uint64(seed))
				if err != nil {
					return err
				}
				fmt.Fprintf(stderr, "%d-fold cross-validation, shuffle %d (right %v; need %v, prior %.2f):\n", folds, seed, spec.Right, spec.Need, spec.Prior)
				fit.Print(stderr, fit.Report(rows, conf))
			}
			m, err := fit.Fit(rows, spec)
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "P(need) bias %.4f on the awareness rows (base rate %.3f), moved to the prior %.2f\n",
				m.Need.Bias-logitOf(spec.Prior)+logitOf(m.NeedBase), m.NeedBase, spec.Prior)
			note := fmt.Sprintf("regenerate: toolyard train calibration%s; P(need) x P(right|need), logistic, l2 %g, need prior %.2f; %d-fold CV figures in the doc comment",
				encoderArg(encoder), spec.L2, spec.Prior, folds)
			cal, err := m.Calibration(version, note)
			if err != nil {
				return fmt.Errorf("the fitted model cannot be shipped (only signals can; see 'toolyard train calibration --help'): %w", err)
			}
			if d, ok := calibrationDistance(cal, shipped); ok {
				fmt.Fprintf(stderr, "largest difference from the shipped %s: %.4f (weights and biases)\n", shipped.Version, d)
			} else {
				fmt.Fprintf(stderr, "features differ from the shipped %s\n", shipped.Version)
			}
			return writeCalibration(cmd.OutOrStdout(), cal, format)
		},
	}
	fl := c.Flags()
	fl.StringVar(&bench, "bench", benchDefault(), "benchmarks folder with metatool/ and sealtools/ (env TOOLYARD_BENCH)")
	fl.StringVar(&encoder, "encoder", "none", encoderUsage+" (use-lite regenerates DefaultEncoderCalibration)")
	fl.StringVar(&format, "format", "go", "output: go (the return statement of the Default…Calibration function) or json")
	fl.StringVar(&rowsFile, "rows", "", "keep the collected rows in this JSON-lines file (the format of eval calibration --save-rows): read it when it exists, write it when not")
	fl.StringVar(&version, "version", "", "version name of the model (default: the shipped model's)")
	fl.StringSliceVar(&right, "right", nil, "features of P(right | needs a tool) (default: the shipped model's)")
	fl.StringSliceVar(&need, "need", nil, "features of P(needs a tool) (default: the shipped model's)")
	fl.Float64Var(&prior, "prior", 0.9, "share of intents assumed to need a tool; the need model's bias is moved to it (default: the shipped model's)")
	fl.IntVar(&folds, "folds", 5, "cross-validation folds")
	fl.UintSliceVar(&seeds, "seeds", []uint{1}, "fold shuffles to cross-validate with, one block of figures each")
	return c
}

func benchDefault() string {
	if d := os.Getenv("TOOLYARD_BENCH"); d != "" {
		return d
	}
	return "../shared/bench"
}

func shippedCalibration(encoder string) (discover.Calibration, error) {
	switch encoder {
	case "", "none":
		return discover.DefaultCalibration(), nil
	case "use-lite":
		return discover.DefaultEncoderCalibration(), nil
	}
	return discover.Calibration{}, fmt.Errorf("--encoder %q: want none or use-lite", encoder)
}

func encoderArg(encoder string) string {
	if encoder == "" || encoder == "none" {
		return ""
	}
	return " --encoder " + encoder
}

// benchRows collects the rows, or reads them from rowsFile.
func benchRows(cmd *cobra.Command, bench, encoder, rowsFile string) ([]fit.Row, error) {
	stderr := cmd.ErrOrStderr()
	if rowsFile != "" {
		f, err := os.Open(rowsFile)
		if err == nil {
			defer f.Close()
			rows, err := calibrate.ReadRows(f)
			if err != nil {
				return nil, fmt.Errorf("--rows %s: %w", rowsFile, err)
			}
			fmt.Fprintf(stderr, "%d rows from %s\n", len(rows), rowsFile)
			return rows, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("--rows: %w", err)
		}
	}
	if _, err := os.Stat(bench); err != nil {
		return nil, fmt.Errorf("--bench: the benchmark data is needed (shared/bench beside the repository, or TOOLYARD_BENCH): %w", err)
	}
	rows, err := fit.CollectBench(cmd.Context(), bench, func(tools []schemas.Manifest) (*discover.Engine, error) {
		return trainEngine(cmd.Context(), tools, embed.Config{}, encoder)
	}, func(set string, n int) { fmt.Fprintf(stderr, "ranking %d %s queries\n", n, set) })
	if err != nil {
		return nil, err
	}
	if rowsFile != "" {
		if err := writeFileWith(rowsFile, func(w io.Writer) error { return calibrate.WriteRows(w, rows) }); err != nil {
			return nil, fmt.Errorf("--rows: %w", err)
		}
	}
	return rows, nil
}

// calibrationDistance is the largest absolute difference of two models'
// weights and biases, when they weigh the same features.
func calibrationDistance(a, b discover.Calibration) (float64, bool) {
	if !slices.Equal(a.Features, b.Features) || (a.Need == nil) != (b.Need == nil) {
		return 0, false
	}
	d := math.Abs(a.Bias - b.Bias)
	for i := range a.Weights {
		d = max(d, math.Abs(a.Weights[i]-b.Weights[i]))
	}
	if a.Need != nil {
		if !slices.Equal(a.Need.Features, b.Need.Features) {
			return 0, false
		}
		d = max(d, math.Abs(a.Need.Bias-b.Need.Bias))
		for i := range a.Need.Weights {
			d = max(d, math.Abs(a.Need.Weights[i]-b.Need.Weights[i]))
		}
	}
	return d, true
}

func writeCalibration(w io.Writer, c discover.Calibration, format string) error {
	if format == "json" {
		b, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	b, err := fit.FormatGo(c)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func logitOf(p float64) float64 { return math.Log(p / (1 - p)) }
