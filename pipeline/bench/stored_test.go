package bench_test

import (
	"context"
	"maps"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline/bench"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
)

func TestPerIntent(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after bench.Sequences
		intents       int
		want          map[string]float64
	}{
		{"counts what each stream gained", bench.Sequences{"AUDIT": 10, "RESULT": 4}, bench.Sequences{"AUDIT": 60, "RESULT": 24}, 10,
			map[string]float64{"AUDIT": 5, "RESULT": 2}},
		{"a stream made during the run counts from zero", bench.Sequences{}, bench.Sequences{"KV_executions": 20}, 10,
			map[string]float64{"KV_executions": 2}},
		{"streams that stored nothing are left out", bench.Sequences{"DLQ": 3}, bench.Sequences{"DLQ": 3}, 10, map[string]float64{}},
		{"a stream recreated lower gained nothing", bench.Sequences{"PIPE": 50}, bench.Sequences{"PIPE": 7}, 10, map[string]float64{}},
		{"shares round to two decimals", bench.Sequences{}, bench.Sequences{"AGENT": 1}, 3, map[string]float64{"AGENT": 0.33}},
		{"no intents, no shares", bench.Sequences{}, bench.Sequences{"AGENT": 5}, 0, map[string]float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := bench.PerIntent(tc.before, tc.after, tc.intents); !maps.Equal(got, tc.want) {
				t.Errorf("PerIntent = %v, want %v", got, tc.want)
			}
		})
	}
}

// StreamSequences reads a real server's streams, KV buckets included.
func TestStreamSequences(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx := context.Background()
	if _, err := env.JS.CreateStream(ctx, jetstream.StreamConfig{Name: "COUNTED", Subjects: []string{"counted.>"}}); err != nil {
		t.Fatal(err)
	}
	kv, err := env.JS.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "counted"})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := env.JS.Publish(ctx, "counted.x", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := kv.Put(ctx, "k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	seqs, err := bench.StreamSequences(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	if seqs["COUNTED"] != 3 || seqs["KV_counted"] != 1 {
		t.Errorf("sequences %v, want COUNTED 3 and KV_counted 1", seqs)
	}
}
