package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/calibrate"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/route"
)

func newEvalCalibration() *cobra.Command {
	var (
		collections          []string
		bench, encoder       string
		rowsIn, rowsOut, out string
		asJSON               bool
		threshold            = route.DefaultThresholds().Activate
		rightSpec, needSpec  string
		pooling              float64
		heldOut              bool
	)
	c := &cobra.Command{
		Use:   "calibration",
		Short: "Fit the confidence model on several collections and score each left out (leave-one-collection-out)",
		Long: `Ranks every request of each collection (a registry and labelled requests) with
hybrid discovery, keeps the top candidate's signals, and fits the confidence model
P(needs a tool) · P(right | needs a tool) on all collections at once, each weighing
the same. It prints, per collection: the shipped model's figures, and the figures of
a model fitted on the OTHER collections (leave-one-collection-out: numbers the
model did not see). --out writes the model fitted on every collection (a
Calibration JSON; workers/discover's DefaultCalibration is that model).

Collections default to the sample registry with its request set
(training/eval/testdata/sample_requests.jsonl) and, when --bench holds them,
MetaTool (queries and the awareness set) and Seal-Tools. Requests with
"needs_tool": false or no gold tool need no tool: activating one is a false alarm.

Figures: activated = share of requests with a right tool whose top confidence
reaches --activate-threshold; precision = share of activated requests that are
right; no-tool act. = share of requests needing no tool that were activated;
ECE over 10 bins; cov@0.95 = the most coverage any threshold gives at 95%
precision.

--held-out also scores the shipped model and the model fitted here on the held-out
request sets (training/eval/testdata/holdout, run from the project root): registries
and requests written by sessions that saw neither this work nor the other sets,
which nothing is fitted on. A model that does better left-one-out but worse there
was tuned to the collections.`,
		Example: `  toolyard eval calibration
  toolyard eval calibration --collection mine=tools.jsonl:requests.jsonl --out calibration.json
  toolyard eval calibration --save-rows /tmp/rows.jsonl   # then --rows /tmp/rows.jsonl to refit fast
  toolyard eval calibration --held-out`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			spec, err := calibrationSpec(rightSpec, needSpec)
			spec.Pooling = pooling
			if err != nil {
				return err
			}
			// A --bench given, or a model to write, needs every default
			// collection: without them the figures, or the written model,
			// are of fewer collections than asked for.
			strict := cmd.Flags().Changed("bench") || os.Getenv("TOOLYARD_BENCH") != "" || out != ""
			rows, err := calibrationRows(cmd, collections, bench, encoder, rowsIn, strict)
			if err != nil {
				return err
			}
			if rowsOut != "" {
				if err := writeFileWith(rowsOut, func(w io.Writer) error { return calibrate.WriteRows(w, rows) }); err != nil {
					return err
				}
			}
			shipped := discover.DefaultCalibration()
			if encoder != "" && encoder != "none" {
				shipped = discover.DefaultEncoderCalibration()
			}
			folds, err := calibrate.LeaveOneOut(rows, spec, threshold)
			if err != nil {
				return err
			}
			all, err := calibrate.Fit(rows, spec)
			if err != nil {
				return err
			}
			report := calibrationReport{
				Threshold: threshold,
				Spec:      spec,
				Shipped:   calibrate.ByCollection(shipped, rows, threshold),
				LOCO:      folds,
				All:       calibrate.ByCollection(all, rows, threshold),
				Model:     all,
			}
			if heldOut {
				held, err := rankCollections(cmd, calibrate.HeldOutCollections(), encoder)
				if err != nil {
					return fmt.Errorf("--held-out (run from the project root): %w", err)
				}
				report.HeldOutShipped = calibrate.ByCollection(shipped, held, threshold)
				report.HeldOutFitted = calibrate.ByCollection(all, held, threshold)
			}
			if out != "" {
				if err := writeFileWith(out, func(w io.Writer) error {
					enc := json.NewEncoder(w)
					enc.SetIndent("", "  ")
					return enc.Encode(all)
				}); err != nil {
					return err
				}
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(report)
			}
			report.print(cmd.OutOrStdout(), shipped.Version)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringArrayVar(&collections, "collection", nil, "a collection NAME=TOOLS.jsonl:QUERIES.jsonl (repeatable; default: the sample set and the --bench sets)")
	fl.StringVar(&bench, "bench", benchDefault(), "benchmark directory for the default collections: metatool/, sealtools/ (env TOOLYARD_BENCH)")
	fl.StringVar(&encoder, "encoder", "none", encoderUsage)
	fl.StringVar(&rowsIn, "rows", "", "read the ranked rows from this file (written by --save-rows) instead of ranking")
	fl.StringVar(&rowsOut, "save-rows", "", "write the ranked rows here (JSON lines)")
	fl.StringVar(&out, "out", "", "write the model fitted on every collection here (Calibration JSON)")
	fl.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fl.Float64Var(&threshold, "activate-threshold", threshold, "tier threshold for activation")
	fl.StringVar(&rightSpec, "right-signals", strings.Join(calibrate.DefaultSpec().Right, ","), "signals of P(right | needs a tool), comma-separated (see 'toolyard eval calibration --help' and docs/discovery.md)")
	fl.Float64Var(&pooling, "pooling", 0, "how much a collection's size counts in the fit: 0 every collection the same, 1 every request the same")
	fl.BoolVar(&heldOut, "held-out", false, "also score the shipped and the fitted model on the held-out request sets, which nothing is fitted on")
	fl.StringVar(&needSpec, "need-signals", strings.Join(calibrate.DefaultSpec().Need, ","), "signals of P(needs a tool), comma-separated; empty: no need factor")
	return c
}

// calibrationReport is what 'eval calibration --json' prints.
type calibrationReport struct {
	Threshold float64              `json:"activate_threshold"`
	Spec      calibrate.Spec       `json:"spec"`
	Shipped   []calibrate.Fold     `json:"shipped"`
	LOCO      []calibrate.Fold     `json:"leave_one_collection_out"`
	All       []calibrate.Fold     `json:"fitted_on_all"`
	Model     discover.Calibration `json:"model"`
	// The held-out sets (--held-out), scored by the shipped model and by
	// the one fitted on every collection.
	HeldOutShipped []calibrate.Fold `json:"held_out_shipped,omitempty"`
	HeldOutFitted  []calibrate.Fold `json:"held_out_fitted,omitempty"`
}

func (r calibrationReport) print(w io.Writer, shipped string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "collection\tmodel\trequests\twith tool\tactivated\tprecision\tno-tool act.\tECE\tcov@0.95\t\n")
	for i := range r.LOCO {
		for _, f := range []struct {
			name string
			fold calibrate.Fold
		}{{"shipped " + shipped, r.Shipped[i]}, {"left out", r.LOCO[i]}, {"fitted on all", r.All[i]}} {
			m := f.fold.Metrics
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f%%\t%.3f\t%.1f%%\t%.3f\t%.1f%%\t\n", f.fold.LeftOut, f.name, m.Requests, m.WithTool,
				100*m.Activated, m.Precision, 100*m.NoToolActivated, m.ECE, 100*m.CoverageAt95)
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "activation threshold %.2f; 'left out' rows come from a model fitted on the other collections\n", r.Threshold)
	if len(r.HeldOutShipped) == 0 {
		return
	}
	fmt.Fprintln(w, "\nheld-out sets (never fitted on):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "set\tmodel\trequests\twith tool\tactivated\tprecision\tno-tool act.\tECE\tcov@0.95\t\n")
	for i := range r.HeldOutShipped {
		for _, f := range []struct {
			name string
			fold calibrate.Fold
		}{{"shipped " + shipped, r.HeldOutShipped[i]}, {"fitted on all", r.HeldOutFitted[i]}} {
			m := f.fold.Metrics
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f%%\t%.3f\t%.1f%%\t%.3f\t%.1f%%\t\n", f.fold.LeftOut, f.name, m.Requests, m.WithTool,
				100*m.Activated, m.Precision, 100*m.NoToolActivated, m.ECE, 100*m.CoverageAt95)
		}
	}
	tw.Flush()
}

