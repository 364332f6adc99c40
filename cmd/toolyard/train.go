package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/training/learn"
	"github.com/toolyard/toolyard/workers/auditlog"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/registry"
)

func newTrain(g *globalFlags) *cobra.Command {
	var (
		toolsFile, outDir, encoder, version, since string
		audits                                     []string
		opts                                       learn.Options
		guard                                      = learn.DefaultGuard
		noPromote                                  bool
		keepVersions                               = models.DefaultKeep
		embedder                                   embed.Config
	)
	c := &cobra.Command{
		Use:   "train [--tools FILE] [--audit FILE… | --since D] [--out DIR]",
		Short: "Learn a model version from audit records: usage evidence per tool, its weights, a calibration, predictor templates",
		Long: `Reads audit JSONL (--audit, repeatable; the audit record contract), derives what the
agents actually wanted (successes nobody corrected, corrections after uncertain
answers, feedback, imported history; see training/labels), and learns a model
version over the registry (--tools):

  usage      each tool's learned intents, read by discovery as a separate BM25 field
             and by nearest learned intents (usage_text, usage_near, usage_vote), and
             two classifiers fitted on them, over the request's words (usage_class)
             and over its vector (usage_vector_class)
  weights    the fused weights of those signals
  calibration  the confidence refitted with them, so tiers stay honest
  templates  the predictor's statistics (next tool, context words), and the learned
             shortcuts: phrasings that resolved to one tool again and again, across
             sessions, whose results then carry a hint with the direct <tool_call>

Everything fitted is measured on later history than it was fitted on: the latest
--hold-out of the examples is the test slice; before it, --fit-share of the examples
is cut into --folds time-ordered folds, each ranked with the usage learned from
everything before it, and the weights and calibration are fitted on those rankings.
The before/after figures printed at the end are the test slice's.
Lines that are not valid audit records are reported (file:line: why) and skipped.

Offline (--out DIR): the version is written to DIR (manifest.json with the sha256
of each file, usage.json, templates.json, and with a usage encoder usage_vectors.bin,
the learned intents as it embedded them); evaluate it with 'toolyard eval discovery
--model DIR'. --tools and --audit are then required.

Against a running Toolyard (no --out): the records come from the AUDIT stream
(--since, or all) unless --audit files are given, the tools from the registry
unless --tools is; the version is stored in the models bucket, and the eval guard
scores it against the version in force on the test slice: it is promoted only if
hit@1 is not worse by more than --guard-hit and ECE not by more than --guard-ece,
on a test slice of at least --guard-min-examples examples.
A refused version is kept (see 'toolyard models show V') and the reason printed.
Discover workers put a promoted version in force without a restart. After storing,
old versions are pruned as 'toolyard models prune --keep N' does (--keep-versions).

Exits 0 when the version is written (offline) or stored and passes the guard,
3 when the guard refuses it (it is stored all the same), 1 on any other error,
130 on Ctrl-C.`,
		Example: `  toolyard train --tools ../shared/bench/metatool/tools.jsonl \
      --audit ../shared/bench/metatool/learn/audit.jsonl --out /tmp/model
  toolyard eval discovery --tools ../shared/bench/metatool/tools.jsonl \
      --queries ../shared/bench/metatool/learn/queries.jsonl --model /tmp/model`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			stderr := cmd.ErrOrStderr()
			if err := checkTrainFlags(opts, guard, keepVersions, len(audits) > 0, since); err != nil {
				return err
			}
			if outDir != "" && (toolsFile == "" || len(audits) == 0) {
				return errors.New("offline training (--out) needs --tools and --audit")
			}
			if outDir != "" {
				// Before the work, not after it: the version replaces --out whole.
				if err := bundle.CheckReplaceable(outDir); err != nil {
					return fmt.Errorf("--out: %w", err)
				}
			}
			var js jetstream.JetStream
			if outDir == "" {
				var closeNC func()
				var err error
				js, closeNC, err = openClient(g, "toolyard train", func(js jetstream.JetStream) (jetstream.JetStream, error) { return js, nil })
				if err != nil {
					return err
				}
				defer closeNC()
				if version != "" {
					// Before the work, not at its end.
					st, err := models.Open(cmd.Context(), js)
					if err != nil {
						return err
					}
					if err := st.CheckNewVersion(cmd.Context(), version); err != nil {
						return fmt.Errorf("--version: %w", err)
					}
				}
			}
			tools, err := trainTools(cmd, js, toolsFile)
			if err != nil {
				return err
			}
			var recs []schemas.AuditRecord
			if len(audits) > 0 {
				recs, err = readAudits(stderr, audits)
			} else {
				recs, err = streamAudits(cmd, js, since)
			}
			if err != nil {
				return err
			}
			warnUnregistered(stderr, recs, tools)
			engine, err := trainEngine(cmd.Context(), tools, embedder, encoder)
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
			if outDir != "" {
				if err := b.WriteDir(outDir); err != nil {
					return err
				}
				printTrainReport(cmd.OutOrStdout(), b, rep, outDir)
				return nil
			}
			return storeAndGuard(cmd, js, engine, b, rep, guard, !noPromote, keepVersions)
		},
	}
	fl := c.Flags()
	fl.StringVar(&toolsFile, "tools", "", "registry file (JSONL or JSON array of manifests)")
	fl.StringArrayVar(&audits, "audit", nil, "audit JSONL file (repeatable)")
	fl.StringVar(&outDir, "out", "", "write the version to this directory (offline) instead of storing it in the models bucket")
	fl.StringVar(&since, "since", "", "from the AUDIT stream: records from this time (a duration back from now, or RFC 3339)")
	fl.Float64Var(&guard.HitTolerance, "guard-hit", guard.HitTolerance, "eval guard: hit@1 the new version may lose against the one in force")
	fl.Float64Var(&guard.ECETolerance, "guard-ece", guard.ECETolerance, "eval guard: ECE the new version may gain against the one in force")
	fl.IntVar(&guard.MinExamples, "guard-min-examples", guard.MinExamples, "eval guard: held-out examples it needs to judge on (fewer: the version is stored, not promoted)")
	fl.BoolVar(&noPromote, "no-promote", false, "store the version and run the guard, but leave the version in force as it is")
	fl.IntVar(&keepVersions, "keep-versions", keepVersions, "after storing, prune the models bucket as 'toolyard models prune --keep N' does (0: keep every version)")
	fl.StringVar(&embedder.Provider, "embedder", "local", "the embedder the discover workers search with (local, ollama, openai, as for up): the model's weights and calibration are fitted on its cosines")
	fl.StringVar(&embedder.Model, "embedder-model", "", "embedding model for ollama/openai, as the workers'")
	fl.StringVar(&embedder.URL, "embedder-url", "", "embedding endpoint for ollama/openai, as the workers'")
	fl.StringVar(&encoder, "encoder", "none", encoderUsage)
	fl.StringVar(&opts.UsageEncoder, "usage-encoder", "", "what embeds the learned intents and each request for the usage model's nearest-intent signals, recorded in the model: words (the local word vectors), or use-lite on the usage side only (every search the model serves then encodes the request: about 10-20 ms each on 2 shared cores); default: the --encoder when given, else words")
	fl.StringVar(&version, "version", "", "name of the version (default: the time of training)")
	fl.Float64Var(&opts.HoldOut, "hold-out", 0.1, "latest share of the examples held out to measure on (never fitted on)")
	fl.Float64Var(&opts.FitShare, "fit-share", 0.4, "share of the examples before the hold-out that the weights and calibration are fitted on")
	fl.IntVar(&opts.Folds, "folds", 4, "time-ordered folds of the fitting share, each ranked with the usage of everything before it")
	fl.IntVar(&opts.Guard.PerSession, "max-per-session", 3, "poisoning guard: examples one session may give one tool")
	fl.IntVar(&opts.Guard.MinSessions, "min-sessions", 2, "poisoning guard: distinct sessions a tool's examples need before they count")
	fl.IntVar(&opts.Shortcuts.MinCount, "shortcut-min-count", 3, "learned shortcuts: labels (at most --max-per-session a session) a phrasing needs for one tool before its results hint the direct call")
	fl.Float64Var(&opts.Shortcuts.MinShare, "shortcut-min-share", 0.9, "learned shortcuts: share of the phrasing's labels that tool must have (another tool's, or a wrong judgement, count against it); the phrasing also needs --min-sessions sessions")
	fl.DurationVar(&opts.Labels.Window, "correction-window", 10*time.Minute, "how long after an answer the agent's next move still corrects it")
	c.AddCommand(newTrainCalibration())
	return c
}

