package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/training/learn"
	"github.com/toolyard/toolyard/training/replay"
	"github.com/toolyard/toolyard/workers/auditlog"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/stages"
)

// replayRun is one replay as its flags describe it.
type replayRun struct {
	g                                                *globalFlags
	audits                                           []string
	toolsFile, baseline, candidate, model, reportDir string
	parallel                                         int
	lopts                                            labels.Options
	since, until, session                            string
	sharded                                          bool
	shardSize                                        int
	shardWait                                        time.Duration
	groupSize, spillDir                              string
	groupBytes                                       int64 // groupSize, as check read it
}

func newReplay(g *globalFlags) *cobra.Command {
	r := replayRun{g: g}
	c := &cobra.Command{
		Use:   "replay --audit FILE… --tools FILE [--baseline C] --candidate C [--model DIR|VERSION] --report DIR",
		Short: "Re-run recorded intents through a candidate configuration in dry run and report what would change",
		Long: `Reads audit JSONL (--audit, repeatable; the audit record contract), or without
--audit the AUDIT stream of the running Toolyard (--since, --until, --session;
read with an ordered consumer from --since), and replays every
recorded intent through parse → discover → route → resolve, in this process, in
dry run: no tool is ever executed. Each intent is decided by the candidate and by
the baseline, and the report says what would change.

A configuration C (--baseline, --candidate) is a JSON or YAML object keyed by
'toolyard up' flag names, the way the command line reads:

  {"activate-threshold": 0.9, "encoder": "use-lite"}

Each key is set on a fresh set of 'toolyard up' flags, so an unknown key or a bad
value is the same error the command line gives. The keys that change a decision
are the tier thresholds (activate-, multiple-, weak-threshold), discovery,
embedder, embedder-model, embedder-url, encoder and the llm* resolver flags;
other 'up' flags are accepted and reported as having no effect on a replay. A
directory given as C is a model version ('toolyard train --out DIR') with
default flags, and so is the name of a version stored by 'toolyard train' in the
models bucket of --nats. --model DIR|VERSION puts a model version in force on the
candidate.

Without --baseline, the baseline is what the audit recorded: the tiers, tools and
confidences of the route records (imported history: the tool that ran).

Labels are derived from the same audit as 'toolyard train' derives them
(successes nobody corrected, corrections, feedback, imported history); they turn
changes into gains (the candidate would run the wanted tool where the baseline
would not, or would not run a wrong one) and losses.

--report DIR gets summary.json (intents, changed_tier, changed_tool, both sides'
metrics, the changed intents) and index.html, a page that works offline: tier
transitions, top tool changes, precision and coverage of activated and not_found
as their thresholds sweep, reliability, latency, gains and losses per tool.`,
		Example: `  echo '{"activate-threshold": 0.9}' > /tmp/strict.json
  toolyard replay --audit ../shared/bench/metatool/learn/audit.jsonl \
      --tools ../shared/bench/metatool/tools.jsonl \
      --candidate /tmp/strict.json --report /tmp/replay`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stderr := cmd.Context(), cmd.ErrOrStderr()
			if err := r.check(); err != nil {
				return err
			}
			if r.toolsFile == "" {
				return errors.New("replay needs --tools (the registry the intents are replayed against)")
			}
			if r.reportDir == "" {
				return errors.New("replay needs --report DIR")
			}
			tools, err := loadToolsFile(r.toolsFile)
			if err != nil {
				return err
			}
			part, err := r.partition(ctx, stderr)
			if err != nil {
				return err
			}
			defer part.Close()
			warnUnregisteredTools(stderr, part.Tools(), tools, "the candidate cannot answer their intents with the tool recorded, so they count as lost; give the registry they were recorded against with --tools")
			rep, err := r.replay(ctx, stderr, tools, part)
			if err != nil {
				return err
			}
			if err := rep.Write(r.reportDir); err != nil {
				return err
			}
			s := rep.Summary
			out := cmd.OutOrStdout()
			where := fmt.Sprintf("%d workers", s.Throughput.Workers)
			if r.sharded {
				where = "on the cluster's replay workers"
			}
			fmt.Fprintf(out, "replayed %d intents in %s (%.0f intents/s, %s); no tool was run\n", s.Intents,
				time.Duration(s.Throughput.Seconds*float64(time.Second)).Round(time.Millisecond), s.Throughput.IntentsPerSec, where)
			fmt.Fprintf(out, "  changed tier %d, changed tool %d; labelled %d: gained %d, lost %d\n", s.ChangedTier, s.ChangedTool, s.Labelled, s.Gained, s.Lost)
			fmt.Fprintf(out, "  accuracy %s → %s, activated precision %s → %s, coverage %s → %s\n",
				fig(s.Baseline.Metrics.Accuracy), fig(s.Candidate.Metrics.Accuracy),
				fig(s.Baseline.Metrics.ActivatedPrecision), fig(s.Candidate.Metrics.ActivatedPrecision),
				fig(s.Baseline.Metrics.ActivatedCoverage), fig(s.Candidate.Metrics.ActivatedCoverage))
			fmt.Fprintf(out, "report: %s\n", filepath.Join(r.reportDir, "index.html"))
			return nil
		},
	}
	fl := c.Flags()
	fl.StringArrayVar(&r.audits, "audit", nil, "audit JSONL file (repeatable); without it, the AUDIT stream of --nats is read")
	fl.StringVar(&r.since, "since", "", "from the AUDIT stream: records from this time (a duration back from now, 24h, or an RFC 3339 time)")
	fl.StringVar(&r.until, "until", "", "from the AUDIT stream: records up to this time")
	fl.StringVar(&r.session, "session", "", "from the AUDIT stream: sessions matching this glob")
	fl.StringVar(&r.toolsFile, "tools", "", "registry file (JSONL or JSON array of manifests)")
	fl.StringVar(&r.baseline, "baseline", "", "baseline configuration (JSON/YAML keyed by 'toolyard up' flags), model directory or stored model version; default: what the audit recorded")
	fl.StringVar(&r.candidate, "candidate", "", "candidate configuration (JSON/YAML keyed by 'toolyard up' flags), model directory or stored model version")
	fl.StringVar(&r.model, "model", "", "a model put in force on the candidate: a version directory ('toolyard train --out DIR'), or a version stored in the running Toolyard's models bucket ('toolyard models list')")
	fl.StringVar(&r.reportDir, "report", "", "write summary.json and index.html here")
	fl.IntVar(&r.parallel, "parallel", 0, "intents replayed at once (default: one per core)")
	fl.BoolVar(&r.sharded, "workers", false, "split the replay into shards for 'toolyard worker --stage replay' processes on the cluster of --nats, and merge their parts (each shard counted once, a killed worker's shard redone)")
	fl.IntVar(&r.shardSize, "shard-size", 500, "with --workers: intents per shard")
	fl.DurationVar(&r.shardWait, "shard-wait", 2*time.Minute, "with --workers: give up when no shard finishes for this long")
	fl.StringVar(&r.groupSize, "group-size", "64MiB", "audit JSON replayed at once: a longer history is split by session into groups of about this size, replayed one after the other, so memory stays bounded")
	fl.StringVar(&r.spillDir, "spill-dir", "", "where the groups of a long history wait their turn, in a private directory removed at the end (default: the system's temporary directory)")
	fl.DurationVar(&r.lopts.Window, "correction-window", 10*time.Minute, "how long after an answer the agent's next move still corrects it (labels, as in 'toolyard train')")
	return c
}

