package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/route"
)

func newEval(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure discovery and resolution on query files (no server needed)",
	}
	cmd.AddCommand(newEvalEmbedder())
	cmd.AddCommand(newEvalDiscovery(g))
	cmd.AddCommand(newEvalResolve())
	cmd.AddCommand(newEvalCalibration())
	cmd.AddCommand(newEvalPrefetch())
	cmd.AddCommand(newEvalShortcuts())
	return cmd
}

func newEvalDiscovery(g *globalFlags) *cobra.Command {
	var (
		toolsFile, queriesFile, outFile, mode, encoder, modelDir string
		k                                                        int
		th                                                       = route.DefaultThresholds()
		embedder                                                 embed.Config
		metaTools                                                bool
	)
	c := &cobra.Command{
		Use:   "discovery --tools FILE --queries FILE",
		Short: "Rank the tools for every query and report hit@1, recall@k, MRR, nDCG, calibration and latency",
		Long: `Builds the discovery index in-process from --tools (a registry file), runs every
query of --queries (JSONL {id, query, gold_tool_ids}, optionally needs_tool), writes
one JSON line per query to --out ({"id", "ranked", "confidence", "tier"}) and
prints the metrics. Queries with needs_tool labels also give the AUROC of the top
confidence for telling queries that need a tool from those that do not.

--mode chooses the retrieval: keyword (BM25 only, the baseline), vector (the
local word-vector embedder only), hybrid (both, fused, with the calibrated
confidence), all (the three in one run, each printed; --out then gets one file
per mode, FILE.keyword, FILE.vector, FILE.hybrid), or auto (the default: hybrid
when the local vectors are built, keyword otherwise, saying so). The vectors
come from 'make embeddings'.

--encoder use-lite adds the local sentence encoder (Universal Sentence Encoder
lite, also from 'make embeddings') to hybrid search as one more fused term: a
better ranking for requests worded unlike the tools' descriptions, at tens of
milliseconds per query and per tool.

--meta-tools adds Toolyard's builtin meta-tools (help, search, load,
find_tools, activate) to the registry, as 'up' and 'worker' serve it: they
compete with the registry's tools for every request. Without it the
registry is measured alone, as the benchmark figures are.`,
		Example: `  toolyard eval discovery --tools ../shared/bench/metatool/tools.jsonl \
      --queries ../shared/bench/metatool/queries.dev.jsonl --out /tmp/metatool.jsonl
  toolyard eval discovery --mode all --tools ../shared/bench/sealtools/tools.jsonl \
      --queries ../shared/bench/sealtools/queries.dev.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkEvalFlags(th, k); err != nil {
				return err
			}
			modes, emb, err := evalModes(cmd.Context(), cmd.ErrOrStderr(), mode, embedder)
			if err != nil {
				return err
			}
			tools, qs, err := loadEvalSet(cmd.ErrOrStderr(), toolsFile, queriesFile)
			if err != nil {
				return err
			}
			if metaTools {
				tools = withMetaTools(tools)
			}
			enc, err := embed.NewEncoder(encoder)
			if err != nil {
				return fmt.Errorf("--encoder: %w", err)
			}
			// One cache for every mode, so --mode all embeds each tool once.
			cache := embed.NewMemoryCache()
			model, cleanup, err := resolveModel(cmd.Context(), g, cmd.ErrOrStderr(), modelDir)
			if err != nil {
				return fmt.Errorf("--model: %w", err)
			}
			defer cleanup()
			for _, m := range modes {
				opts := []discover.Option{discover.WithMode(m)}
				if emb != nil {
					opts = append(opts, discover.WithEmbedder(emb), discover.WithVectorCache(cache))
				}
				if enc != nil {
					opts = append(opts, discover.WithEncoder(enc))
				}
				file := outFile
				if file != "" && len(modes) > 1 {
					file += "." + m.String()
				}
				if err := evalDiscovery(cmd, tools, qs, opts, m, k, th, file, model); err != nil {
					return err
				}
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&toolsFile, "tools", "", "registry file (JSONL or JSON array of manifests)")
	fl.StringVar(&queriesFile, "queries", "", "query file (JSONL)")
	fl.StringVar(&outFile, "out", "", "write one JSON line per query here")
	fl.StringVar(&mode, "mode", "auto", "retrieval: keyword, vector, hybrid, all, or auto (hybrid when the vectors are built)")
	fl.StringVar(&encoder, "encoder", "none", encoderUsage)
	fl.StringVar(&embedder.Provider, "embedder", "local", "the vector side's embedder: local (the build's word vectors), ollama or openai (as for up and train)")
	fl.StringVar(&embedder.Model, "embedder-model", "", "embedding model for ollama/openai")
	fl.StringVar(&embedder.URL, "embedder-url", "", "embedding endpoint for ollama/openai")
	fl.IntVar(&k, "k", 10, "candidates per query")
	fl.BoolVar(&metaTools, "meta-tools", false, "add the builtin meta-tools to the registry, as up and worker serve it")
	fl.StringVar(&modelDir, "model", "", modelUsage)
	fl.Float64Var(&th.Activate, "activate-threshold", th.Activate, "tier threshold for activation")
	fl.Float64Var(&th.Multiple, "multiple-threshold", th.Multiple, "tier threshold for multiple matches")
	fl.Float64Var(&th.Weak, "weak-threshold", th.Weak, "tier threshold for weak matches")
	return c
}

// encoderUsage documents the eval commands' --encoder.
const encoderUsage = "sentence encoder added to hybrid discovery: none or use-lite"

// evalModes reads --mode into the modes to run and, when any needs
// vectors, the local embedder. Asking for vectors that are not built is an
// error here, since a measurement must measure what it says; auto falls
// back to keyword and says so.
// evalModes are the retrieval modes --mode names and the embedder of their
// vector side: cfg's (the build's word vectors unless --embedder names the
// workers' remote one, as a model trained with 'train --embedder' was
// fitted on); nil for keyword only.
func evalModes(ctx context.Context, log io.Writer, mode string, cfg embed.Config) ([]discover.Mode, embed.Embedder, error) {
	var modes []discover.Mode
	if strings.EqualFold(strings.TrimSpace(mode), "all") {
		modes = []discover.Mode{discover.ModeKeyword, discover.ModeVector, discover.ModeHybrid}
	} else {
		m, err := discover.ParseMode(mode)
		if err != nil {
			return nil, nil, fmt.Errorf("--mode: %w", err)
		}
		modes = []discover.Mode{m}
	}
	if len(modes) == 1 && modes[0] == discover.ModeKeyword {
		return modes, nil, nil
	}
	emb, err := embed.New(ctx, cfg)
	switch {
	case err == nil:
		if modes[0] == discover.ModeAuto {
			modes[0] = discover.ModeHybrid
		}
		return modes, emb, nil
	case errors.Is(err, embed.ErrUnavailable) && modes[0] == discover.ModeAuto:
		fmt.Fprintf(log, "vectors unavailable (%v): keyword-only; run 'make embeddings' for hybrid\n", err)
		return []discover.Mode{discover.ModeKeyword}, nil, nil
	case cfg.Provider != "" && cfg.Provider != embed.ProviderLocal:
		return nil, nil, fmt.Errorf("--embedder %s: %w", cfg.Provider, err)
	default:
		return nil, nil, fmt.Errorf("--mode %s needs the local vectors (run 'make embeddings'): %w", mode, err)
	}
}

func evalDiscovery(cmd *cobra.Command, tools []schemas.Manifest, qs []eval.Query, opts []discover.Option, m discover.Mode, k int, th route.Thresholds, outFile, modelDir string) (err error) {
	stderr := cmd.ErrOrStderr()
	start := time.Now()
	engine, err := discover.New(tools, opts...)
	if err != nil {
		return err
	}
	defer engine.Close()
	if err := applyModel(cmd, engine, modelDir); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "indexed %d tools in %s; running %d queries (mode %s)\n", len(tools), time.Since(start).Round(time.Millisecond), len(qs), engine.Mode())
	var out *bufio.Writer
	if outFile != "" {
		f, err := os.Create(outFile)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		out = bufio.NewWriter(f)
		defer func() {
			if ferr := out.Flush(); err == nil {
				err = ferr
			}
		}()
	}
	rep, err := eval.Discovery(cmd.Context(), engine, qs, k, th, writerOrNil(out), func(done, total int) {
		fmt.Fprintf(stderr, "  %d/%d\n", done, total)
	})
	if err != nil {
		return err
	}
	rep.Print(cmd.OutOrStdout(), fmt.Sprintf("%s (%s)", cmd.Flag("queries").Value, engine.Mode()))
	return nil
}

// modelUsage documents the eval commands' --model.
const modelUsage = "a model whose usage evidence and calibration discovery uses: a version directory written by 'toolyard train --out DIR', or (eval discovery) a version stored in the running Toolyard's models bucket"

// applyModel puts the model version in dir (if any) in force on engine.
func applyModel(cmd *cobra.Command, engine *discover.Engine, dir string) error {
	if dir == "" {
		return nil
	}
	b, err := bundle.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if engine.Mode() == discover.ModeKeyword {
		fmt.Fprintf(cmd.ErrOrStderr(), "--model %s: keyword-only discovery does not read usage evidence; evaluating without it\n", dir)
		return nil
	}
	if err := b.Apply(cmd.Context(), engine); err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "model %s in force (%s)\n", b.Manifest.Version, dir)
	return nil
}

// writerOrNil keeps a nil *bufio.Writer from becoming a non-nil io.Writer.
func writerOrNil(w *bufio.Writer) io.Writer {
	if w == nil {
		return nil
	}
	return w
}

// checkEvalFlags refuses tier thresholds and a k the measurement cannot
// use: route.Decide takes invalid thresholds for the defaults and discovery
// a k below 1 for its default, so '--activate-threshold 5' or '--k 0'
// printed the default figures as if they were the ones asked for.
func checkEvalFlags(th route.Thresholds, k int) error {
	if err := th.Validate(); err != nil {
		return fmt.Errorf("--activate-threshold, --multiple-threshold, --weak-threshold: %w", err)
	}
	if k < 1 {
		return fmt.Errorf("--k %d: want at least 1", k)
	}
	return nil
}

// loadToolsFile reads the registry a measurement, replay or training runs
// over. An empty one is refused: every query would be "not found" and
// every recorded answer "lost", figures that look like a verdict on
// discovery rather than on the file (up, by contrast, may start empty).
func loadToolsFile(path string) ([]schemas.Manifest, error) {
	tools, err := registry.LoadFile(path)
	if err != nil {
		return nil, err
	}
	if len(tools) == 0 {
		return nil, fmt.Errorf("registry %s holds no tools (want JSONL or a JSON array of manifests)", path)
	}
	return tools, nil
}

// withMetaTools is tools with the builtin meta-tools before them, as the
// stages register them (a registry tool may not take a builtin's id).
func withMetaTools(tools []schemas.Manifest) []schemas.Manifest {
	out := execute.BuiltinManifests()
	for _, m := range tools {
		if !slices.ContainsFunc(out, func(b schemas.Manifest) bool { return b.ID == m.ID }) {
			out = append(out, m)
		}
	}
	return out
}

// loadEvalSet reads a benchmark's registry and queries.
func loadEvalSet(stderr io.Writer, toolsFile, queriesFile string) ([]schemas.Manifest, []eval.Query, error) {
	if toolsFile == "" || queriesFile == "" {
		return nil, nil, fmt.Errorf("--tools and --queries are required")
	}
	tools, err := loadToolsFile(toolsFile)
	if err != nil {
		return nil, nil, err
	}
	qs, err := eval.LoadQueries(queriesFile)
	if err != nil {
		return nil, nil, err
	}
	warnGoldUnregistered(stderr, qs, tools)
	return tools, qs, nil
}

// warnGoldUnregistered says when most queries with gold tools name none the
// registry has (queries of one benchmark, tools of another): every such
// query is a miss whatever discovery does.
func warnGoldUnregistered(w io.Writer, qs []eval.Query, tools []schemas.Manifest) {
	registered := make(map[string]bool, len(tools))
	for _, m := range tools {
		registered[m.ID] = true
	}
	var gold, missing int
	var example string
	for _, q := range qs {
		if len(q.GoldToolIDs) == 0 {
			continue
		}
		gold++
		if !slices.ContainsFunc(q.GoldToolIDs, func(id string) bool { return registered[id] }) {
			missing++
			if example == "" {
				example = q.GoldToolIDs[0]
			}
		}
	}
	if gold > 0 && 2*missing > gold {
		fmt.Fprintf(w, "warning: %d of the %d queries with gold tools name none the registry has (%s, …): they are misses whatever discovery does; give the registry the queries were written for with --tools\n", missing, gold, example)
	}
}