// checkTrainFlags refuses values out of range before any work. learn.Train
// takes a zero or out-of-range share, count or window for "the default", so
// without this '--hold-out 2' or '--folds 0' trained with 0.1 and 4 and said
// nothing; and --since selects from the AUDIT stream, which --audit files
// replace (as replay says too).
func checkTrainFlags(o learn.Options, g learn.GuardConfig, keep int, files bool, since string) error {
	if files && since != "" {
		return errors.New("--since selects from the AUDIT stream; with --audit files, filter the files instead")
	}
	if _, _, err := auditWindow(since, "", time.Now()); err != nil {
		return err
	}
	return checkFlags(append([]flagCheck{
		{"hold-out", o.HoldOut, o.HoldOut > 0 && o.HoldOut < 1, "a share between 0 and 1 (exclusive)"},
		{"fit-share", o.FitShare, o.FitShare > 0 && o.FitShare < 1, "a share between 0 and 1 (exclusive)"},
		{"folds", o.Folds, o.Folds >= 1, "at least 1"},
		{"guard-hit", g.HitTolerance, g.HitTolerance >= 0, "0 or more"},
		{"guard-ece", g.ECETolerance, g.ECETolerance >= 0, "0 or more"},
		{"guard-min-examples", g.MinExamples, g.MinExamples >= 1, "at least 1"},
		{"keep-versions", keep, keep >= 0, "0 (keep every version) or more"},
	}, learningChecks(o.Guard, o.Shortcuts, o.Labels.Window)...))
}