// check refuses flags that do not make a replay.
func (r *replayRun) check() error {
	switch {
	case len(r.audits) > 0 && (r.since != "" || r.until != "" || r.session != ""):
		return errors.New("--since, --until and --session select from the AUDIT stream; with --audit files, filter the files instead")
	case r.candidate == "" && r.model == "":
		return errors.New("replay needs a candidate: --candidate CONFIG and/or --model DIR|VERSION")
	// The labels and the pool of workers take a zero or negative value for
	// their default, so these would replay with other settings than asked.
	case r.lopts.Window <= 0:
		return fmt.Errorf("--correction-window %s: want a positive duration", r.lopts.Window)
	case r.parallel < 0:
		return fmt.Errorf("--parallel %d: want 1 or more (0: one per core)", r.parallel)
	case r.sharded && r.shardSize < 1:
		return fmt.Errorf("--shard-size %d: want at least 1", r.shardSize)
	case r.sharded && r.shardWait <= 0:
		return fmt.Errorf("--shard-wait %s: want a positive duration", r.shardWait)
	}
	if _, _, err := auditWindow(r.since, r.until, time.Now()); err != nil {
		return err
	}
	n, err := pipeline.ParseBytes(r.groupSize)
	if err != nil || n <= 0 {
		return fmt.Errorf("--group-size %q: want a size such as 64MiB", r.groupSize)
	}
	r.groupBytes = n
	return nil
}

