package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

func newEvalResolve() *cobra.Command {
	var (
		toolsFile, queriesFile, outFile, mode, resolver, encoder, modelDir string
		k                                                                  int
		goldTool, asJSON                                                   bool
		th                                                                 = route.DefaultThresholds()
		lf                                                                 llmFlags
	)
	c := &cobra.Command{
		Use:   "resolve --tools FILE --queries FILE [--out FILE]",
		Short: "Run discovery, routing and argument resolution on query files; report tool accuracy, argument exact match and F1, and routing figures",
		Long: `Runs the pipeline's decisions in-process (no NATS): discovery over --tools (a
registry file), routing by the confidence tiers, and resolution of the chosen
tool's arguments from the query text.

Every query of --queries (JSONL {id, query, gold_tool_ids, gold_calls?,
needs_tool?}) is discovered and routed. Queries with exactly one gold_calls
entry are also resolved, against the top candidate whatever its tier (for a
tier below activated these are the arguments the agent would get by activating
the top match). One JSON line per query goes to --out:
  {"id", "tool_id", "arguments", "status", "confidence", "tier", "error"?}
status is "resolved" or "error" for an activated intent, else the tier.

Printed figures:
  tool accuracy        share of single-call queries whose top tool is the gold tool
  argument exact match share whose tool is right and whose arguments are exactly
                       the gold ones (no key missing, none extra, every value equal)
  argument F1          over key/value pairs of all single-call queries (a wrong
                       tool's pairs are all wrong); values are compared after
                       trimming, ignoring case, numbers by value ("19.0" = 19)
  fill rate            share of the gold arguments of right-tool calls that got a
                       value, right or wrong (json: fill_rate, gold_args, filled)
  unmapped             values the queries state that no argument took: calls,
                       values, and those a parameter would take (json: unmapped)
  routing              over queries with gold tools: share activated, and share of
                       activated decisions whose tool is right
  awareness            over queries labelled needs_tool false: share that ends as
                       weak_matches or not_found

--resolver deterministic (the default) is the rule-based slot filler of the
resolve stage. With --llm ollama|openai (and --llm-model, --llm-url, as for
the workers) the LLM resolver is measured instead, with its deterministic
fallback; a model that is unsure or picks another candidate than the routed
tool counts as an error. --gold-tool resolves against the gold tool instead, measuring
the resolver alone. --mode chooses discovery as in 'toolyard eval discovery'.`,
		Example: `  toolyard eval resolve --tools ../shared/bench/sealtools/tools.jsonl \
      --queries ../shared/bench/sealtools/queries.dev.jsonl --out /tmp/seal-resolve.jsonl
  toolyard eval resolve --tools ../shared/bench/metatool/tools.jsonl \
      --queries ../shared/bench/metatool/awareness.dev.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) (err error) {
			if mode == "all" {
				return fmt.Errorf("--mode all is for 'eval discovery'; choose one of keyword, vector, hybrid, auto")
			}
			if err := checkEvalFlags(th, k); err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			modes, emb, err := evalModes(cmd.Context(), stderr, mode, embed.Config{Provider: embed.ProviderLocal})
			if err != nil {
				return err
			}
			tools, qs, err := loadEvalSet(cmd.ErrOrStderr(), toolsFile, queriesFile)
			if err != nil {
				return err
			}
			enc, err := embed.NewEncoder(encoder)
			if err != nil {
				return fmt.Errorf("--encoder: %w", err)
			}
			opts := []discover.Option{discover.WithMode(modes[0])}
			if emb != nil {
				opts = append(opts, discover.WithEmbedder(emb), discover.WithVectorCache(embed.NewMemoryCache()))
			}
			if enc != nil {
				opts = append(opts, discover.WithEncoder(enc))
			}
			start := time.Now()
			engine, err := discover.New(tools, opts...)
			if err != nil {
				return err
			}
			defer engine.Close()
			if err := applyModel(cmd, engine, modelDir); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "indexed %d tools in %s; running %d queries (discovery %s, resolver %s)\n",
				len(tools), time.Since(start).Round(time.Millisecond), len(qs), engine.Mode(), resolver)
			byID := make(map[string]schemas.Manifest, len(tools))
			for _, m := range tools {
				byID[m.ID] = m
			}
			resolveFn, resolver, err := evalResolver(resolver, &lf, byID, slog.Default())
			if err != nil {
				return err
			}
			cfg := eval.ResolveConfig{
				Search: engine, Tools: byID, Resolve: resolveFn, Partial: partialArgs,
				Thresholds: th, K: k, GoldTool: goldTool,
				Progress: func(done, total int) { fmt.Fprintf(stderr, "  %d/%d\n", done, total) },
			}
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
				w := bufio.NewWriter(f)
				defer func() {
					if ferr := w.Flush(); err == nil {
						err = ferr
					}
				}()
				cfg.Out = w
			}
			rep, err := eval.Resolution(cmd.Context(), cfg, qs)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			label := fmt.Sprintf("%s (discovery %s, resolver %s)", queriesFile, engine.Mode(), resolver)
			if goldTool {
				label += ", gold tool"
			}
			rep.Print(cmd.OutOrStdout(), label)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&toolsFile, "tools", "", "registry file (JSONL or JSON array of manifests)")
	fl.StringVar(&queriesFile, "queries", "", "query file (JSONL)")
	fl.StringVar(&outFile, "out", "", "write one JSON line per query here")
	fl.StringVar(&mode, "mode", "auto", "discovery: keyword, vector, hybrid, or auto (hybrid when the vectors are built)")
	fl.StringVar(&encoder, "encoder", "none", encoderUsage)
	fl.StringVar(&modelDir, "model", "", modelUsage)
	fl.StringVar(&resolver, "resolver", "deterministic", "argument resolver: deterministic, or llm (the LLM resolver, configured by --llm …)")
	lf.register(fl)
	fl.BoolVar(&goldTool, "gold-tool", false, "resolve against the gold tool instead of the discovered one (the resolver alone)")
	fl.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fl.IntVar(&k, "k", 10, "candidates per query")
	fl.Float64Var(&th.Activate, "activate-threshold", th.Activate, "tier threshold for activation")
	fl.Float64Var(&th.Multiple, "multiple-threshold", th.Multiple, "tier threshold for multiple matches")
	fl.Float64Var(&th.Weak, "weak-threshold", th.Weak, "tier threshold for weak matches")
	return c
}

// partialArgs recovers the arguments an intent did give when others are
// missing, so they count in the argument figures.
func partialArgs(err error) map[string]any {
	var me *resolve.MissingError
	if errors.As(err, &me) {
		return me.Found
	}
	return nil
}