// flagCheck is one flag's range: its value, whether it is in range, and
// what the range is.
type flagCheck struct {
	flag string
	val  any
	ok   bool
	want string
}

// checkFlags refuses the first flag out of its range, naming the range.
func checkFlags(checks []flagCheck) error {
	for _, c := range checks {
		if !c.ok {
			return fmt.Errorf("--%s %v: want %s", c.flag, c.val, c.want)
		}
	}
	return nil
}

// learningChecks are the ranges of the label and shortcut flags that
// 'train' and 'eval shortcuts' share.
func learningChecks(guard labels.Guard, rule learn.ShortcutRule, window time.Duration) []flagCheck {
	return []flagCheck{
		{"max-per-session", guard.PerSession, guard.PerSession >= 1, "at least 1"},
		{"min-sessions", guard.MinSessions, guard.MinSessions >= 1, "at least 1"},
		{"shortcut-min-count", rule.MinCount, rule.MinCount >= 1, "at least 1"},
		{"shortcut-min-share", rule.MinShare, rule.MinShare > 0 && rule.MinShare <= 1, "a share above 0, at most 1"},
		{"correction-window", window, window > 0, "a positive duration"},
	}
}

// trainEngine is the hybrid engine training ranks with: the workers' embedder
// (the build's word vectors unless cfg names a remote one) and encoder.
func trainEngine(ctx context.Context, tools []schemas.Manifest, cfg embed.Config, encoder string) (*discover.Engine, error) {
	if cfg.Provider == "none" {
		return nil, errors.New("training needs an embedder: --embedder local (the default), ollama or openai")
	}
	emb, err := embed.New(ctx, cfg)
	if err != nil {
		if cfg.Provider == "" || cfg.Provider == embed.ProviderLocal {
			return nil, fmt.Errorf("training needs the local vectors (run 'make embeddings'): %w", err)
		}
		return nil, fmt.Errorf("--embedder %s: %w", cfg.Provider, err)
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
		listBadLines(stderr, "skipped:", f, badLines)
		bad += len(badLines)
		all = append(all, recs...)
		fmt.Fprintf(stderr, "read %d audit records from %s (%d bad lines skipped)\n", len(recs), f, len(badLines))
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no valid audit records in %v (%d bad lines)", files, bad)
	}
	return all, nil
}

