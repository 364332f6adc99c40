package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/learn"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/registry"
)

func newTrain(_ *globalFlags) *cobra.Command {
	var (
		toolsFile, outDir, encoder, version string
		audits                              []string
		opts                                learn.Options
	)
	c := &cobra.Command{
		Use:   "train --tools FILE --audit FILE… --out DIR",
		Short: "Learn a model version from audit records: usage evidence per tool, its weights, a calibration, predictor templates",
		Long: `Reads audit JSONL (--audit, repeatable; the audit record contract), derives what the
agents actually wanted (successes nobody corrected, corrections after uncertain
answers, feedback, imported history; see training/labels), and learns a model
version over the registry (--tools):

  usage      each tool's learned intents, read by discovery as a separate BM25 field
             and by nearest learned intents (usage_text, usage_near, usage_vote)
  weights    the fused weights of those signals
  calibration  the confidence refitted with them, so tiers stay honest
  templates  the predictor's statistics (next tool, context words)

Everything fitted is measured on later history than it was fitted on: the latest
--hold-out of the examples is the test slice; before it, --fit-share of the examples
is cut into --folds time-ordered folds, each ranked with the usage learned from
everything before it, and the weights and calibration are fitted on those rankings.
The before/after figures printed at the end are the test slice's.
Lines that are not valid audit records are reported (file:line: why) and skipped.

The version is written to --out as a directory (manifest.json with sha256 of each
file, usage.json, templates.json); evaluate it with 'toolyard eval discovery
--model DIR'.`,
		Example: `  toolyard train --tools ../shared/bench/metatool/tools.jsonl \
      --audit ../shared/bench/metatool/learn/audit.jsonl --out /tmp/model
  toolyard eval discovery --tools ../shared/bench/metatool/tools.jsonl \
      --queries ../shared/bench/metatool/learn/queries.jsonl --model /tmp/model`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if toolsFile == "" || len(audits) == 0 || outDir == "" {
				return errors.New("--tools, --audit and --out are required")
			}
			stderr := cmd.ErrOrStderr()
			tools, err := registry.LoadFile(toolsFile)
			if err != nil {
				return err
			}
			recs, err := readAudits(stderr, audits)
			if err != nil {
				return err
			}
			engine, err := trainEngine(tools, encoder)
			if err != nil {
				return err
			}
			defer engine.Close()
			opts.Version = version
			last := time.Time{}
			opts.Progress = func(step string, done, total int) {
				if time.Since(last) > time.Second || done == total {
					last = time.Now()
					fmt.Fprintf(stderr, "  %s: %d/%d\n", step, done, total)
				}
			}
			b, rep, err := learn.Train(cmd.Context(), engine, recs, opts)
			if err != nil {
				return err
			}
			if err := b.WriteDir(outDir); err != nil {
				return err
			}
			printTrainReport(cmd.OutOrStdout(), b, rep, outDir)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&toolsFile, "tools", "", "registry file (JSONL or JSON array of manifests)")
	fl.StringArrayVar(&audits, "audit", nil, "audit JSONL file (repeatable)")
	fl.StringVar(&outDir, "out", "", "directory to write the model version to (replaced whole)")
	fl.StringVar(&encoder, "encoder", "none", encoderUsage)
	fl.StringVar(&version, "version", "", "name of the version (default: the time of training)")
	fl.Float64Var(&opts.HoldOut, "hold-out", 0.1, "latest share of the examples held out to measure on (never fitted on)")
	fl.Float64Var(&opts.FitShare, "fit-share", 0.4, "share of the examples before the hold-out that the weights and calibration are fitted on")
	fl.IntVar(&opts.Folds, "folds", 4, "time-ordered folds of the fitting share, each ranked with the usage of everything before it")
	fl.IntVar(&opts.Guard.PerSession, "max-per-session", 3, "poisoning guard: examples one session may give one tool")
	fl.IntVar(&opts.Guard.MinSessions, "min-sessions", 2, "poisoning guard: distinct sessions a tool's examples need before they count")
	fl.DurationVar(&opts.Labels.Window, "correction-window", 10*time.Minute, "how long after an answer the agent's next move still corrects it")
	return c
}

// trainEngine is the hybrid engine training ranks with: the local vectors
// (a usage model needs them), plus the encoder when asked for.
func trainEngine(tools []schemas.Manifest, encoder string) (*discover.Engine, error) {
	emb, err := embed.NewLocal()
	if err != nil {
		return nil, fmt.Errorf("training needs the local vectors (run 'make embeddings'): %w", err)
	}
	opts := []discover.Option{discover.WithMode(discover.ModeHybrid), discover.WithEmbedder(emb)}
	enc, err := embed.NewEncoder(encoder)
	if err != nil {
		return nil, fmt.Errorf("--encoder: %w", err)
	}
	if enc != nil {
		opts = append(opts, discover.WithEncoder(enc))
	}
	return discover.New(tools, opts...)
}

func readAudits(stderr io.Writer, files []string) ([]schemas.AuditRecord, error) {
	var all []schemas.AuditRecord
	bad := 0
	for _, f := range files {
		recs, badLines, err := learn.ReadAuditFile(f)
		if err != nil {
			return nil, err
		}
		for i, b := range badLines {
			if i < 20 {
				fmt.Fprintln(stderr, "skipped:", b)
			}
		}
		if len(badLines) > 20 {
			fmt.Fprintf(stderr, "skipped: … and %d more bad lines in %s\n", len(badLines)-20, f)
		}
		bad += len(badLines)
		all = append(all, recs...)
		fmt.Fprintf(stderr, "read %d audit records from %s (%d bad lines skipped)\n", len(recs), f, len(badLines))
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no valid audit records in %v (%d bad lines)", files, bad)
	}
	return all, nil
}

func printTrainReport(w io.Writer, b *bundle.Bundle, r learn.Report, dir string) {
	fmt.Fprintf(w, "model %s written to %s in %s\n", b.Manifest.Version, dir, r.Duration.Round(time.Millisecond))
	fmt.Fprintf(w, "  records %d → labelled examples %d (by source %v), negatives %d\n", r.Records, r.Examples, r.BySource, r.Negatives)
	fmt.Fprintf(w, "  poisoning guard: kept %d, capped per session %d, tools with too few sessions %d\n", r.Guard.Kept, r.Guard.CappedPerSession, r.Guard.TooFewSessions)
	fmt.Fprintf(w, "  usage: %d learned intents for %d tools; fused weights class %.2f, text %.2f, text vote %.2f, near %.2f, vote %.2f\n",
		len(b.Usage.Intents), r.Tools, r.Weights.Class, r.Weights.Text, r.Weights.TextVote, r.Weights.Near, r.Weights.Vote)
	fmt.Fprintf(w, "  test slice (%d latest examples, never fitted on):\n", r.After.N)
	fmt.Fprintf(w, "    %-8s hit@1 %.3f  recall@5 %.3f  ECE %.3f  activated %.1f%% (precision %.3f)\n", "before", r.Before.HitAt1, r.Before.RecallAt5, r.Before.ECE, 100*r.Before.Activated, r.Before.ActivatedPrecision)
	fmt.Fprintf(w, "    %-8s hit@1 %.3f  recall@5 %.3f  ECE %.3f  activated %.1f%% (precision %.3f)\n", "after", r.After.HitAt1, r.After.RecallAt5, r.After.ECE, 100*r.After.Activated, r.After.ActivatedPrecision)
}
