package pipeline_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

// A running stage reports how full the stream it reads is, against the
// stream's own byte limit, so the 80 % alert sees it before a publish fails;
// and how full RESULT is, which every stage writes and none reads.
func TestRunnerReportsStreamUsage(t *testing.T) {
	env := pipelinetest.Start(t)
	// Waiting messages no stage consumes: the streams hold their bytes.
	for i := range 20 {
		publish(t, env, "pipe.elsewhere.x", "a message nobody consumes here", "u-"+string(rune('a'+i)))
		publish(t, env, "result.x", "a result nobody reads here", "r-"+string(rune('a'+i)))
	}
	reg := prometheus.NewRegistry()
	runStage(t, env, forward, pipeline.WithMetrics(pipeline.NewMetrics(reg)))
	for _, stream := range []string{pipeline.StreamPipe, pipeline.StreamResult} {
		info, err := env.JS.Stream(context.Background(), stream)
		if err != nil {
			t.Fatal(err)
		}
		ci := info.CachedInfo()
		want := float64(ci.State.Bytes) / float64(ci.Config.MaxBytes)
		if want <= 0 {
			t.Fatalf("%s holds no bytes (%d) or has no limit (%d)", stream, ci.State.Bytes, ci.Config.MaxBytes)
		}
		deadline := time.Now().Add(3 * time.Second)
		got := usageOf(t, reg, stream)
		for got == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			got = usageOf(t, reg, stream)
		}
		if got != want {
			t.Errorf("toolyard_stream_usage_ratio{stream=%s,limit=bytes} = %g, want %g", stream, got, want)
		}
	}
}

// usageOf reads toolyard_stream_usage_ratio{stream=…,limit="bytes"}, 0 when absent.
func usageOf(t *testing.T, reg *prometheus.Registry, stream string) float64 {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "toolyard_stream_usage_ratio" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["stream"] == stream && labels["limit"] == pipeline.LimitBytes {
				return m.GetGauge().GetValue()
			}
		}
	}
	return 0
}

// The status page shows how full each stream is against its limits.
func TestStatusShowsStreamUsage(t *testing.T) {
	env := pipelinetest.Start(t)
	publish(t, env, "pipe.elsewhere.y", "waiting", "s-1")
	st, err := pipeline.ReadStatus(context.Background(), env.JS)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st.Streams {
		if s.Name != pipeline.StreamPipe {
			continue
		}
		info, err := env.JS.Stream(context.Background(), pipeline.StreamPipe)
		if err != nil {
			t.Fatal(err)
		}
		ci := info.CachedInfo()
		if want := 100 * float64(ci.State.Bytes) / float64(ci.Config.MaxBytes); math.Abs(s.UsedPercent-want) > 1e-9*want || want == 0 {
			t.Errorf("PIPE used_percent = %g, want %g", s.UsedPercent, want)
		}
		return
	}
	t.Fatal("no PIPE stream in the status")
}

// A running stage reports its dead letters and how full its DLQ share is.
func TestRunnerReportsDLQShare(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	topo := env.Topology
	topo.DLQ.MaxPerSubject = 8
	if err := topo.Apply(ctx, env.JS); err != nil {
		t.Fatal(err)
	}
	// Another stage's entry first, and older: the age is the stage's own.
	publish(t, env, pipeline.DLQSubject("other"), "another stage's", "o-1")
	time.Sleep(time.Second)
	firstOwn := time.Now()
	for i := range 6 {
		publish(t, env, pipeline.DLQSubject("test"), "a dead letter", "d-"+string(rune('a'+i)))
	}
	reg := prometheus.NewRegistry()
	m := pipeline.NewMetrics(reg)
	runStage(t, env, forward, pipeline.WithMetrics(m))
	// reportDLQ sets the DLQ's own usage last, after a round trip for the
	// oldest entry: wait for it, not for the first gauge it sets.
	deadline := time.Now().Add(3 * time.Second)
	for testutil.ToFloat64(m.StreamUsage.WithLabelValues(pipeline.StreamDLQ, pipeline.LimitBytes)) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := testutil.ToFloat64(m.DLQEntries.WithLabelValues("test")); got != 6 {
		t.Errorf("toolyard_dlq_entries{stage=test} = %g, want 6", got)
	}
	if got, most := testutil.ToFloat64(m.DLQOldestAge.WithLabelValues("test")), time.Since(firstOwn).Seconds(); got <= 0 || got > most {
		t.Errorf("toolyard_dlq_oldest_age_seconds{stage=test} = %g, want in (0, %g]: the age of the stage's first entry", got, most)
	}
	if got := testutil.ToFloat64(m.DLQShareUsage.WithLabelValues("test")); got != 0.75 {
		t.Errorf("toolyard_dlq_share_usage_ratio{stage=test} = %g, want 0.75", got)
	}
	if got := testutil.ToFloat64(m.StreamUsage.WithLabelValues(pipeline.StreamDLQ, pipeline.LimitBytes)); got <= 0 {
		t.Errorf("toolyard_stream_usage_ratio{stream=DLQ,limit=bytes} = %g, want > 0", got)
	}
}
