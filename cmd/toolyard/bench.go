package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/bench"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/stages"
)

func newBench(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure Toolyard on a real NATS server",
	}
	cmd.AddCommand(newBenchPipeline(g), newBenchReplay(g))
	return cmd
}

// benchOutput is the one JSON object 'bench pipeline --json' prints.
type benchOutput struct {
	Server           string `json:"server"`
	StageConcurrency int    `json:"stage_concurrency,omitempty"`
	// LocalHandOff: the stages hand work to each other in-process ('up
	// --local-handoff'); absent with --nats.
	LocalHandOff *bool `json:"local_handoff,omitempty"`
	// Workers is how many worker processes ran the stages (--workers); 0:
	// this process did.
	Workers int `json:"workers,omitempty"`
	// Tool is the words inside each [TOOL: …] (--tool).
	Tool string `json:"tool"`
	// StoredPerIntent is what each intent stored, by stream (KV buckets
	// are the KV_ streams): the cost the server pays for it. Embedded
	// server only, where nothing else writes.
	StoredPerIntent map[string]float64 `json:"stored_per_intent,omitempty"`
	bench.Report
	*bench.RawReport
}

func newBenchPipeline(g *globalFlags) *cobra.Command {
	var (
		intents, perOutput, inFlight, concurrency, rawMessages int
		raw, asJSON, localHandOff                              bool
		workers                                                int
		cpuProfile, tool, toolsFile                            string
		outputTimeout                                          time.Duration
	)
	cmd := &cobra.Command{
		Use:   "pipeline",
		Short: "Intents per second and end-to-end latency through every stage; with --raw, plain JetStream beside it",
		Long: `Publishes agent outputs whose intents run the builtin toolyard/help tool (it
answers at once, so the figures are the pipeline's own) with a bounded number in
flight, and measures intents per second and each output's latency from publish
to its last result. --tool puts other words in the intents: a request that the
registry answers by running a tool, whose executor is then measured too (the
workers' registry with --nats; with the embedded server the builtins, and the
tools of --tools FILE). A bare tool id is an activation, which the embedded
benchmark's stages (no session tool sets) refuse. An output whose result is not
'executed' counts as failed, and the command says why the first one failed.

By default it starts its own embedded server in a temporary data directory
(authentication on, as 'up' runs it), runs every stage in this process connected
as 'up' connects them, with the per-session limits off, and removes everything
afterwards. With --nats it runs against that server or cluster instead and only
publishes and measures: the stages are the operator's workers, with their
limits (each in-flight output is a session of its own).

With the embedded server the JSON also says what each intent stored, by stream
(stored_per_intent; KV buckets are the KV_ streams), counted from the streams'
sequence numbers: the messages the server wrote for it.

--raw also measures plain JetStream on the same server: messages published
asynchronously, consumed and acked through one temporary file-backed stream
(it needs the right to create streams). Progress goes to stderr.`,
		Example: `  toolyard bench pipeline --intents 5000 --raw
  toolyard bench pipeline --intents 20000 --json
  toolyard bench pipeline --intents 2000 --tools ops/sample/tools.jsonl --tool "how long has the system been up"
  toolyard bench pipeline --nats nats://nats-1:4222 --creds admin.creds --intents 10000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if strings.TrimSpace(tool) == "" || strings.ContainsAny(tool, "[]") {
				return fmt.Errorf("--tool %q: want the words of a request, without brackets", tool)
			}
			// Checked before a server starts and a report of nothing is
			// printed above the error.
			for _, c := range []struct {
				flag string
				v    int
			}{{"--intents", intents}, {"--per-output", perOutput}, {"--in-flight", inFlight}, {"--concurrency", concurrency}, {"--raw-messages", rawMessages}} {
				if c.v < 1 {
					return fmt.Errorf("%s %d: want at least 1", c.flag, c.v)
				}
			}
			if outputTimeout <= 0 {
				return fmt.Errorf("--output-timeout %s: want a positive duration", outputTimeout)
			}
			opts := []bench.Option{bench.WithIntents(intents), bench.WithIntentsPerOutput(perOutput), bench.WithInFlight(inFlight), bench.WithTool(tool),
				bench.WithOutputTimeout(outputTimeout),
				bench.WithProgress(2*time.Second, func(p bench.Progress) {
					fmt.Fprintf(cmd.ErrOrStderr(), "bench: %d of %d intents in %.1f s\n", p.Done, p.Total, p.Elapsed.Seconds())
				})}
			out := benchOutput{Server: "embedded", StageConcurrency: concurrency, Tool: tool}
			var js jetstream.JetStream
			// stopStages lets the raw figure have the server to itself, as
			// the pipeline had.
			stopStages := func() {}
			embedded := !cmd.Flags().Changed("nats")
			if embedded {
				// Every other command connects to $TOOLYARD_NATS: say that
				// this one measures its own server, or an operator in a
				// container where it is set takes the figure for the
				// cluster's.
				for _, k := range []string{"TOOLYARD_NATS", "NATS_URL"} {
					if os.Getenv(k) != "" {
						fmt.Fprintf(cmd.ErrOrStderr(), "bench: %s is set, but without --nats this measures an embedded server of its own; give --nats \"$%s\" to measure your workers\n", k, k)
						break
					}
				}
			}
			if !embedded {
				if toolsFile != "" {
					return errors.New("--tools registers tools for the embedded server's stages; with --nats the workers' registry answers (add tools with 'toolyard tools add')")
				}
				nc, err := g.connect("toolyard-bench")
				if err != nil {
					return withUpHint(err)
				}
				defer nc.Close()
				if js, err = jetstream.New(nc); err != nil {
					return err
				}
				out.Server, out.StageConcurrency = g.nats, 0
			} else {
				out.LocalHandOff = &localHandOff
				if workers > 0 {
					out.Workers = workers
				}
				var tools []schemas.Manifest
				if toolsFile != "" {
					if workers > 0 {
						return errors.New("--tools registers tools for the stages of this process; the --workers processes read only the builtins")
					}
					var err error
					if tools, err = registry.LoadFile(toolsFile); err != nil {
						return fmt.Errorf("--tools: %w", err)
					}
				}
				env, err := startBenchServer(ctx, concurrency, localHandOff, workers, tools, slog.Default())
				if err != nil {
					return err
				}
				defer env.stop()
				js, stopStages = env.client, env.stopStages
			}
			stopProfile, err := startCPUProfile(cpuProfile)
			if err != nil {
				return err
			}
			// What the intents store is counted where nothing else writes.
			var before bench.Sequences
			if embedded {
				if before, err = bench.StreamSequences(ctx, js); err != nil {
					return err
				}
			}
			rep, err := bench.Pipeline(ctx, js, opts...)
			stopProfile()
			out.Report = rep
			// Stopped stages have published all they will: the count is complete.
			stopStages()
			if before != nil && err == nil {
				after, serr := bench.StreamSequences(ctx, js)
				if serr != nil {
					return serr
				}
				out.StoredPerIntent = bench.PerIntent(before, after, rep.Intents+rep.WarmUpIntents)
			}
			if err != nil {
				_ = printBench(cmd.OutOrStdout(), out, asJSON)
				return err
			}
			if raw {
				fmt.Fprintf(cmd.ErrOrStderr(), "bench: raw JetStream, %d messages\n", rawMessages)
				r, err := bench.Raw(ctx, js, bench.WithMessages(rawMessages))
				if err != nil {
					return fmt.Errorf("raw JetStream: %w", err)
				}
				out.RawReport = &r
			}
			return printBench(cmd.OutOrStdout(), out, asJSON)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&intents, "intents", 5000, "intents to send")
	fl.StringVar(&tool, "tool", bench.DefaultTool, "the words inside each [TOOL: …]: a request the registry answers by running a tool; the default, a builtin that answers at once, measures the pipeline alone")
	fl.IntVar(&perOutput, "per-output", 1, "intents in each agent output")
	fl.IntVar(&inFlight, "in-flight", 32, "agent outputs waiting for their results at once (each a session of its own)")
	fl.IntVar(&concurrency, "concurrency", defaultConcurrency, "messages handled at once per stage (embedded server only; as 'up --concurrency')")
	fl.IntVar(&workers, "workers", 0, "run the stages in this many worker processes of this binary (each runs every stage, connected over TCP with the worker credential) instead of in this process: how the pipeline scales with processes (embedded server only)")
	fl.BoolVar(&localHandOff, "local-handoff", true, "stages hand work straight to the next one in this process (embedded server only; as 'up --local-handoff')")
	fl.StringVar(&toolsFile, "tools", "", "a registry file (JSONL or JSON array of manifests) for the embedded server's stages, beside the builtins: tools for --tool to run (not with --nats or --workers)")
	fl.BoolVar(&raw, "raw", false, "also measure plain JetStream publish + consume + ack on the same server")
	fl.IntVar(&rawMessages, "raw-messages", 100_000, "messages (512 B) for --raw")
	fl.BoolVar(&asJSON, "json", false, "print one JSON object instead of a table")
	fl.DurationVar(&outputTimeout, "output-timeout", 30*time.Second, "how long one output may wait for its results before it counts as failed; to measure through worker kills or a node's loss, make it outlast the workers' --ack-wait (a message a killed worker held is handed on only then)")
	fl.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the pipeline run (this process: with the embedded server, the server and every stage) to this file, for 'go tool pprof'")
	return cmd
}

func printBench(w io.Writer, out benchOutput, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	where := "server " + out.Server
	if out.Server == "embedded" {
		where = fmt.Sprintf("embedded server, every stage in this process, concurrency %d each", out.StageConcurrency)
		if out.Workers > 0 {
			where = fmt.Sprintf("embedded server, every stage in each of %d worker processes, concurrency %d each", out.Workers, out.StageConcurrency)
		}
	}
	r := out.Report
	fmt.Fprintf(tw, "pipeline\t(%s)\n", where)
	fmt.Fprintf(tw, "  intents\t%d in %d outputs, %d in flight, %.2f s\n", r.Intents, r.Outputs, r.InFlight, r.Seconds)
	fmt.Fprintf(tw, "  throughput\t%.0f intents/s\n", r.IntentsPerS)
	fmt.Fprintf(tw, "  latency per output\tp50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n", r.P50MS, r.P90MS, r.P99MS, r.MaxMS)
	if r.Failed > 0 {
		fmt.Fprintf(tw, "  failed outputs\t%d (first: %s)\n", r.Failed, r.FirstFailure)
	}
	if len(out.StoredPerIntent) > 0 {
		names := slices.Sorted(maps.Keys(out.StoredPerIntent))
		parts := make([]string, len(names))
		total := 0.0
		for i, n := range names {
			parts[i] = fmt.Sprintf("%s %g", n, out.StoredPerIntent[n])
			total += out.StoredPerIntent[n]
		}
		fmt.Fprintf(tw, "  stored per intent\t%g messages: %s\n", math.Round(total*100)/100, strings.Join(parts, ", "))
	}
	if x := out.RawReport; x != nil {
		fmt.Fprintf(tw, "raw JetStream\t(one file-backed stream, %d B messages)\n", x.Size)
		fmt.Fprintf(tw, "  publish + consume + ack\t%.0f msgs/s (%d messages, %.2f s)\n", x.MsgsPerS, x.Messages, x.Seconds)
		fmt.Fprintf(tw, "  async publish alone\t%.0f msgs/s\n", x.PublishPerS)
		if r.IntentsPerS > 0 {
			fmt.Fprintf(tw, "  pipeline / raw\t1/%.0f\n", x.MsgsPerS/r.IntentsPerS)
		}
	}
	return tw.Flush()
}

// startCPUProfile profiles this process into file until stop (nothing
// when file is empty).
func startCPUProfile(file string) (stop func(), err error) {
	if file == "" {
		return func() {}, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// benchServer is the embedded server and in-process stages of a benchmark.
type benchServer struct {
	srv        *pipeline.Server
	dir        string
	client     jetstream.JetStream
	stopStages func()
	closeConns func()
}

// startBenchServer starts a server in a temporary data directory, as 'up'
// starts one (authentication on), and every stage on an in-process admin
// connection, as 'up' runs them; the benchmark's client has a connection of
// its own, as an agent would.
func startBenchServer(ctx context.Context, concurrency int, localHandOff bool, workers int, tools []schemas.Manifest, log *slog.Logger) (*benchServer, error) {
	dir, err := os.MkdirTemp("", "toolyard-bench-")
	if err != nil {
		return nil, err
	}
	srv, err := pipeline.StartServer(pipeline.WithDataDir(dir), pipeline.WithListen("127.0.0.1", -1))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	b := &benchServer{srv: srv, dir: dir, stopStages: func() {}, closeConns: func() {}}
	fail := func(err error) (*benchServer, error) { b.stop(); return nil, err }
	stagesNC, err := srv.Connect()
	if err != nil {
		return fail(err)
	}
	clientNC, err := srv.Connect()
	if err != nil {
		stagesNC.Close()
		return fail(err)
	}
	b.closeConns = func() { clientNC.Close(); stagesNC.Close() }
	sjs, err := jetstream.New(stagesNC)
	if err != nil {
		return fail(err)
	}
	if b.client, err = jetstream.New(clientNC); err != nil {
		return fail(err)
	}
	tctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	// Fitted to the store like up's: a bench on a fuller disk still runs.
	topo, _, err := pipeline.DefaultTopology().FitTo(tctx, sjs, srv.MaxStore())
	if err == nil {
		err = topo.Ensure(tctx, sjs)
	}
	cancel()
	if err != nil {
		return fail(err)
	}
	if workers > 0 {
		w, err := startBenchWorkers(ctx, srv, b.client, workers, concurrency, localHandOff)
		if err != nil {
			return fail(err)
		}
		b.stopStages = sync.OnceFunc(w.stop)
		return b, nil
	}
	// A benchmark sends its sessions' outputs as fast as the pipeline takes
	// them, which is what it measures, not what an agent should do: the
	// per-session rate and execution limits are off.
	set, err := stages.New(stages.Config{Tools: tools, Limits: &stages.Limits{SessionRate: -1, SessionExecutions: -1}, Log: log})
	if err != nil {
		return fail(err)
	}
	rctx, stop := context.WithCancel(ctx)
	var wg, ready sync.WaitGroup
	var local *pipeline.Local
	if localHandOff {
		local = pipeline.NewLocal()
	}
	for _, name := range bind.Stages {
		st, err := set.Stage(name)
		if err != nil {
			stop()
			return fail(err)
		}
		wg.Add(1)
		ready.Add(1)
		started := sync.OnceFunc(ready.Done)
		go func() {
			defer wg.Done()
			defer started() // a stage that failed to start is logged; the others run
			if err := pipeline.Run(rctx, sjs, st, pipeline.WithConcurrency(concurrency), pipeline.WithLogger(log), pipeline.WithLocal(local),
				pipeline.WithReady(started)); err != nil {
				log.Error("stage stopped", "stage", name, "error", err)
			}
		}()
	}
	var once sync.Once
	b.stopStages = func() { once.Do(func() { stop(); wg.Wait() }) }
	// The first outputs must meet every stage running: one published
	// before a stage of the chain is would go through its stream, stored
	// as no intent of a running pipeline is (stored_per_intent).
	all := make(chan struct{})
	go func() { ready.Wait(); close(all) }()
	select {
	case <-all:
	case <-time.After(30 * time.Second):
		b.stopStages()
		return fail(errors.New("the stages did not start within 30 s"))
	case <-ctx.Done():
		b.stopStages()
		return fail(ctx.Err())
	}
	return b, nil
}

// stop ends the stages, the connections and the server, and removes the data.
func (b *benchServer) stop() {
	b.stopStages()
	b.closeConns()
	b.srv.Shutdown()
	os.RemoveAll(b.dir)
}