// partition reads the audit (files, or the AUDIT stream) into groups of
// sessions.
func (r *replayRun) partition(ctx context.Context, stderr io.Writer) (*replay.Partition, error) {
	if len(r.audits) > 0 {
		return partitionAuditFiles(stderr, r.audits, r.groupBytes, r.spillDir)
	}
	return partitionAuditStream(ctx, r.g, stderr, r.since, r.until, r.session, r.groupBytes, r.spillDir)
}

// replay replays the partition's intents over tools, a group at a time,
// and reports; the throughput is the replaying's (reading, grouping and
// labelling are not in it).
func (r *replayRun) replay(ctx context.Context, stderr io.Writer, tools []schemas.Manifest, part *replay.Partition) (*replay.Report, error) {
	// Each may name a stored model version instead of a path.
	paths := map[string]string{}
	for flag, spec := range map[string]string{"model": r.model, "baseline": r.baseline, "candidate": r.candidate} {
		path, cleanup, err := resolveModel(ctx, r.g, stderr, spec)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", flag, err)
		}
		defer cleanup()
		paths[flag] = path
	}
	model := paths["model"]
	for _, flag := range []string{"model", "candidate", "baseline"} {
		first, last := part.Span()
		warnTrainedOnReplay(stderr, "--"+flag, paths[flag], first, last)
	}
	b := sideBuilder{g: r.g, tools: tools, log: stderr}
	cand, candInfo, err := b.side(ctx, "candidate", paths["candidate"], model)
	if err != nil {
		return nil, err
	}
	var base *replay.Side
	baseInfo := replay.SideInfo{Source: "recorded decisions of the audit"}
	if r.baseline != "" {
		if base, baseInfo, err = b.side(ctx, "baseline", paths["baseline"], ""); err != nil {
			return nil, err
		}
	}
	parallel := r.parallel
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	var job replay.Job
	if r.sharded {
		if job, err = replayJob(tools, paths["baseline"], paths["candidate"], model, nil); err != nil {
			return nil, err
		}
	}
	var replaying time.Duration
	run := func(ctx context.Context, _ int, intents []replay.Intent) ([]replay.Row, error) {
		start := time.Now()
		defer func() { replaying += time.Since(start) }()
		if r.sharded {
			job.Intents = replay.JobIntents(intents)
			return shardedRun(ctx, r.g, stderr, job, intents, r.shardSize, r.shardWait)
		}
		return replay.Run(ctx, intents, base, cand, replay.RunOptions{Workers: parallel, Progress: func(done, total int) {
			fmt.Fprintf(stderr, "  replayed %d/%d intents (%.0f/s)\n", done, total, float64(done)/time.Since(start).Seconds())
		}})
	}
	started := func(group, groups, intents, labelled int) {
		if groups > 1 {
			fmt.Fprintf(stderr, "group %d/%d of sessions: ", group+1, groups)
		}
		fmt.Fprintf(stderr, "replaying %d intents (%d labelled) on %d workers, in dry run\n", intents, labelled, parallel)
	}
	acc := replay.NewAccumulator()
	skipped, err := replay.ReplayGroups(ctx, part, r.lopts, acc, run, started)
	if err != nil {
		return nil, err
	}
	if acc.Intents() == 0 {
		source := fmt.Sprint(r.audits)
		if len(r.audits) == 0 {
			source = "the AUDIT stream"
		}
		return nil, fmt.Errorf("no replayable intents in %s (skipped: %v)", source, skipped)
	}
	rep := acc.Report(skipped, baseInfo, candInfo, cand.Thresholds())
	workers := parallel
	if r.sharded {
		workers = 0 // the cluster's: not known here
	}
	rep.Summary.Throughput = replay.Throughput{Seconds: replaying.Seconds(), IntentsPerSec: float64(rep.Summary.Intents) / replaying.Seconds(), Workers: workers}
	return rep, nil
}

