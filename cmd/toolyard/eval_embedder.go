package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/training/embedeval"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/registry"
)

// newEvalEmbedder prints the table behind the local embedder's defaults
// (workers/discover/embed/README.md): what was a test behind environment
// knobs (EMBED_VARIANTS, EMBED_VECTORS) is flags.
func newEvalEmbedder() *cobra.Command {
	var (
		bench, vectors string
		variants       []string
		all            bool
	)
	c := &cobra.Command{
		Use:   "embedder [--bench DIR] [--all | --variant NAME…] [--vectors FILE]",
		Short: "Measure the local embedder's variants (vector-only retrieval on the benchmarks): the table behind its defaults",
		Long: `Ranks every tool of the MetaTool and Seal-Tools benchmarks (--bench) by exact cosine
to each dev query, with the local word-vector embedder alone, and prints hit@1,
recall@5 and recall@10 per variant and set: the table in
workers/discover/embed/README.md that the embedder's defaults (SIF weight, common
components, whitening, n-grams, vocabulary, the manifest fields of a tool's text) were
chosen by. --vectors measures another conversion of the vectors (a file embedconv wrote)
instead of the compiled-in one.`,
		Example: `  toolyard eval embedder
  toolyard eval embedder --all
  toolyard eval embedder --variant default --variant cc=0 --variant text=name+desc`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			table := embedeval.Variants()
			var run []embedeval.Variant
			for _, v := range table {
				if all || slices.Contains(variants, v.Name) || len(variants) == 0 && v.Name == "default" {
					run = append(run, v)
				}
			}
			for _, name := range variants {
				if !slices.ContainsFunc(table, func(v embedeval.Variant) bool { return v.Name == name }) {
					names := make([]string, len(table))
					for i, v := range table {
						names[i] = v.Name
					}
					return fmt.Errorf("--variant %q: unknown (known: %s)", name, strings.Join(names, ", "))
				}
			}
			var base []embed.LocalOption
			if vectors != "" {
				b, err := os.ReadFile(vectors)
				if err != nil {
					return fmt.Errorf("--vectors: %w", err)
				}
				base = append(base, embed.WithVectors(b))
			}
			type set struct {
				name  string
				tools string
				qs    []eval.Query
			}
			var sets []set
			for _, name := range []string{"metatool", "sealtools"} {
				qs, err := eval.LoadQueries(filepath.Join(bench, name, "queries.dev.jsonl"))
				if err != nil {
					return fmt.Errorf("--bench: the benchmark data is needed (shared/bench beside the repository, or TOOLYARD_BENCH): %w", err)
				}
				sets = append(sets, set{name, filepath.Join(bench, name, "tools.jsonl"), qs})
			}
			out := cmd.OutOrStdout()
			for _, v := range run {
				l, err := embed.NewLocal(append(slices.Clone(base), v.Options...)...)
				if err != nil {
					return fmt.Errorf("variant %s: %w", v.Name, err)
				}
				for _, s := range sets {
					tools, err := registry.LoadFile(s.tools)
					if err != nil {
						return err
					}
					sc, err := embedeval.Retrieval(cmd.Context(), l, tools, s.qs, v.Text)
					if err != nil {
						return fmt.Errorf("variant %s, %s: %w", v.Name, s.name, err)
					}
					fmt.Fprintf(out, "%-18s %-9s %v\n", v.Name, s.name, sc)
				}
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&bench, "bench", benchDefault(), "benchmarks folder with metatool/ and sealtools/ (env TOOLYARD_BENCH)")
	fl.StringVar(&vectors, "vectors", "", "vector file to measure instead of the compiled-in one (embedconv's output)")
	fl.StringArrayVar(&variants, "variant", nil, "variant to measure, repeatable (default: default)")
	fl.BoolVar(&all, "all", false, "measure every variant of the table")
	return c
}
