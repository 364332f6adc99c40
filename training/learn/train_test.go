package learn

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/training/eval/evaltest"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

func tool(id, desc string) schemas.Manifest {
	return schemas.Manifest{ID: id, Name: id, Description: desc, Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}
}

// A registry described in its makers' words, and a history of agents asking
// for its tools in their users' words.
var (
	trainTools = []schemas.Manifest{
		tool("db/run_sql", "Run a read-only SQL query against the analytics warehouse."),
		tool("img/resize", "Scale raster images to new pixel dimensions."),
		tool("net/dns", "Resolve a hostname to its A and AAAA records."),
		tool("fin/fx", "Convert an amount between currencies at the latest exchange rate."),
		tool("doc/summarize", "Produce an abstractive summary of a long document."),
		tool("cal/book", "Create a calendar event with attendees."),
	}
	asks = map[string][]string{
		"db/run_sql":    {"how did sales do per region", "revenue by region last quarter", "which region sold the most", "sales figures per region this year", "compare regional revenue"},
		"img/resize":    {"make this photo smaller for the web", "shrink the picture to a thumbnail", "the photo is too big to upload", "make the image fit the banner", "downsize these pictures"},
		"net/dns":       {"what address does this domain point to", "where does the domain point now", "lookup the address of the domain", "is the domain pointing at the new server", "which address is the domain on"},
		"fin/fx":        {"how many euros is a hundred dollars", "dollars to yen today", "what are ten pounds in euros", "change money from euros to dollars", "how much is that in my money"},
		"doc/summarize": {"give me the gist of this report", "too long, what does it say", "the short version of this paper please", "key points of the article", "boil this memo down"},
		"cal/book":      {"set up a meeting with Ana on Friday", "put a call with the team on my agenda", "schedule a sync for next week", "invite Bob to a meeting tomorrow", "block an hour with the designers"},
	}
)

// history is the imported-audit form: one success record per ask, spread
// over sessions and time.
func history() []schemas.AuditRecord {
	t0 := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	var out []schemas.AuditRecord
	n := 0
	for round := range 6 {
		for _, id := range []string{"db/run_sql", "img/resize", "net/dns", "fin/fx", "doc/summarize", "cal/book"} {
			for i, a := range asks[id] {
				if (i+round)%2 == 1 && round > 0 {
					continue
				}
				out = append(out, schemas.AuditRecord{Timestamp: t0.Add(time.Duration(n) * time.Minute),
					SessionID: fmt.Sprintf("s%d-%d", round, i), IntentExpressed: "[TOOL: " + a + "]", ToolID: id, Result: "success"})
				n++
			}
		}
	}
	return out
}

// trainEngine is a hybrid engine over trainTools with the local vectors.
func trainEngine(t *testing.T) *discover.Engine { return hybridEngine(t, trainTools) }