func fig(p *float64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.3f", *p)
}

// replayKeys are the 'toolyard up' flags that change what a replayed intent
// is decided; any other up flag is accepted and said to have no effect.
var replayKeys = []string{
	"activate-threshold", "multiple-threshold", "weak-threshold",
	"discovery", "embedder", "embedder-model", "embedder-url", "encoder",
	"llm", "llm-model", "llm-url", "llm-timeout", "llm-min-confidence", "llm-json",
}

// sideBuilder builds replay sides from configurations over one registry.
type sideBuilder struct {
	g     *globalFlags
	tools []schemas.Manifest
	log   io.Writer
}

// side builds the side a configuration (file, or model directory) and an
// optional model directory describe.
func (b sideBuilder) side(ctx context.Context, name, conf, modelDir string) (*replay.Side, replay.SideInfo, error) {
	info := replay.SideInfo{}
	var sources []string
	var cfg replay.Config
	if conf != "" {
		st, err := os.Stat(conf)
		if err != nil {
			return nil, info, fmt.Errorf("--%s: %w", name, err)
		}
		if st.IsDir() {
			if modelDir != "" {
				return nil, info, fmt.Errorf("--%s %s is a model directory and --model %s another: give one", name, conf, modelDir)
			}
			modelDir = conf
		} else {
			if cfg, err = replay.ReadConfig(conf); err != nil {
				return nil, info, fmt.Errorf("--%s: %w", name, err)
			}
			sources = append(sources, "config "+conf)
			info.Settings = cfg.Map()
		}
	}
	return b.build(ctx, name, cfg, modelDir, info, sources)
}

// build makes a side of a configuration (and a model directory); info and
// sources describe it so far.
func (b sideBuilder) build(ctx context.Context, name string, cfg replay.Config, modelDir string, info replay.SideInfo, sources []string) (*replay.Side, replay.SideInfo, error) {
	sf, err := b.applyConfig(name, cfg)
	if err != nil {
		return nil, info, err
	}
	log := slog.New(slog.NewTextHandler(b.log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	dopts, err := sf.discoveryOptions(ctx, nil, log)
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", name, err)
	}
	resolver, chooser, err := sf.llm.stageParts(log)
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", name, err)
	}
	if chooser != nil {
		fmt.Fprintf(b.log, "%s: llm-disambiguate is not replayed: medium-tier intents stay multiple_matches\n", name)
	}
	set, err := stages.New(stages.Config{Tools: b.tools, Thresholds: sf.thresholds(), Discover: dopts, Log: log})
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", name, err)
	}
	sf.llm.follow(set.Registry())
	if modelDir != "" {
		bd, err := bundle.ReadDir(modelDir)
		if err != nil {
			return nil, info, fmt.Errorf("%s model: %w", name, err)
		}
		if set.Engine().Mode() == discover.ModeKeyword {
			return nil, info, fmt.Errorf("%s model %s: keyword-only discovery does not read usage evidence; the model needs the vectors", name, modelDir)
		}
		if err := bd.Apply(ctx, set.Engine()); err != nil {
			return nil, info, fmt.Errorf("%s model: %w", name, err)
		}
		sources = append(sources, fmt.Sprintf("model %s (%s)", bd.Manifest.Version, modelDir))
	}
	if len(sources) == 0 {
		sources = []string{"defaults"}
	}
	info.Source = strings.Join(sources, ", ") + fmt.Sprintf("; discovery %s", set.Engine().Mode())
	th := sf.thresholds()
	info.Thresholds = &th
	opts := []replay.SideOption{replay.WithSettings(info.Settings)}
	if resolver != nil {
		opts = append(opts, replay.WithResolver(resolver))
	}
	s, err := replay.NewSide(name, set, th, opts...)
	if err != nil {
		return nil, info, err
	}
	return s, info, nil
}

