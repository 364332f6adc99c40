package main

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/route"
)

func newEval(_ *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure discovery on query files (no server needed)",
	}
	cmd.AddCommand(newEvalDiscovery())
	return cmd
}

func newEvalDiscovery() *cobra.Command {
	var (
		toolsFile, queriesFile, outFile, mode string
		k                                     int
		th                                    = route.DefaultThresholds()
	)
	c := &cobra.Command{
		Use:   "discovery --tools FILE --queries FILE",
		Short: "Rank the tools for every query and report hit@1, recall@k, MRR, nDCG, calibration and latency",
		Long: `Builds the discovery index in-process from --tools (a registry file), runs every
query of --queries (JSONL {id, query, gold_tool_ids}, optionally needs_tool), writes
one JSON line per query to --out ({"id", "ranked", "confidence", "tier"}) and
prints the metrics. Queries with needs_tool labels also give the AUROC of the top
confidence for telling queries that need a tool from those that do not.`,
		Example: `  toolyard eval discovery --tools shared/bench/metatool/tools.jsonl \
      --queries shared/bench/metatool/queries.dev.jsonl --out /tmp/metatool.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if toolsFile == "" || queriesFile == "" {
				return fmt.Errorf("--tools and --queries are required")
			}
			if mode != "keyword" {
				return fmt.Errorf("--mode %q: this build has the keyword engine only", mode)
			}
			tools, err := registry.LoadFile(toolsFile)
			if err != nil {
				return err
			}
			qs, err := eval.LoadQueries(queriesFile)
			if err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			start := time.Now()
			engine, err := discover.New(tools)
			if err != nil {
				return err
			}
			defer engine.Close()
			fmt.Fprintf(stderr, "indexed %d tools in %s; running %d queries (mode %s)\n", len(tools), time.Since(start).Round(time.Millisecond), len(qs), mode)
			var out *bufio.Writer
			if outFile != "" {
				f, err := os.Create(outFile)
				if err != nil {
					return err
				}
				defer f.Close()
				out = bufio.NewWriter(f)
				defer out.Flush()
			}
			var w = out
			rep, err := eval.Discovery(cmd.Context(), engine, qs, k, th, writerOrNil(w), func(done, total int) {
				fmt.Fprintf(stderr, "  %d/%d\n", done, total)
			})
			if err != nil {
				return err
			}
			rep.Print(cmd.OutOrStdout(), fmt.Sprintf("%s (%s)", queriesFile, mode))
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&toolsFile, "tools", "", "registry file (JSONL or JSON array of manifests)")
	fl.StringVar(&queriesFile, "queries", "", "query file (JSONL)")
	fl.StringVar(&outFile, "out", "", "write one JSON line per query here")
	fl.StringVar(&mode, "mode", "keyword", "retrieval: keyword")
	fl.IntVar(&k, "k", 10, "candidates per query")
	fl.Float64Var(&th.Activate, "activate-threshold", th.Activate, "tier threshold for activation")
	fl.Float64Var(&th.Multiple, "multiple-threshold", th.Multiple, "tier threshold for multiple matches")
	fl.Float64Var(&th.Weak, "weak-threshold", th.Weak, "tier threshold for weak matches")
	return c
}

// writerOrNil keeps a nil *bufio.Writer from becoming a non-nil io.Writer.
func writerOrNil(w *bufio.Writer) interface{ Write([]byte) (int, error) } {
	if w == nil {
		return nil
	}
	return w
}