// hybridEngine is a hybrid engine over tools with the local vectors.
func hybridEngine(t *testing.T, tools []schemas.Manifest) *discover.Engine {
	t.Helper()
	emb, err := embed.NewLocal()
	if err != nil {
		evaltest.Unavailable(t, "word vectors (make embeddings)", err)
	}
	e, err := discover.New(tools, discover.WithEmbedder(emb), discover.WithMode(discover.ModeHybrid))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func TestTrainLearnsUsersWords(t *testing.T) {
	e := trainEngine(t)
	recs := history()
	b, rep, err := Train(context.Background(), e, recs, Options{HoldOut: 0.2, Version: "t1"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Examples != len(recs) || rep.BySource["history"] != len(recs) {
		t.Errorf("examples %d by source %v, want all %d from history", rep.Examples, rep.BySource, len(recs))
	}
	if rep.After.HitAt1 <= rep.Before.HitAt1 || rep.After.HitAt1 < 0.8 {
		t.Errorf("hit@1 on the later slice: before %.3f, after %.3f; the history should teach the users' words", rep.Before.HitAt1, rep.After.HitAt1)
	}
	if b.Manifest.Version != "t1" || len(b.Usage.Intents) == 0 || b.Usage.Calibration == nil || b.Templates == nil {
		t.Fatalf("bundle %+v", b.Manifest)
	}
	// The vector classifier knows every tool with history, on the word
	// vectors' dimension.
	if vc := b.Usage.VectorClassifier; vc == nil || len(vc.Tools) != len(asks) || vc.Dim == 0 {
		t.Errorf("vector classifier %+v, want one over the %d tools with history", vc, len(asks))
	}
	// The history holds only requests that needed a tool: the need model
	// is kept, not refitted. Every fitting row of this small history is
	// answered right, so the calibration leans on the engine's, its need
	// model a factor as the engine has it (with wrong answers too, a
	// fitted term: TestLearnedCalibrationForm).
	if rep.Fit.Wrong != 0 || rep.Fit.Leaning() == "" {
		t.Errorf("fitting rows %+v, want every one right", rep.Fit)
	}
	if c := b.Usage.Calibration; c.Need == nil || c.NeedTerm != nil {
		t.Errorf("learned calibration %+v: want the engine's need model as a factor", c)
	}
	if e.UsageVersion() != "" {
		t.Errorf("Train left a usage model in force on the engine: %q", e.UsageVersion())
	}
	// The version answers a new phrasing the registry's text alone misses.
	if err := b.Apply(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	cs, err := e.Search(context.Background(), "regional sales numbers", 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 || cs[0].ToolID != "db/run_sql" {
		t.Errorf("with the model: %+v", cs)
	}
}

// Training with nothing to learn from says why: no labels at all, or
// labels the poisoning guard set aside (one session's first trial).
func TestTrainWithoutLabelsSaysSo(t *testing.T) {
	e, err := discover.New(trainTools, discover.WithMode(discover.ModeKeyword))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	now := time.Now()
	oneSession := func(n int) []schemas.AuditRecord {
		var out []schemas.AuditRecord
		for i := range n {
			out = append(out, schemas.AuditRecord{Timestamp: now.Add(time.Duration(i) * time.Minute), SessionID: "demo",
				IntentExpressed: "[TOOL: revenue by region]", ToolID: "db/run_sql", Result: "success"})
		}
		return out
	}
	for _, c := range []struct {
		name string
		recs []schemas.AuditRecord
		want string
	}{
		{"no success", []schemas.AuditRecord{{Timestamp: now, SessionID: "s", IntentExpressed: "x", ToolID: "db/run_sql", Result: "error"}},
			"no labelled examples"},
		{"one session", oneSession(2), "the poisoning guard kept none of the 2 labelled examples: 2 came from too few distinct sessions (a tool's examples count once 2 sessions gave them: --min-sessions), 0 were over"},
		{"one session over its cap", oneSession(5), "none of the 5 labelled examples: 3 came from too few distinct sessions (a tool's examples count once 2 sessions gave them: --min-sessions), 2 were over one session's cap for a tool (--max-per-session 3)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Train(context.Background(), e, c.recs, Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// toyGuard is the default guard for this file's small histories, whose
// test slices hold about twenty examples.
var toyGuard = GuardConfig{HitTolerance: DefaultGuard.HitTolerance, ECETolerance: DefaultGuard.ECETolerance, MinExamples: 20}

// The eval guard refuses a deliberately worse version: one trained on the
// same history with every label moved to another tool.
func TestGuardRefusesAWorseModel(t *testing.T) {
	e := trainEngine(t)
	ctx := context.Background()
	good, rep, err := Train(ctx, e, history(), Options{HoldOut: 0.2, Version: "good"})
	if err != nil {
		t.Fatal(err)
	}
	order := []string{"db/run_sql", "img/resize", "net/dns", "fin/fx", "doc/summarize", "cal/book"}
	wrong := history()
	for i, r := range wrong {
		for j, id := range order {
			if r.ToolID == id {
				wrong[i].ToolID = order[(j+1)%len(order)]
				break
			}
		}
	}
	bad, _, err := Train(ctx, e, wrong, Options{HoldOut: 0.2, Version: "bad"})
	if err != nil {
		t.Fatal(err)
	}
	score := func(b interface {
		Apply(context.Context, *discover.Engine) error
	}) Metrics {
		t.Helper()
		if err := b.Apply(ctx, e); err != nil {
			t.Fatal(err)
		}
		m, err := Evaluate(ctx, e, rep.Test, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	g, w := score(good), score(bad)
	if ok, why := Judge(w, g, toyGuard); ok {
		t.Errorf("the guard promoted the worse version (hit@1 %.3f vs %.3f): %v", w.HitAt1, g.HitAt1, why)
	}
	if ok, why := Judge(g, g, toyGuard); !ok {
		t.Errorf("the guard refused a version as good as the current one: %v", why)
	}
	if g.HitAt1 < w.HitAt1+0.3 {
		t.Errorf("the relabelled version should be far worse: hit@1 %.3f vs %.3f", w.HitAt1, g.HitAt1)
	}
}

func TestJudgeTolerances(t *testing.T) {
	cur := Metrics{N: 100, HitAt1: 0.80, ECE: 0.03}
	for _, tt := range []struct {
		name string
		cand Metrics
		want bool
	}{
		{"better", Metrics{N: 100, HitAt1: 0.85, ECE: 0.02}, true},
		{"within tolerance", Metrics{N: 100, HitAt1: 0.795, ECE: 0.045}, true},
		{"hit@1 worse", Metrics{N: 100, HitAt1: 0.78, ECE: 0.02}, false},
		{"ECE worse", Metrics{N: 100, HitAt1: 0.90, ECE: 0.06}, false},
		{"nothing to judge on", Metrics{}, false},
		{"too little to judge on", Metrics{N: 29, HitAt1: 0.85, ECE: 0.02}, false},
		{"just enough to judge on", Metrics{N: 30, HitAt1: 0.85, ECE: 0.02}, true},
	} {
		if ok, why := Judge(tt.cand, cur, DefaultGuard); ok != tt.want {
			t.Errorf("%s: promote %v, want %v (%v)", tt.name, ok, tt.want, why)
		}
	}
}

// A version records what embedded its learned intents: the engine's word
// vectors by default, the sentence encoder on the usage side alone when
// asked, and an unknown encoder name is refused before any work.
func TestTrainRecordsTheUsageEncoder(t *testing.T) {
	e := trainEngine(t)
	ctx := context.Background()
	words, err := e.UsageEmbedderID("words")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Train(ctx, e, history(), Options{HoldOut: 0.2, Version: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Usage.Encoder != words {
		t.Errorf("default training recorded %q, want the word vectors %q", b.Usage.Encoder, words)
	}
	if b.Usage.Vectors != nil {
		t.Error("a word-vector model carries its vectors (they embed in microseconds)")
	}
	if _, _, err := Train(ctx, e, history(), Options{UsageEncoder: "no-such-encoder"}); err == nil {
		t.Error("trained with an unknown usage encoder")
	}
	enc, err := embed.NewUSELite()
	if err != nil {
		evaltest.Unavailable(t, "sentence encoder (make embeddings)", err)
	}
	b, _, err = Train(ctx, e, history(), Options{HoldOut: 0.2, Version: "u", UsageEncoder: "use-lite"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Usage.Encoder != enc.ID() {
		t.Errorf("training with the usage encoder recorded %q, want %q", b.Usage.Encoder, enc.ID())
	}
	if v := b.Usage.Vectors; v == nil || v.Encoder != enc.ID() || len(v.Vectors) != len(b.Usage.Intents) {
		t.Errorf("the usage encoder's model carries vectors %+v for %d intents", v, len(b.Usage.Intents))
	}
	// Reproducible: the same history gives the same model.
	again, _, err := Train(ctx, e, history(), Options{HoldOut: 0.2, Version: "u", UsageEncoder: "use-lite"})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := json.Marshal(b.Usage)
	second, _ := json.Marshal(again.Usage)
	if string(first) != string(second) {
		t.Error("two trainings with the usage encoder on the same history gave different usage models")
	}
	if err := b.Apply(ctx, e); err != nil {
		t.Fatalf("the engine it was trained on refuses it: %v", err)
	}
	cs, err := e.Search(ctx, "regional sales numbers", 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 || cs[0].ToolID != "db/run_sql" {
		t.Errorf("with the usage-encoder model: %+v", cs)
	}
}

// Retraining on the same or an overlapping history is the common case; the
// version in force learned the test slice, so scoring it there compares the
// candidate's held-out figures with the current one's recall of its own
// training, and refuses every retraining. ScoreCurrent scores it on what it
// did not learn from.
func TestGuardScoresTheCurrentVersionOnWhatItDidNotLearn(t *testing.T) {
	e := trainEngine(t)
	ctx := context.Background()
	// The latest records ask in words no earlier record used: held out,
	// some are missed; learned, none is.
	recs := history()
	novel := map[string][]string{
		"db/run_sql":    {"tally the turnover by territory", "which territory brought in most"},
		"img/resize":    {"the jpeg is huge, trim its dimensions", "need a tiny avatar version"},
		"net/dns":       {"what ip sits behind that hostname", "nameserver answer for our site"},
		"fin/fx":        {"quid to yen conversion", "what is the greenback worth in francs"},
		"doc/summarize": {"tl;dr of the whitepaper", "condense these meeting minutes"},
		"cal/book":      {"pencil in lunch with Joe on Monday", "reserve a slot with the auditors"},
	}
	last := recs[len(recs)-1].Timestamp
	for i, id := range []string{"db/run_sql", "img/resize", "net/dns", "fin/fx", "doc/summarize", "cal/book"} {
		for j, a := range novel[id] {
			recs = append(recs, schemas.AuditRecord{Timestamp: last.Add(time.Duration(1+2*i+j) * time.Minute),
				SessionID: fmt.Sprintf("late-%d-%d", i, j), IntentExpressed: "[TOOL: " + a + "]", ToolID: id, Result: "success"})
		}
	}
	first, _, err := Train(ctx, e, recs[:len(recs)*7/10], Options{HoldOut: 0.2, Version: "first"})
	if err != nil {
		t.Fatal(err)
	}
	whole, _, err := Train(ctx, e, recs, Options{HoldOut: 0.2, Version: "whole"})
	if err != nil {
		t.Fatal(err)
	}
	_, rep, err := Train(ctx, e, recs, Options{HoldOut: 0.2, Version: "again"})
	if err != nil {
		t.Fatal(err)
	}
	// The fixture shows the leak: the version trained on everything,
	// scored on the test slice it learned, beats any held-out figure.
	if err := whole.Apply(ctx, e); err != nil {
		t.Fatal(err)
	}
	leaked, err := Evaluate(ctx, e, rep.Test, nil)
	if err != nil {
		t.Fatal(err)
	}
	if leaked.HitAt1 <= rep.After.HitAt1+DefaultGuard.HitTolerance {
		t.Fatalf("fixture: the leaked score %.3f should beat the held-out %.3f", leaked.HitAt1, rep.After.HitAt1)
	}

	for _, tc := range []struct {
		name    string
		current *bundle.Bundle
		wantN   float64
	}{
		// Trained on every test example: its own held-out figures.
		{"same history", whole, whole.Manifest.Metrics["after_n"]},
		// Trained on the first 70 %: scored on the test examples after it.
		{"older history", first, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cur, what, err := ScoreCurrent(ctx, e, tc.current, rep.Test)
			if err != nil {
				t.Fatal(err)
			}
			until := tc.current.Manifest.Trained.Until
			later := 0
			for _, ex := range rep.Test {
				if ex.Time.After(until) {
					later++
				}
			}
			want := later
			if later == 0 {
				want = int(tc.wantN)
			}
			if cur.N != want || cur.N == 0 {
				t.Errorf("scored on %d examples, want %d (%s)", cur.N, want, what)
			}
			if ok, why := Judge(rep.After, cur, toyGuard); !ok {
				t.Errorf("a retraining as good as the version in force was refused: %v (%s)", why, what)
			}
		})
	}
}