// warnUnregistered says when most of the records name tools the registry
// does not have (history imported before its tools, or for another
// registry): what is learned about them cannot help discovery here, and
// the eval guard, comparing two versions that both miss, passes it.
func warnUnregistered(w io.Writer, recs []schemas.AuditRecord, tools []schemas.Manifest) {
	named := map[string]int{}
	for _, r := range recs {
		if r.ToolID != "" {
			named[r.ToolID]++
		}
	}
	warnUnregisteredTools(w, named, tools, "what is learned about those tools cannot help discovery here; import the tools first ('toolyard tools import FILE'), or train against their registry with --tools")
}

// warnUnregisteredTools is warnUnregistered over counts of records by the
// tool they name; why says what the missing tools cost and what to do.
func warnUnregisteredTools(w io.Writer, byTool map[string]int, tools []schemas.Manifest, why string) {
	registered := make(map[string]bool, len(tools))
	for _, m := range tools {
		registered[m.ID] = true
	}
	var named, missing int
	var absent []string
	for id, n := range byTool {
		if id == "" || strings.HasPrefix(id, "toolyard/") {
			continue
		}
		named += n
		if !registered[id] {
			missing += n
			absent = append(absent, id)
		}
	}
	if named == 0 || 2*missing <= named {
		return
	}
	slices.Sort(absent)
	fmt.Fprintf(w, "warning: %d of the %d records that name a tool name one the registry does not have (%s, …): %s\n",
		missing, named, strings.Join(absent[:min(3, len(absent))], ", "), why)
}

// trainTools is the registry to train over: --tools, or the running
// Toolyard's registry.
func trainTools(cmd *cobra.Command, js jetstream.JetStream, file string) ([]schemas.Manifest, error) {
	if file != "" {
		return loadToolsFile(file)
	}
	st, err := registry.OpenStore(cmd.Context(), js)
	if err != nil {
		return nil, err
	}
	tools, err := st.List(cmd.Context())
	if err != nil {
		return nil, err
	}
	if len(tools) == 0 {
		return nil, errors.New("the registry is empty: nothing to learn about (or give --tools)")
	}
	return tools, nil
}

// streamAudits reads the training records from the AUDIT stream.
func streamAudits(cmd *cobra.Command, js jetstream.JetStream, since string) ([]schemas.AuditRecord, error) {
	var f auditlog.Filter
	var err error
	if f.Since, _, err = auditWindow(since, "", time.Now()); err != nil {
		return nil, err
	}
	var recs []schemas.AuditRecord
	err = auditlog.Export(cmd.Context(), js, f, func(r schemas.AuditRecord) error {
		recs = append(recs, r)
		if len(recs)%10000 == 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "  read %d audit records\n", len(recs))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "read %d audit records from the AUDIT stream\n", len(recs))
	if len(recs) == 0 {
		return nil, errors.New("the AUDIT stream has no records to learn from (import history with 'toolyard audit import')")
	}
	return recs, nil
}

// storeAndGuard stores a trained version, scores the version in force on
// the same test slice, and promotes the new one if the guard agrees.
func storeAndGuard(cmd *cobra.Command, js jetstream.JetStream, engine *discover.Engine, b *bundle.Bundle, rep learn.Report, cfg learn.GuardConfig, promote bool, keep int) error {
	st, err := models.Open(cmd.Context(), js)
	if err != nil {
		return err
	}
	err = storeGuardPromote(cmd, st, engine, b, rep, cfg, promote)
	if keep <= 0 || (err != nil && !errors.Is(err, exitCode(3))) {
		return err
	}
	// Stored, whether promoted or refused: the old versions the new one
	// leaves behind go. A failure here leaves them, and the training stands.
	pr, perr := st.Prune(cmd.Context(), keep, false)
	if perr != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: pruning old model versions: %v ('toolyard models prune' retries)\n", perr)
		return err
	}
	if len(pr.Deleted)+len(pr.Orphans) > 0 {
		printPrune(cmd.OutOrStdout(), pr)
	}
	return err
}