// applyConfig sets a configuration's keys on a fresh set of the stage
// flags, exactly as the command line would: a key must be a 'toolyard up'
// flag, and its value must parse as that flag's.
func (b sideBuilder) applyConfig(name string, cfg replay.Config) (*stageFlags, error) {
	up := newUp(b.g).Flags()
	var sf stageFlags
	fresh := &cobra.Command{Use: "replay-" + name}
	sf.register(fresh, "")
	fl := fresh.Flags()
	for _, s := range cfg.Settings {
		if up.Lookup(s.Key) == nil {
			return nil, fmt.Errorf("%s config %s: unknown key %q: not a 'toolyard up' flag (see 'toolyard up --help')", name, cfg.Source, s.Key)
		}
		f := fl.Lookup(s.Key)
		if f == nil || !slices.Contains(replayKeys, s.Key) {
			fmt.Fprintf(b.log, "%s config: %s has no effect on a replay (it does not change how an intent is decided)\n", name, s.Key)
			if f == nil {
				continue
			}
		}
		for _, v := range s.Values {
			if err := fl.Set(s.Key, v); err != nil {
				return nil, fmt.Errorf("%s config %s: %s: %w", name, cfg.Source, s.Key, err)
			}
		}
	}
	if err := sf.thresholds().Validate(); err != nil {
		return nil, fmt.Errorf("%s config %s: %w", name, cfg.Source, err)
	}
	return &sf, nil
}

// warnTrainedOnReplay says when the model version in dir (if it is one)
// was trained on history that overlaps the replayed records [first, last]:
// its figures there are on what it learned (a model replayed on its own
// training history reads near-perfect), not on later traffic.
func warnTrainedOnReplay(w io.Writer, flag, dir string, first, last time.Time) {
	if dir == "" {
		return
	}
	data, err := os.ReadFile(filepath.Join(dir, bundle.ManifestFile))
	if err != nil {
		return // a configuration file, not a model version
	}
	var m bundle.Manifest
	if json.Unmarshal(data, &m) != nil || m.Trained.Until.IsZero() || first.IsZero() {
		return
	}
	if m.Trained.Until.Before(first) || m.Trained.From.After(last) {
		return
	}
	fmt.Fprintf(w, "warning: %s %s was trained on history from %s to %s, which overlaps the replayed records (%s to %s): on those it answers what it learned, so its figures there are not held out; replay records after %s for a fair measure\n",
		flag, m.Version, m.Trained.From.Format(time.RFC3339), m.Trained.Until.Format(time.RFC3339),
		first.Format(time.RFC3339), last.Format(time.RFC3339), m.Trained.Until.Format(time.RFC3339))
}

// partitionAuditFiles reads audit JSONL files into a partition by
// session, one record at a time: groups of about groupBytes of the files'
// JSON each. Bad lines are reported (the first 20 by line) and skipped.
func partitionAuditFiles(stderr io.Writer, files []string, groupBytes int64, spillDir string) (*replay.Partition, error) {
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return nil, fmt.Errorf("--audit: %w", err)
		}
		size += st.Size()
	}
	part, err := replay.NewPartition(replay.GroupsFor(size, groupBytes), spillDir)
	if err != nil {
		return nil, err
	}
	bad := 0
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("--audit: %w", err), part.Close())
		}
		before, badBefore := part.Records(), bad
		err = learn.ScanAudit(f, name, part.Add, func(b learn.BadLine) {
			if bad++; bad <= maxListedBadLines {
				fmt.Fprintln(stderr, "skipped:", b)
			}
		})
		f.Close()
		if err != nil {
			return nil, errors.Join(err, part.Close())
		}
		fmt.Fprintf(stderr, "read %d audit records from %s (%d bad lines skipped)\n", part.Records()-before, name, bad-badBefore)
	}
	if bad > maxListedBadLines {
		fmt.Fprintf(stderr, "skipped: … %d bad lines in all\n", bad)
	}
	if part.Records() == 0 {
		return nil, errors.Join(fmt.Errorf("no valid audit records in %v (%d bad lines)", files, bad), part.Close())
	}
	return part, nil
}

