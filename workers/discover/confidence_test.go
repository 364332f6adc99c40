package discover

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestConfidenceBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), -3, 0, 1, 7}
	pick := func() float64 {
		if r.IntN(4) == 0 {
			return odd[r.IntN(len(odd))]
		}
		return r.Float64() * 2
	}
	for range 2000 {
		evs := make([]evidence, 1+r.IntN(12))
		for i := range evs {
			evs[i] = evidence{score: pick(), coverage: pick(), mention: pick()}
		}
		var sumText float64
		for i, c := range confidences(evs) {
			if !(c >= 0 && c <= 1) {
				t.Fatalf("confidence %v for %+v", c, evs[i])
			}
			if evs[i].mention == 0 || math.IsNaN(evs[i].mention) || evs[i].mention < 0 {
				sumText += c
			}
		}
		// Without mentions, the confidences are shares of one probability.
		if sumText > 1+1e-9 {
			t.Fatalf("confidences without mentions sum to %v: %+v", sumText, evs)
		}
	}
}

func TestConfidenceMonotonic(t *testing.T) {
	base := []evidence{
		{score: 2, coverage: 0.5},
		{score: 1.5, coverage: 0.4},
		{score: 0.5, coverage: 0.2},
	}
	raise := map[string]func(*evidence, float64){
		"coverage": func(e *evidence, x float64) { e.coverage = x },
		"score":    func(e *evidence, x float64) { e.score = 4 * x },
		"mention":  func(e *evidence, x float64) { e.mention = x },
	}
	for name, set := range raise {
		for cand := range base {
			prev := -1.0
			for x := 0.0; x <= 1.0001; x += 0.05 {
				evs := append([]evidence(nil), base...)
				set(&evs[cand], x)
				c := confidences(evs)[cand]
				if c < prev-1e-12 {
					t.Errorf("candidate %d: confidence fell from %v to %v as its %s rose to %.2f", cand, prev, c, name, x)
				}
				prev = c
			}
		}
	}
	// A competitor closing in lowers the leader's confidence.
	prev := 2.0
	for x := 0.0; x <= 2.0001; x += 0.1 {
		c := confidences([]evidence{{score: 2, coverage: 0.6}, {score: x, coverage: 0.6 * x / 2}})[0]
		if c > prev+1e-12 {
			t.Errorf("leader's confidence rose from %v to %v as the runner-up's score rose to %.1f", prev, c, x)
		}
		prev = c
	}
}

func TestConfidenceTiers(t *testing.T) {
	tests := []struct {
		name     string
		evs      []evidence
		min, max float64
	}{
		{"full coverage, alone", []evidence{{score: 3, coverage: 1}}, 0.85, 1},
		{"full coverage, clear lead", []evidence{{score: 3, coverage: 1}, {score: 1, coverage: 0.3}}, 0.85, 1},
		{"two tools tied", []evidence{{score: 3, coverage: 1}, {score: 3, coverage: 1}}, 0, 0.5},
		{"half covered, alone", []evidence{{score: 3, coverage: 0.5}}, 0.85, 0.95},
		{"a third covered", []evidence{{score: 3, coverage: 0.3}}, 0.5, 0.85},
		{"one word of a long request", []evidence{{score: 3, coverage: 0.05}}, 0, 0.3},
		{"named outright, little else", []evidence{{score: 1, coverage: 0.1, mention: 1}, {score: 2, coverage: 0.4}}, 0.85, 1},
	}
	for _, tt := range tests {
		if c := confidences(tt.evs)[0]; c < tt.min || c > tt.max {
			t.Errorf("%s: confidence %.3f, want in [%.2f, %.2f]", tt.name, c, tt.min, tt.max)
		}
	}
}

func TestRankedByConfidence(t *testing.T) {
	e := newFixture(t)
	for _, q := range syntheticQueries(50) {
		cs, err := e.Search(context.Background(), q, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(cs); i++ {
			if cs[i].Confidence > cs[i-1].Confidence {
				t.Errorf("%q: confidence rises down the list: %v then %v", q, cs[i-1].Confidence, cs[i].Confidence)
			}
		}
	}
}

func TestNameMention(t *testing.T) {
	tools := append(fixtureTools(), schemas.Manifest{ID: "storage/quota_report", Name: "quota_report",
		Description: "Disk quota usage per user, with usage trends and disk limits."})
	e, err := New(tools)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	top := func(q string) schemas.Candidate {
		t.Helper()
		cs, err := e.Search(ctx, q, 3, nil)
		if err != nil || len(cs) == 0 {
			t.Fatalf("%q: %v, %v", q, ids(cs), err)
		}
		return cs[0]
	}
	// Naming the tool, in any spelling, activates it although another tool
	// matches the same words as well or better.
	for _, q := range []string{"disk usage", "disk_usage for /var/log", "run system/disk_usage", "Disk-Usage please", "show me the disk usage"} {
		if c := top(q); c.ToolID != "system/disk_usage" || c.Confidence < 0.85 {
			t.Errorf("%q: top %s at %.2f, want system/disk_usage >= 0.85", q, c.ToolID, c.Confidence)
		}
	}
	// The same words not naming it leave the choice open.
	if c := top("usage of the disk"); c.Confidence >= 0.85 {
		t.Errorf("usage of the disk: %s at %.2f, want below 0.85 (no mention, two tools match)", c.ToolID, c.Confidence)
	}
	// A one-word name is an ordinary word, not a mention.
	if m := e.mentions(e.parse("run the list").words, func(*entry) bool { return true }); len(m) != 0 {
		t.Errorf("single words taken as mentions: %v", m)
	}
}

func TestSpecificity(t *testing.T) {
	e := newFixture(t)
	unique := e.specificity("google maps scraper") // words found in one tool only
	common := e.specificity("list")                // a word two tools share
	if unique < 0.99 || common >= unique || common <= 0 {
		t.Errorf("specificity: unique words %.3f, shared word %.3f", unique, common)
	}
	if s := e.specificity("zzz unknown"); s != 0 {
		t.Errorf("specificity of words no tool has = %v, want 0", s)
	}
}

// Argument values say nothing about which tool is wanted: a long path, a
// quoted phrase or a key=value value must not dilute a clear request.
func TestArgumentValuesDoNotDiluteConfidence(t *testing.T) {
	e := newFixture(t)
	ctx := context.Background()
	tests := []struct{ plain, withValues string }{
		{"create an issue", "create an issue title=FixTheCrashingWorkerPool body=everything-is-broken-again"},
		{"translate text into another language", "translate text into another language text=/srv/TestFixtures12345/quarterlyReportDraft/notes.txt"},
		{"translate text into another language", `translate text into another language text="Bonjour tout le monde, comment allez-vous"`},
	}
	for _, tt := range tests {
		plain, err := e.Search(ctx, tt.plain, 1, nil)
		if err != nil || len(plain) == 0 {
			t.Fatal(err)
		}
		cs, err := e.Search(ctx, tt.withValues, 1, nil)
		if err != nil || len(cs) == 0 {
			t.Fatalf("%q: %v", tt.withValues, err)
		}
		if cs[0].ToolID != plain[0].ToolID || cs[0].Confidence < plain[0].Confidence-0.05 {
			t.Errorf("%q: %s at %.2f; without values %s at %.2f", tt.withValues, cs[0].ToolID, cs[0].Confidence, plain[0].ToolID, plain[0].Confidence)
		}
	}
}
