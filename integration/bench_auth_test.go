package integration

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/pipeline/bench"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/roles"
	"github.com/toolyard/toolyard/workers/stages"
)

// BenchmarkPipelineAuth measures what authentication and per-role
// permissions cost: the same pipeline, its stages connected over TCP as
// separate workers are, against an open server (auth=off) and against the
// default one with the worker credential (auth=on). 32 outputs in flight,
// one intent each. Compare the two intents/s figures of one run.
func BenchmarkPipelineAuth(b *testing.B) {
	for _, secured := range []bool{false, true} {
		b.Run(fmt.Sprintf("auth=%v", map[bool]string{false: "off", true: "on"}[secured]), func(b *testing.B) {
			opts := []pipeline.ServerOption{pipeline.WithDataDir(b.TempDir()), pipeline.WithListen("127.0.0.1", -1)}
			if !secured {
				opts = append(opts, pipeline.WithoutAuth())
			}
			srv, err := pipeline.StartServer(opts...)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(srv.Shutdown)
			var worker, client []nats.Option
			if secured {
				perms, err := roles.Worker()
				if err != nil {
					b.Fatal(err)
				}
				w, err := srv.Keys().Mint(auth.User{Name: "bench-worker", Permissions: perms})
				if err != nil {
					b.Fatal(err)
				}
				a, err := srv.Keys().Mint(auth.User{Name: "bench-admin"})
				if err != nil {
					b.Fatal(err)
				}
				worker, client = []nats.Option{w.Option()}, []nats.Option{a.Option()}
			}
			connect := func(o []nats.Option) jetstream.JetStream {
				nc, err := nats.Connect(srv.ClientURL(), o...)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(nc.Close)
				js, err := jetstream.New(nc)
				if err != nil {
					b.Fatal(err)
				}
				return js
			}
			js := connect(client)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := pipeline.DefaultTopology().Ensure(ctx, js); err != nil {
				b.Fatal(err)
			}
			set, err := stages.New(stages.Config{Limits: unlimitedSessions()})
			if err != nil {
				b.Fatal(err)
			}
			wjs := connect(worker)
			rctx, stop := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for _, name := range bind.Stages {
				st, _ := set.Stage(name)
				wg.Add(1)
				go func() {
					defer wg.Done()
					_ = pipeline.Run(rctx, wjs, st, pipeline.WithConcurrency(16))
				}()
			}
			b.Cleanup(func() { stop(); wg.Wait() })
			runBench(b, js, bench.WithIntents(b.N), bench.WithInFlight(32))
		})
	}
}
