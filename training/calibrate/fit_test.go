package calibrate

import (
	"math"
	"strings"
	"testing"
)

func TestParseCollection(t *testing.T) {
	tests := []struct {
		in      string
		want    Collection
		wantErr bool
	}{
		{in: "mine=t.jsonl:q.jsonl", want: Collection{Name: "mine", Tools: "t.jsonl", Queries: "q.jsonl"}},
		{in: "t.jsonl:q.jsonl", wantErr: true},
		{in: "mine=t.jsonl", wantErr: true},
		{in: "=t.jsonl:q.jsonl", wantErr: true},
		{in: "mine=:q.jsonl", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseCollection(tt.in)
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("ParseCollection(%q) = %+v, %v", tt.in, got, err)
		}
	}
}

func TestBalanceWeighsCollectionsAlike(t *testing.T) {
	rows := []Row{{Set: "big"}, {Set: "big"}, {Set: "big"}, {Set: "small"}}
	all := func(Row) bool { return true }
	tests := []struct {
		pooling          float64
		bigSum, smallSum float64
	}{
		{0, 2, 2}, // each collection the same
		{1, 3, 1}, // each row the same
		{0.5, 4 * math.Sqrt(3) / (math.Sqrt(3) + 1), 4 / (math.Sqrt(3) + 1)},
	}
	for _, tt := range tests {
		w := balance(rows, tt.pooling, all)
		big, small := w[0]+w[1]+w[2], w[3]
		if math.Abs(big-tt.bigSum) > 1e-9 || math.Abs(small-tt.smallSum) > 1e-9 {
			t.Errorf("pooling %v: big %v small %v, want %v %v", tt.pooling, big, small, tt.bigSum, tt.smallSum)
		}
	}
}

// rowsOf builds rows whose single signal "margin" separates right from
// wrong in each collection, with different base rates.
func rowsOf(name string, right, wrong, noTool int) []Row {
	var rs []Row
	for range right {
		rs = append(rs, Row{Set: name, Need: true, Right: true, X: map[string]float64{"margin": 2, "known": 1}})
	}
	for range wrong {
		rs = append(rs, Row{Set: name, Need: true, X: map[string]float64{"margin": 0.2, "known": 1}})
	}
	for range noTool {
		rs = append(rs, Row{Set: name, X: map[string]float64{"margin": 0.2, "known": 0}})
	}
	return rs
}

func TestFitAndLeaveOneOut(t *testing.T) {
	var rows []Row
	rows = append(rows, rowsOf("a", 40, 10, 10)...)
	rows = append(rows, rowsOf("b", 300, 100, 0)...)
	rows = append(rows, rowsOf("c", 20, 5, 5)...)
	s := Spec{Right: []string{"margin"}, Need: []string{"known"}, L2: 1e-3}
	c, err := Fit(rows, s)
	if err != nil {
		t.Fatal(err)
	}
	if c.Weights[0] <= 0 || c.Need == nil || c.Need.Weights[0] <= 0 {
		t.Fatalf("fitted %+v need %+v: want positive weights on separating signals", c, c.Need)
	}
	folds, err := LeaveOneOut(rows, s, 0.85)
	if err != nil {
		t.Fatal(err)
	}
	if len(folds) != 3 {
		t.Fatalf("%d folds, want 3", len(folds))
	}
	rightShare := map[string]float64{"a": 0.8, "b": 0.75, "c": 0.8}
	for _, f := range folds {
		if f.Metrics.Precision != 1 || f.Metrics.NoToolActivated != 0 || f.Metrics.Activated != rightShare[f.LeftOut] {
			t.Errorf("%s left out: %+v; want every right one activated and nothing else", f.LeftOut, f.Metrics)
		}
	}
	if _, err := LeaveOneOut(rowsOf("only", 5, 5, 0), s, 0.85); err == nil || !strings.Contains(err.Error(), "two collections") {
		t.Errorf("one collection: err %v", err)
	}
	if _, err := Fit(rowsOf("x", 0, 0, 3), s); err == nil {
		t.Error("no row needing a tool: want an error")
	}
}

func TestCoverageAt(t *testing.T) {
	rows := []Row{
		{Need: true, Right: true}, {Need: true, Right: true}, {Need: true, Right: false},
		{Need: true, Right: true}, {Need: false},
	}
	conf := []float64{0.99, 0.95, 0.9, 0.8, 0.7}
	// Top 2: 2/2 right, coverage 2/4; top 3: 2/3; top 4: 3/4; all: 3/5.
	if cov, at := coverageAt(conf, rows, 0.95); cov != 0.5 || at != 0.95 {
		t.Errorf("coverage at 0.95: %v at %v, want 0.5 at 0.95", cov, at)
	}
	if cov, _ := coverageAt(conf, rows, 0.75); cov != 1 {
		t.Errorf("coverage at 0.75: %v, want 1 (every request with a tool, 3/4 right)", cov)
	}
}
