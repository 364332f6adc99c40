//go:build experiment

// Experiments behind the figures in training/README.md ("What was tried"):
// not part of the test suite (build tag experiment). Rank time-ordered
// tenths of a history once, then try weights and calibrations on the rows:
//
//	LEARNQ_DUMP=/tmp/rows.jsonl LEARNQ_TOOLS=$PWD/../shared/bench/metatool/tools.jsonl \
//	LEARNQ_AUDIT=$PWD/../shared/bench/metatool/learn/audit.jsonl \
//	  go test -tags experiment -run TestDumpRows ./training/learn/
//	LEARNQ_ROWS=/tmp/rows.jsonl go test -tags experiment -run 'TestExperiment' -v ./training/learn/
//
// LEARNQ_ENCODER=use-lite ranks with the sentence encoder,
// LEARNQ_USAGE_ENCODER=use-lite embeds the learned intents with it (the
// registry side as LEARNQ_ENCODER says), LEARNQ_K sets the usage model's
// Neighbours, LEARNQ_FROM the first tenth ranked (default 2), LEARNQ_POOL
// how many candidates a row keeps (default poolSize; -1 the whole pool a
// search ranks, Engine.ExplainPool).
package learn

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/registry"
)

// dumpRow is one ranked history example for offline experiments.
type dumpRow struct {
	Seg     int            `json:"seg"`
	History int            `json:"history"`
	Gold    string         `json:"gold"`
	Counts  map[string]int `json:"counts"`
	// GoldCount is how many examples before the row's tenth were for its tool.
	GoldCount int                  `json:"gold_count"`
	Cands     []discover.Explained `json:"cands"`
}

// TestDumpRows (experiment, off unless LEARNQ_DUMP is set) ranks time-ordered
// tenths of a history, each with the usage of everything before it.
func TestDumpRows(t *testing.T) {
	out := os.Getenv("LEARNQ_DUMP")
	if out == "" {
		t.Skip("experiment: set LEARNQ_DUMP, LEARNQ_TOOLS, LEARNQ_AUDIT")
	}
	tools, err := registry.LoadFile(os.Getenv("LEARNQ_TOOLS"))
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewLocal()
	if err != nil {
		t.Fatal(err)
	}
	opts := []discover.Option{discover.WithMode(discover.ModeHybrid), discover.WithEmbedder(emb)}
	if name := os.Getenv("LEARNQ_ENCODER"); name != "" {
		enc, err := embed.NewEncoder(name)
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, discover.WithEncoder(enc))
	}
	e, err := discover.New(tools, opts...)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := ReadAuditFile(os.Getenv("LEARNQ_AUDIT"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	all := labels.Derive(recs, labels.Options{})
	pos, _ := (labels.Guard{}).Apply(all)
	pos = slices.DeleteFunc(pos, func(e labels.Example) bool { return e.Negative })
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	side, err := e.UsageEmbedderID(os.Getenv("LEARNQ_USAGE_ENCODER"))
	if err != nil {
		t.Fatal(err)
	}
	from := 2
	pool := poolSize
	if n, err := strconv.Atoi(os.Getenv("LEARNQ_POOL")); err == nil {
		pool = n
	}
	if n, err := strconv.Atoi(os.Getenv("LEARNQ_FROM")); err == nil {
		from = n
	}
	for seg := from; seg < 10; seg++ {
		lo, hi := len(pos)*seg/10, len(pos)*(seg+1)/10
		u := usageOf(e, side, fmt.Sprint("seg", seg), pos[:lo], nil, discover.UsageWeights{}, nil)
		if k, err := strconv.Atoi(os.Getenv("LEARNQ_K")); err == nil {
			u.Neighbours = k
		}
		if err := e.SetUsage(ctx, u); err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, ex := range pos[:lo] {
			counts[ex.Tool]++
		}
		for _, ex := range pos[lo:hi] {
			cs, err := e.Explain(ctx, ex.Text, pool)
			if pool < 0 {
				cs, err = e.ExplainPool(ctx, ex.Text)
			}
			if err != nil {
				t.Fatal(err)
			}
			c := map[string]int{}
			for _, x := range cs {
				c[x.ToolID] = counts[x.ToolID]
			}
			if err := enc.Encode(dumpRow{Seg: seg, History: lo, Gold: ex.Tool, Counts: c, GoldCount: counts[ex.Tool], Cands: cs}); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("segment %d done", seg)
	}
}