// storeGuardPromote stores the version, runs the eval guard and promotes
// the version when it passes.
func storeGuardPromote(cmd *cobra.Command, st *models.Store, engine *discover.Engine, b *bundle.Bundle, rep learn.Report, cfg learn.GuardConfig, promote bool) error {
	ctx := cmd.Context()
	out := cmd.OutOrStdout()
	dir, err := os.MkdirTemp("", "toolyard-train-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := b.WriteDir(filepath.Join(dir, "new")); err != nil {
		return err
	}
	if _, err := st.PutVersion(ctx, filepath.Join(dir, "new")); err != nil {
		return err
	}
	printTrainReport(out, b, rep, "the models bucket")
	cur, _, err := st.CurrentVersion(ctx)
	if err != nil {
		return err
	}
	current := rep.Before
	var scored string
	if cur.Version != "" {
		old, err := st.Download(ctx, cur.Version, filepath.Join(dir, "current"))
		if err != nil {
			return fmt.Errorf("eval guard: the version in force: %w", err)
		}
		if current, scored, err = learn.ScoreCurrent(ctx, engine, old, rep.Test); err != nil {
			return fmt.Errorf("eval guard: the version in force: %w", err)
		}
	}
	ok, why := learn.Judge(rep.After, current, cfg)
	if scored != "" {
		why = append(why, scored)
	}
	verdict := models.GuardVerdict{Promote: ok, Reasons: why, Candidate: rep.After.Map(), Current: current.Map(), Against: cur.Version}
	if err := st.SetGuard(ctx, b.Manifest.Version, verdict); err != nil {
		return err
	}
	against := orNone(cur.Version)
	if !ok {
		fmt.Fprintf(out, "eval guard: %s NOT promoted against %s: %s\n", b.Manifest.Version, against, strings.Join(why, "; "))
		return exitCode(3)
	}
	fmt.Fprintf(out, "eval guard: %s passes against %s: %s\n", b.Manifest.Version, against, strings.Join(why, "; "))
	if !promote {
		fmt.Fprintf(out, "not promoted (--no-promote): 'toolyard models promote %s' puts it in force\n", b.Manifest.Version)
		return nil
	}
	if err := st.Promote(ctx, b.Manifest.Version, false); err != nil {
		return err
	}
	fmt.Fprintf(out, "model %s in force; 'toolyard models rollback' goes back to %s\n", b.Manifest.Version, against)
	return nil
}

func printTrainReport(w io.Writer, b *bundle.Bundle, r learn.Report, dir string) {
	fmt.Fprintf(w, "model %s written to %s in %s\n", b.Manifest.Version, dir, r.Duration.Round(time.Millisecond))
	fmt.Fprintf(w, "  records %d → labelled examples %d (by source %v), negatives %d\n", r.Records, r.Examples, r.BySource, r.Negatives)
	fmt.Fprintf(w, "  poisoning guard: kept %d, capped per session %d, set aside for too few sessions %d\n", r.Guard.Kept, r.Guard.CappedPerSession, r.Guard.TooFewSessions)
	fmt.Fprintf(w, "  usage: %d learned intents for %d tools, embedded by %s; fused weights class %.2f, vector class %.2f, text %.2f, text vote %.2f, near %.2f, vote %.2f\n",
		len(b.Usage.Intents), r.Tools, b.Usage.Encoder, r.Weights.Class, r.Weights.VectorClass, r.Weights.Text, r.Weights.TextVote, r.Weights.Near, r.Weights.Vote)
	if why := r.Fit.Leaning(); why != "" {
		fmt.Fprintf(w, "  calibration: %s\n", why)
	}
	fmt.Fprintf(w, "  learned shortcuts: %d phrasings hint a direct call\n", r.Shortcuts)
	fmt.Fprintf(w, "  test slice (%d latest examples, never fitted on):\n", r.After.N)
	fmt.Fprintf(w, "    %-8s hit@1 %.3f  recall@5 %.3f  ECE %.3f  activated %.1f%% (precision %.3f)\n", "before", r.Before.HitAt1, r.Before.RecallAt5, r.Before.ECE, 100*r.Before.Activated, r.Before.ActivatedPrecision)
	fmt.Fprintf(w, "    %-8s hit@1 %.3f  recall@5 %.3f  ECE %.3f  activated %.1f%% (precision %.3f)\n", "after", r.After.HitAt1, r.After.RecallAt5, r.After.ECE, 100*r.After.Activated, r.After.ActivatedPrecision)
}
