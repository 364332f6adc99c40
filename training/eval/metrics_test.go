package eval

import (
	"math"
	"testing"
)

func set(ids ...string) map[string]bool {
	m := map[string]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRankingMetrics(t *testing.T) {
	ranked := []string{"a", "b", "c", "d"}
	tests := []struct {
		gold                     map[string]bool
		hit, r1, r3, mrr, ndcg10 float64
	}{
		{set("a"), 1, 1, 1, 1, 1},
		{set("c"), 0, 0, 1, 1.0 / 3, 1 / math.Log2(4)},
		{set("b", "d"), 0, 0, 0.5, 0.5, (1/math.Log2(3) + 1/math.Log2(5)) / (1 + 1/math.Log2(3))},
		{set("z"), 0, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		if got := hitAt1(ranked, tt.gold); !near(got, tt.hit) {
			t.Errorf("hit@1 %v = %v", tt.gold, got)
		}
		if got := recallAt(ranked, tt.gold, 1); !near(got, tt.r1) {
			t.Errorf("recall@1 %v = %v", tt.gold, got)
		}
		if got := recallAt(ranked, tt.gold, 3); !near(got, tt.r3) {
			t.Errorf("recall@3 %v = %v", tt.gold, got)
		}
		if got := mrrAt(ranked, tt.gold, 10); !near(got, tt.mrr) {
			t.Errorf("mrr %v = %v", tt.gold, got)
		}
		if got := ndcgAt(ranked, tt.gold, 10); !near(got, tt.ndcg10) {
			t.Errorf("ndcg %v = %v, want %v", tt.gold, got, tt.ndcg10)
		}
	}
}

func TestAUROC(t *testing.T) {
	tests := []struct {
		scores []float64
		pos    []bool
		want   float64
	}{
		{[]float64{0.9, 0.8, 0.2, 0.1}, []bool{true, true, false, false}, 1},
		{[]float64{0.1, 0.2, 0.8, 0.9}, []bool{true, true, false, false}, 0},
		{[]float64{0.5, 0.5, 0.5, 0.5}, []bool{true, false, true, false}, 0.5},
		{[]float64{0.9, 0.3, 0.5, 0.1}, []bool{true, true, false, false}, 0.75},
	}
	for _, tt := range tests {
		if got := AUROC(tt.scores, tt.pos); !near(got, tt.want) {
			t.Errorf("AUROC(%v, %v) = %v, want %v", tt.scores, tt.pos, got, tt.want)
		}
	}
	if !math.IsNaN(AUROC([]float64{1}, []bool{true})) {
		t.Error("AUROC with one class should be undefined")
	}
}

func TestECE(t *testing.T) {
	// Perfectly calibrated: 0.75 confidence, 3 of 4 right.
	if got := ECE([]float64{0.75, 0.75, 0.75, 0.75}, []bool{true, true, true, false}, 10); !near(got, 0) {
		t.Errorf("calibrated ECE = %v", got)
	}
	// Over-confident: 1.0 confidence, half right.
	if got := ECE([]float64{1, 1}, []bool{true, false}, 10); !near(got, 0.5) {
		t.Errorf("over-confident ECE = %v", got)
	}
}
