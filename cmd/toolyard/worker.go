package main

import (
	"slices"

	"context"
	"fmt"
	"golang.org/x/sync/errgroup"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/stages"
)

func newWorker(g *globalFlags) *cobra.Command {
	var (
		sf        stageFlags
		stageList []string
	)
	cmd := &cobra.Command{
		Use:   "worker --stage STAGE",
		Short: "Run one stage (or a few) against a NATS server or cluster; run as many as you like",
		Long: `Runs the given stage(s) against the NATS server at --nats. Every worker of a stage
shares one durable consumer, so starting more processes spreads the load; a
process that dies leaves its unacknowledged messages to the others.

Stages: ` + strings.Join(bind.Stages, ", ") + `, predict (watches agent.stream.> and
prefetches the searches of the intents it predicts; 'up' runs it unless
--prefetch=false), and session (seeds and ends
session tool sets from agent.output.> and agent.end.>; 'up' runs it with
--sessions). Routing hands each confidence tier to its own stage: activated to
resolve, multiple_matches to choose, weak_matches and not_found to answer.

A process that runs several stages hands work between them directly
(--local-handoff, on by default, as in 'up'): parse, discover, route and
resolve then run as one handling, and only the executor's work goes through
PIPE. So a discover worker added beside an 'up' or a
'worker --stage parse,discover,route,resolve' gets only the work that reaches
pipe.discover (nested intents, DLQ replays, processes with
--local-handoff=false): to scale discovery apart from parsing, run those with
--local-handoff=false; to scale them together, start more of them.

The stage replay takes the shards of 'toolyard replay --workers' (dry run: it
never executes a tool); each shard uses every core of its process.`,
		Example: `  toolyard worker --stage discover --concurrency 8
  toolyard worker --stage execute --nats nats://10.0.0.5:4222 --http :9101`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := sf.check(); err != nil {
				return err
			}
			if len(stageList) == 0 {
				return fmt.Errorf("--stage is required (one of %s)", strings.Join(bind.Stages, ", "))
			}
			var runReplay bool
			stageList = slices.DeleteFunc(stageList, func(s string) bool {
				if s == replayStage {
					runReplay = true
					return true
				}
				return false
			})
			for _, s := range stageList {
				if !stages.Valid(s) {
					return fmt.Errorf("unknown stage %q (stages: %s)", s, strings.Join(bind.Stages, ", "))
				}
			}
			if err := checkStageCreds(g.conn.credsFile(), stageList); err != nil {
				return err
			}
			httpLn, err := sf.listenHTTP()
			if err != nil {
				return err
			}
			if httpLn != nil {
				defer httpLn.Close() // served below, which closes it when ctx ends; closed here on an early return
			}
			ctx := cmd.Context()
			log := slog.Default().With("pid", pidString())
			nc, err := g.connect("toolyard-worker-"+strings.Join(stageList, "+"), g.refusal.observe(g.conn.credsFile()))
			if err != nil {
				return withUpHint(err)
			}
			defer drainWait(nc)
			js, err := jetstream.New(nc)
			if err != nil {
				return err
			}
			tctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			err = pipeline.DefaultTopology().Ensure(tctx, js)
			cancel()
			if err != nil {
				return err
			}
			sf.guard.toolConn = g.toolConnector(&sf.guard)
			if file := g.conn.credsFile(); slices.Contains(stageList, bind.StageExecute) && sf.guard.toolCreds == "" && file != "" {
				if anywhere, err := auth.PublishesAnywhere(file); err == nil && !anywhere {
					log.Warn("NATS-request tools publish on this worker's connection, whose credential allows no tool subjects: their calls will be refused; give --tool-creds DATA/creds/tools.creds", "creds", file)
				}
			}
			set, err := sf.followRegistry(ctx, js, false, log)
			if err != nil {
				return err
			}
			ops := pipeline.NewOps(nc)
			ops.Registry.MustRegister(stages.Collectors()...)
			if httpLn != nil {
				log.Info("metrics", "url", "http://"+ops.Serve(ctx, httpLn, log)+"/metrics")
			}
			stopService, err := sf.sess.startService(js, set, log)
			if err != nil {
				return err
			}
			defer stopService()
			log.Info("worker started", "stages", stageList, "nats", g.nats, "concurrency", sf.concurrency)
			eg, ectx := errgroup.WithContext(ctx)
			if len(stageList) > 0 {
				eg.Go(func() error { return sf.runStages(ectx, js, set, stageList, ops.Metrics, log, nil) })
			}
			if runReplay {
				eg.Go(func() error { return runReplayWorkers(ectx, g, js, &sf, ops.Metrics, log) })
			}
			err = eg.Wait()
			log.Info("worker stopped")
			return err
		},
	}
	sf.register(cmd, "127.0.0.1:0")
	cmd.Flags().StringSliceVar(&stageList, "stage", nil, "stage(s) to run: "+strings.Join(bind.Stages, ", ")+", predict, session, replay")
	return cmd
}