// partitionAuditStream reads the AUDIT stream's records in the window (an
// ordered consumer from --since) into a partition by session, sized from
// the stream's bytes, with a count on stderr as it goes.
func partitionAuditStream(ctx context.Context, g *globalFlags, stderr io.Writer, since, until, session string, groupBytes int64, spillDir string) (*replay.Partition, error) {
	f := auditlog.Filter{Session: session}
	var err error
	if f.Since, f.Until, err = auditWindow(since, until, time.Now()); err != nil {
		return nil, err
	}
	js, closeNC, err := openClient(g, "toolyard replay", func(js jetstream.JetStream) (jetstream.JetStream, error) { return js, nil })
	if err != nil {
		return nil, err
	}
	defer closeNC()
	st, err := js.Stream(ctx, pipeline.StreamAudit)
	if err != nil {
		return nil, fmt.Errorf("the AUDIT stream: %w", err)
	}
	// The stream's size bounds the window's: the groups are never too big.
	part, err := replay.NewPartition(replay.GroupsFor(int64(st.CachedInfo().State.Bytes), groupBytes), spillDir)
	if err != nil {
		return nil, err
	}
	last := time.Now()
	err = auditlog.Export(ctx, js, f, func(r schemas.AuditRecord) error {
		if time.Since(last) > time.Second {
			fmt.Fprintf(stderr, "replay: %d audit records read from the stream\n", part.Records())
			last = time.Now()
		}
		return part.Add(r)
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("read the AUDIT stream: %w", err), part.Close())
	}
	fmt.Fprintf(stderr, "replay: %d audit records from the AUDIT stream\n", part.Records())
	return part, nil
}

// replayJob is the job a sharded replay stores for its workers: the
// registry, the configurations (read here, so a bad one fails before any
// shard is sent), the model directories' files and the intents.
func replayJob(tools []schemas.Manifest, baseline, candidate, model string, intents []replay.Intent) (replay.Job, error) {
	job := replay.Job{Tools: tools, Intents: replay.JobIntents(intents)}
	// read takes a configuration file or a model directory.
	read := func(flag, path string) (*replay.Config, map[string][]byte, error) {
		if path == "" {
			return nil, nil, nil
		}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			files, err := readModelDir(path)
			if err != nil {
				return nil, nil, fmt.Errorf("--%s: %w", flag, err)
			}
			return nil, files, nil
		}
		c, err := replay.ReadConfig(path)
		if err != nil {
			return nil, nil, fmt.Errorf("--%s: %w", flag, err)
		}
		return &c, nil, nil
	}
	var err error
	if job.Baseline, job.BaselineModel, err = read("baseline", baseline); err != nil {
		return job, err
	}
	if job.BaselineModel != nil && job.Baseline == nil {
		job.Baseline = &replay.Config{Source: baseline}
	}
	cand, candModel, err := read("candidate", candidate)
	if err != nil {
		return job, err
	}
	if cand != nil {
		job.Candidate = *cand
	}
	job.CandidateModel = candModel
	if model != "" {
		if candModel != nil {
			return job, fmt.Errorf("--candidate %s is a model directory and --model %s another: give one", candidate, model)
		}
		if job.CandidateModel, err = readModelDir(model); err != nil {
			return job, fmt.Errorf("--model: %w", err)
		}
	}
	return job, nil
}

// readModelDir reads a model version directory's files (checked to be
// one by reading it as a bundle first).
func readModelDir(dir string) (map[string][]byte, error) {
	if _, err := bundle.ReadDir(dir); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = data
	}
	return files, nil
}

// writeModelDir puts a shipped model's files in a new temporary
// directory; the caller removes it.
func writeModelDir(files map[string][]byte) (string, error) {
	dir, err := os.MkdirTemp("", "toolyard-replay-model-")
	if err != nil {
		return "", err
	}
	for name, data := range files {
		if name != filepath.Base(name) || name == "." || name == ".." {
			os.RemoveAll(dir)
			return "", fmt.Errorf("model file name %q is not a plain file name", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}
