package learn

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
)

// clusters are n unit-ish vectors per tool around its own direction, with
// noise: a history a softmax regression can learn.
func clusters(tools []string, n, dim int, seed uint64) (*discover.UsageVectors, []discover.LearnedIntent) {
	rng := rand.New(rand.NewPCG(seed, 7))
	centres := make([][]float32, len(tools))
	for k := range centres {
		centres[k] = make([]float32, dim)
		for j := range centres[k] {
			centres[k][j] = float32(rng.NormFloat64())
		}
	}
	vs := &discover.UsageVectors{Dim: dim}
	var intents []discover.LearnedIntent
	for i := range n * len(tools) {
		k := i % len(tools)
		v := make([]float32, dim)
		for j := range v {
			v[j] = centres[k][j] + 0.8*float32(rng.NormFloat64())
		}
		vs.Vectors = append(vs.Vectors, embed.Normalize(v))
		intents = append(intents, discover.LearnedIntent{Tool: tools[k], Text: "x"})
	}
	return vs, intents
}

func TestFitVectorClassifierLearnsTheTools(t *testing.T) {
	tools := []string{"a/one", "b/two", "c/three", "d/four", "e/five"}
	train, intents := clusters(tools, 40, 16, 1)
	ctx := context.Background()
	var heard [2]int
	vc, err := fitVectorClassifier(ctx, train, intents, nil, func(done, total int) { heard = [2]int{done, total} })
	if err != nil || vc == nil {
		t.Fatalf("fit: %v %v", vc, err)
	}
	if heard[0] == 0 || heard[0] != heard[1] {
		t.Errorf("progress last heard %d of %d batches, want all", heard[0], heard[1])
	}
	if vc.Dim != 16 || !reflect.DeepEqual(vc.Tools, tools) || len(vc.W) != len(tools) || len(vc.W[0]) != 17 {
		t.Fatalf("shape: dim %d tools %v rows %d", vc.Dim, vc.Tools, len(vc.W))
	}
	// new draws around the same centres (the same stream: its first 200
	// are the training draws): the regression names their tool
	test, want := clusters(tools, 60, 16, 1)
	if !reflect.DeepEqual(test.Vectors[:200], train.Vectors) {
		t.Fatal("the test draws do not continue the training draws")
	}
	right, n := 0, 0
	for i := 200; i < len(test.Vectors); i++ {
		p := discover.Softmax(vc.W, test.Vectors[i], nil)
		best := 0
		for k := range p {
			if p[k] > p[best] {
				best = k
			}
		}
		n++
		if vc.Tools[best] == want[i].Tool {
			right++
		}
	}
	if n != 100 || float64(right) < 0.9*float64(n) {
		t.Errorf("right for %d of %d new draws", right, n)
	}
	again, err := fitVectorClassifier(ctx, train, intents, nil, nil)
	if err != nil || !reflect.DeepEqual(again, vc) {
		t.Errorf("a second fit on the same history differs (err %v)", err)
	}
}

func TestFitVectorClassifierNeedsTwoToolsAndVectors(t *testing.T) {
	ctx := context.Background()
	one, intents := clusters([]string{"a/one"}, 5, 4, 2)
	for name, c := range map[string]struct {
		vs      *discover.UsageVectors
		intents []discover.LearnedIntent
	}{
		"no vectors":         {nil, intents},
		"one tool":           {one, intents},
		"vectors mismatched": {one, intents[:2]},
	} {
		if vc, err := fitVectorClassifier(ctx, c.vs, c.intents, nil, nil); vc != nil || err != nil {
			t.Errorf("%s: %v %v, want neither a classifier nor an error", name, vc, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	two, intents := clusters([]string{"a/one", "b/two"}, 5, 4, 3)
	if _, err := fitVectorClassifier(cancelled, two, intents, nil, nil); err == nil {
		t.Error("a cancelled fit returned no error")
	}
}

// A fit that starts from an earlier history's classifier takes a third of
// the batches, and still learns the tools that history lacked.
func TestFitVectorClassifierWarmStart(t *testing.T) {
	ctx := context.Background()
	tools := []string{"a/one", "b/two", "c/three", "d/four"}
	all, intents := clusters(tools, 60, 16, 5)
	// the earlier history: the first three tools only
	early := &discover.UsageVectors{Dim: all.Dim}
	var earlyIntents []discover.LearnedIntent
	for i, in := range intents {
		if in.Tool != "d/four" {
			early.Vectors, earlyIntents = append(early.Vectors, all.Vectors[i]), append(earlyIntents, in)
		}
	}
	var coldTotal, warmTotal int
	from, err := fitVectorClassifier(ctx, early, earlyIntents, nil, func(_, total int) { coldTotal = total })
	if err != nil || from == nil {
		t.Fatal(from, err)
	}
	vc, err := fitVectorClassifier(ctx, all, intents, from, func(_, total int) { warmTotal = total })
	if err != nil || vc == nil {
		t.Fatal(vc, err)
	}
	cold, err := fitVectorClassifier(ctx, all, intents, nil, func(_, total int) { coldTotal = total })
	if err != nil || cold == nil {
		t.Fatal(cold, err)
	}
	if warmTotal*vectorClassWarmShare > coldTotal+vectorClassWarmShare {
		t.Errorf("a warm start took %d batches, a cold one %d", warmTotal, coldTotal)
	}
	right := 0
	for i, v := range all.Vectors {
		p := discover.Softmax(vc.W, v, nil)
		best := 0
		for k := range p {
			if p[k] > p[best] {
				best = k
			}
		}
		if vc.Tools[best] == intents[i].Tool {
			right++
		}
	}
	if right < len(all.Vectors)*9/10 {
		t.Errorf("warm-started classifier right for %d of %d", right, len(all.Vectors))
	}
	// a classifier of another dimension is no start
	if _, err := fitVectorClassifier(ctx, all, intents, &discover.VectorClassifier{Tools: tools, Dim: 8}, func(_, total int) { warmTotal = total }); err != nil || warmTotal != coldTotal {
		t.Errorf("a start of another dimension: %d batches, want a cold fit's %d (err %v)", warmTotal, coldTotal, err)
	}
}
