package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/training/prefetch"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/models/bundle"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/route"
)

// delayedOllamaModel is the model name the simulated remote embedder answers to.
const delayedOllamaModel = "toolyard-local-delayed"

func newEvalPrefetch() *cobra.Command {
	var (
		toolsFile, queriesFile, modelDir, lead string
		tps                                    float64
		latency, debounce                      time.Duration
		latencyMS, concurrency, k, minWords    int
		maxPerIntent                           int
		asJSON                                 bool
		rule                                   = predict.DefaultRule()
		wordPrefixes                           bool
		th                                     = route.DefaultThresholds()
	)
	c := &cobra.Command{
		Use:   "prefetch --tools FILE --queries FILE",
		Short: "Simulate agents streaming their intents and measure the predictor's prefetch: hit rate, wrong hits, time from ']' to candidates",
		Long: `For every query of --queries, a simulated agent streams "<lead>[TOOL: <query>]"
token by token at --tokens-per-second through the predictor (workers/predict),
which prefetches the searches of its predictions. At the closing "]" the real
intent is looked up among them with the match rule (same registry and model
version, cosine >= 0.8, and by default the real intent's exact words;
see --max-missing-words): a hit answers with the prefetched candidates (waiting
for its search if it is still running), a miss searches afresh. Every intent is
also searched afresh at "]", which gives the time without prefetch and checks
each hit: a hit whose top tool or tier differs from the fresh search's is a wrong
hit.

Discovery embeds through a real remote path: a local HTTP server speaking
Ollama's embeddings protocol, backed by the local word vectors and answering
every request after --search-latency, driven through langchaingo's Ollama
client. Indexing and loading --model happen before the delay is turned on.

Prints hit rate, wrong-hit rate and p50/p99 of the time from "]" to candidates
with and without prefetch (over every intent, and over the hits); --json prints
one JSON object with hit_rate, wrong_hit_rate, p50_with_ms, p50_without_ms,
p99_with_ms, p99_without_ms and the rest of the report.`,
		Example: `  toolyard train --tools ../shared/bench/metatool/tools.jsonl \
      --audit ../shared/bench/metatool/learn/audit.jsonl --out /tmp/metatool-model
  toolyard eval prefetch --tools ../shared/bench/metatool/tools.jsonl \
      --queries ../shared/bench/metatool/learn/queries.jsonl --model /tmp/metatool-model --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("search-latency-ms") {
				if cmd.Flags().Changed("search-latency") {
					return fmt.Errorf("--search-latency %s and --search-latency-ms %d: give one", latency, latencyMS)
				}
				latency = time.Duration(latencyMS) * time.Millisecond
			}
			if err := checkEvalFlags(th, k); err != nil {
				return err
			}
			if concurrency < 1 {
				return fmt.Errorf("--concurrency %d: want at least 1", concurrency)
			}
			if latency < 0 || tps <= 0 {
				return fmt.Errorf("--search-latency must be >= 0 and --tokens-per-second > 0")
			}
			if !cmd.Flags().Changed("word-prefixes") {
				// A word prefix lacks the intent's last word: it can only
				// answer when the rule lets words be missing.
				wordPrefixes = rule.MaxMissingWords != 0
			}
			tools, qs, err := loadEvalSet(cmd.ErrOrStderr(), toolsFile, queriesFile)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			local, err := embed.NewLocal()
			if err != nil {
				return fmt.Errorf("eval prefetch needs the local vectors (run 'make embeddings'): %w", err)
			}
			srv, err := prefetch.StartDelayedOllamaServer(local, delayedOllamaModel)
			if err != nil {
				return err
			}
			defer srv.Close()
			remote, err := embed.New(ctx, embed.Config{Provider: embed.ProviderOllama, Model: delayedOllamaModel, URL: srv.URL()})
			if err != nil {
				return err
			}
			// No request cache: the fresh search at "]" (the time without
			// prefetch) must pay the embedder as a first request does, not
			// find the vector the prefetch search just made.
			engine, err := discover.New(tools, discover.WithEmbedder(remote), discover.WithMode(discover.ModeHybrid), discover.WithTopK(k),
				discover.WithRequestCache(0))
			if err != nil {
				return err
			}
			defer engine.Close()
			popts := []predict.Option{predict.WithDebounce(debounce), predict.WithMinWords(minWords), predict.WithMaxPerIntent(maxPerIntent), predict.WithWordPrefixes(wordPrefixes)}
			if modelDir != "" {
				b, err := bundle.ReadDir(modelDir)
				if err != nil {
					return fmt.Errorf("--model: %w", err)
				}
				if err := b.Apply(ctx, engine); err != nil {
					return fmt.Errorf("--model: %w", err)
				}
				popts = append(popts, predict.WithTemplates(b.Templates, predict.Phrasings(b.Usage)))
				fmt.Fprintf(cmd.ErrOrStderr(), "model %s in force (%s)\n", b.Manifest.Version, modelDir)
			}
			srv.SetDelay(latency)
			fmt.Fprintf(cmd.ErrOrStderr(), "streaming %d intents at %g tokens/s, search latency %s, %d agents at once\n", len(qs), tps, latency, concurrency)
			rep, err := prefetch.Simulate(ctx, engine, qs, prefetch.Config{
				TokensPerSecond: tps, Concurrency: concurrency, Thresholds: th, Predictor: popts, Lead: lead, Rule: rule,
				Vectorizer: localVectorizer(ctx, local),
				Progress:   func(done, total int) { fmt.Fprintf(cmd.ErrOrStderr(), "  %d/%d\n", done, total) },
			})
			if err != nil {
				return err
			}
			out := struct {
				prefetch.Report
				SearchLatencyMS float64 `json:"search_latency_ms"`
			}{rep, float64(latency) / float64(time.Millisecond)}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				return enc.Encode(out)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%s: %d intents at %g tokens/s, search latency %s\n", queriesFile, rep.Intents, tps, latency)
			fmt.Fprintf(w, "  hit rate        %.1f%% (%d hits, %d still running at ']'), %.2f prefetch searches per intent\n", 100*rep.HitRate, rep.Hits, rep.HitsWaited, rep.SearchesPerIntent)
			fmt.Fprintf(w, "  wrong hits      %.2f%% of hits (%d)\n", 100*rep.WrongHitRate, rep.WrongHits)
			fmt.Fprintf(w, "  ']' to ready    p50 %.1f ms with, %.1f ms without; p99 %.1f ms with, %.1f ms without\n", rep.P50WithMS, rep.P50WithoutMS, rep.P99WithMS, rep.P99WithoutMS)
			fmt.Fprintf(w, "  on hits         p50 %.1f ms with, %.1f ms without\n", rep.P50HitsWithMS, rep.P50HitsWithoutMS)
			fmt.Fprintf(w, "  cost of a miss  p99 %.3f ms (the lookup)\n", rep.MissCostP99MS)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&toolsFile, "tools", "", "registry file (JSONL or JSON array of manifests)")
	fl.StringVar(&queriesFile, "queries", "", "query file (JSONL)")
	fl.StringVar(&modelDir, "model", "", "a model version directory written by 'toolyard train --out DIR': its usage model, and its templates for the predictor")
	fl.Float64Var(&tps, "tokens-per-second", 40, "how fast the simulated agents write")
	fl.DurationVar(&latency, "search-latency", 150*time.Millisecond, "the simulated remote embedder's delay per request")
	fl.IntVar(&latencyMS, "search-latency-ms", 150, "--search-latency in milliseconds")
	fl.IntVar(&concurrency, "concurrency", 16, "agents streaming at once")
	fl.IntVar(&k, "k", 10, "candidates per search")
	fl.IntVar(&minWords, "min-words", 3, "words of an open marker before its prefix is predicted")
	fl.IntVar(&maxPerIntent, "max-per-intent", 8, "K: the most prefix searches per intent")
	fl.DurationVar(&debounce, "debounce", 100*time.Millisecond, "least time between two prefix searches of one intent")
	fl.StringVar(&lead, "lead", "Let me look that up for you. ", "what the agents write before the marker")
	fl.BoolVar(&asJSON, "json", false, "print one JSON object")
	fl.Float64Var(&rule.MinCosine, "min-cosine", rule.MinCosine, "match rule: least cosine between the real and the predicted intent (at least 0.8)")
	fl.IntVar(&rule.MaxMissingWords, "max-missing-words", rule.MaxMissingWords, "match rule: how many of the real intent's last words a prediction may lack (-1: any; 0 keeps every answer unchanged)")
	fl.BoolVar(&wordPrefixes, "word-prefixes", true, "predict at word ends too, not only at sentence ends (default: when --max-missing-words is not 0)")
	return c
}

// localVectorizer is the match rule's embedding: the local word vectors,
// microseconds per text whatever the search's embedder is.
func localVectorizer(ctx context.Context, l *embed.Local) predict.Vectorizer {
	return func(text string) []float32 {
		v, err := l.EmbedQuery(ctx, text)
		if err != nil {
			return nil
		}
		return v
	}
}