func calibrationSpec(right, need string) (calibrate.Spec, error) {
	s := calibrate.DefaultSpec()
	s.Right, s.Need = splitList(right), splitList(need)
	for _, f := range append(append([]string{}, s.Right...), s.Need...) {
		if err := discover.CheckTerm(f); err != nil {
			return s, err
		}
	}
	if len(s.Right) == 0 {
		return s, fmt.Errorf("--right-signals: at least one signal is needed")
	}
	return s, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// calibrationRows ranks the collections, or reads rows ranked before.
func calibrationRows(cmd *cobra.Command, specs []string, bench, encoder, rowsIn string, strict bool) ([]calibrate.Row, error) {
	if rowsIn != "" {
		f, err := os.Open(rowsIn)
		if err != nil {
			return nil, fmt.Errorf("--rows: %w", err)
		}
		defer f.Close()
		return calibrate.ReadRows(f)
	}
	var cols []calibrate.Collection
	for _, s := range specs {
		c, err := calibrate.ParseCollection(s)
		if err != nil {
			return nil, fmt.Errorf("--collection: %w", err)
		}
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		var missing []string
		cols = calibrate.DefaultCollections(bench, func(name string) {
			if !slices.Contains(missing, name) {
				missing = append(missing, name)
				fmt.Fprintf(cmd.ErrOrStderr(), "collection %s not found: left out\n", name)
			}
		})
		if strict && len(missing) > 0 {
			return nil, fmt.Errorf("collections %s not found (the small sets are read from the repository's root, metatool and sealtools under --bench %s): with --bench, TOOLYARD_BENCH or --out every default collection is needed", strings.Join(missing, ", "), bench)
		}
	}
	return rankCollections(cmd, cols, encoder)
}

// rankCollections ranks every request of the collections with hybrid
// discovery (and the sentence encoder, if named) and returns their rows.
func rankCollections(cmd *cobra.Command, cols []calibrate.Collection, encoder string) ([]calibrate.Row, error) {
	emb, err := embed.NewLocal()
	if err != nil {
		return nil, fmt.Errorf("calibration needs the local vectors (run 'make embeddings'): %w", err)
	}
	enc, err := embed.NewEncoder(encoder)
	if err != nil {
		return nil, fmt.Errorf("--encoder: %w", err)
	}
	newEngine := func(tools []schemas.Manifest) (*discover.Engine, error) {
		opts := []discover.Option{discover.WithMode(discover.ModeHybrid), discover.WithEmbedder(emb)}
		if enc != nil {
			opts = append(opts, discover.WithEncoder(enc))
		}
		return discover.New(tools, opts...)
	}
	var rows []calibrate.Row
	for _, c := range cols {
		fmt.Fprintf(cmd.ErrOrStderr(), "ranking collection %s\n", c.Name)
		rs, err := calibrate.Rows(cmd.Context(), c, newEngine)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	return rows, nil
}

// writeFileWith creates path and writes it with write, reporting the
// first error of either.
func writeFileWith(path string, write func(io.Writer) error) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	return write(f)
}
