package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// stageFlags are the settings shared by every process that runs stages.
type stageFlags struct {
	registry    string
	concurrency int
	ackWait     time.Duration
	maxDeliver  int
	activate    float64
	multiple    float64
	weak        float64
	httpAddr    string
}

func (f *stageFlags) register(cmd *cobra.Command, httpDefault string) {
	fl := cmd.Flags()
	fl.StringVar(&f.registry, "registry", "", "tool registry file (JSONL or JSON array of manifests); default: the built-in sample registry")
	fl.IntVar(&f.concurrency, "concurrency", 4, "messages handled at once per stage in this process")
	fl.DurationVar(&f.ackWait, "ack-wait", 30*time.Second, "how long a message may go unacknowledged before another worker gets it (long handlers send heartbeats)")
	fl.IntVar(&f.maxDeliver, "max-deliver", 5, "deliveries before a failing message is dead-lettered")
	th := route.DefaultThresholds()
	fl.Float64Var(&f.activate, "activate-threshold", th.Activate, "confidence at or above which the top tool is executed")
	fl.Float64Var(&f.multiple, "multiple-threshold", th.Multiple, "confidence at or above which alternatives are offered")
	fl.Float64Var(&f.weak, "weak-threshold", th.Weak, "confidence at or above which weak matches are listed; below it: not found")
	fl.StringVar(&f.httpAddr, "http", httpDefault, "address of /metrics, /healthz, /readyz (and the status page with up); empty disables")
}

func (f *stageFlags) tools() ([]schemas.Manifest, string, error) {
	if f.registry == "" {
		ms, err := sample.Tools()
		return ms, "built-in sample registry", err
	}
	ms, err := registry.LoadFile(f.registry)
	return ms, f.registry, err
}

func (f *stageFlags) stageSet(log *slog.Logger) (*stages.Set, error) {
	tools, source, err := f.tools()
	if err != nil {
		return nil, err
	}
	set, err := stages.New(stages.Config{
		Tools:      tools,
		Thresholds: route.Thresholds{Activate: f.activate, Multiple: f.multiple, Weak: f.weak},
		Log:        log,
	})
	if err != nil {
		return nil, err
	}
	log.Info("registry loaded", "source", source, "tools", set.Registry().Len())
	return set, nil
}

// runStages runs the named stages until ctx ends.
func (f *stageFlags) runStages(ctx context.Context, js jetstream.JetStream, set *stages.Set, names []string, metrics *pipeline.Metrics, log *slog.Logger) error {
	g, gctx := errgroup.WithContext(ctx)
	for _, name := range names {
		st, err := set.Stage(name)
		if err != nil {
			return err
		}
		g.Go(func() error {
			err := pipeline.Run(gctx, js, st,
				pipeline.WithConcurrency(f.concurrency), pipeline.WithAckWait(f.ackWait),
				pipeline.WithMaxDeliver(f.maxDeliver), pipeline.WithMetrics(metrics),
				pipeline.WithLogger(log))
			if err != nil {
				return fmt.Errorf("stage %s: %w", name, err)
			}
			return nil
		})
	}
	return g.Wait()
}
