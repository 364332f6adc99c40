package predict

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/synth"
)

// streamText is what each simulated agent writes, token by token: a
// sentence, an intent, a sentence.
const streamText = "Sure, I can sort that out. First I will look it up. [TOOL: list the open pull requests that wait for my review today] Then I will summarise them."

// BenchmarkStage is the live predict stage's throughput: Run against a real
// embedded NATS server and a real discovery engine (keyword, 200 synthetic
// tools), reading token chunks of many sessions, interleaved, from
// agent.stream.<session>. The chunks are published first (acknowledged,
// with message ids, as `toolyard publish --stream` does; that rate is
// published-chunks/s), then the stage is started on them: chunks/s is from
// its start to its having read the last one, server delivery, decoding,
// prediction and the prefetch searches' start included (server, stage and
// searches share the machine's cores, as in `toolyard up`). peak-heap-MiB is
// the whole process's (server included), sampled every 20 ms; the
// per-session figure is BenchmarkSessionMemory's. The target:
// 20k chunks/s on the 2-core machine.
//
//	go test ./workers/predict -run '^$' -bench 'BenchmarkStage|BenchmarkSessionMemory' -benchtime 400000x
//
// (BenchmarkSessionMemory takes -benchtime 3x.)
func BenchmarkStage(b *testing.B) {
	for _, sessions := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("sessions=%d", sessions), func(b *testing.B) { benchStage(b, sessions) })
	}
}

func benchStage(b *testing.B, sessions int) {
	env := pipelinetest.Start(b)
	e, err := discover.New(synth.Tools(200, 1))
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	// The chunks, encoded ahead: session s writes message after message,
	// and the sessions take turns, one chunk each.
	toks := Tokens(streamText)
	subjects := make([]string, sessions)
	for s := range subjects {
		subjects[s] = schemas.AgentStreamPrefix + fmt.Sprint("bench-", s)
	}
	type msg struct {
		subject, id string
		data        []byte
	}
	msgs := make([]msg, b.N)
	for i := range msgs {
		s, t := i%sessions, i/sessions
		c := schemas.StreamChunk{SessionID: subjects[s][len(schemas.AgentStreamPrefix):], MessageID: fmt.Sprint("m", t/len(toks)), Seq: uint64(t % len(toks)), Delta: toks[t%len(toks)]}
		data, err := json.Marshal(c)
		if err != nil {
			b.Fatal(err)
		}
		msgs[i] = msg{subjects[s], fmt.Sprintf("%s:%s:%d", c.SessionID, c.MessageID, c.Seq), data}
	}
	nc, err := env.Server.Connect()
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	// Acknowledged publishes with a message id each, as `toolyard publish
	// --stream` makes them (a core publish the stream cannot take in time
	// is dropped), up to 4096 in flight.
	pub, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		b.Fatal(err)
	}

	// The backlog, stored first: the stage then reads it as fast as it
	// can, which is what is timed (a live publisher would time itself).
	stream, err := env.JS.Stream(context.Background(), "AGENT")
	if err != nil {
		b.Fatal(err)
	}
	info, err := stream.Info(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	first := info.State.LastSeq + 1
	published := time.Now()
	for _, m := range msgs {
		if _, err := pub.PublishAsync(m.subject, m.data, jetstream.WithMsgID(m.id), jetstream.WithStallWait(time.Minute)); err != nil {
			b.Fatal(err)
		}
	}
	select {
	case <-pub.PublishAsyncComplete():
	case <-time.After(5 * time.Minute):
		b.Fatal("publishes not acknowledged in 5 minutes")
	}
	publishRate := float64(b.N) / time.Since(published).Seconds()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan error, 1)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	from := func(c *stageConfig) { c.fromSeq = first }
	start := testutil.ToFloat64(Chunks)
	b.ResetTimer()
	go func() { stopped <- Run(ctx, env.JS, e, WithStageLogger(quiet), from) }()
	defer func() {
		cancel()
		if err := <-stopped; err != nil {
			b.Error(err)
		}
	}()

	var peak atomic.Uint64
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for ctx.Err() == nil {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	deadline := time.Now().Add(5 * time.Minute)
	for testutil.ToFloat64(Chunks)-start < float64(b.N) {
		if time.Now().After(deadline) {
			b.Fatalf("the stage read %.0f of %d chunks in 5 minutes", testutil.ToFloat64(Chunks)-start, b.N)
		}
		time.Sleep(time.Millisecond)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "chunks/s")
	b.ReportMetric(publishRate, "published-chunks/s")
	cancel()
	<-sampled
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
}

// BenchmarkSessionMemory is the predictor's memory per followed session:
// the heap 10,000 sessions hold, each halfway through its intent (the
// marker open, its words so far kept), divided by their number.
func BenchmarkSessionMemory(b *testing.B) {
	const sessions = 10_000
	toks := Tokens(streamText)
	half := 0
	for i, t := range toks {
		if strings.Contains(t, "[") {
			half = i + (len(toks)-i)/3
			break
		}
	}
	var ms runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.HeapAlloc
		p := New(WithWordPrefixes(false))
		now := time.Now()
		for s := range sessions {
			id := fmt.Sprint("mem-", s)
			for i := range half {
				if _, err := p.Feed(now, schemas.StreamChunk{SessionID: id, MessageID: "m", Seq: uint64(i), Delta: toks[i]}); err != nil {
					b.Fatal(err)
				}
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc-before)/sessions, "B/session")
		runtime.KeepAlive(p)
	}
}
