package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/route"
)

// pipelineRecords is one intent as the stages audit it: parse, discover,
// route, and (when it ran) execute.
func pipelineRecords(session, id string, at time.Time, text, tier, tool string, conf float64, ran bool) []schemas.AuditRecord {
	rec := func(stage, decision, result string) schemas.AuditRecord {
		return schemas.AuditRecord{Timestamp: at, SessionID: session, IntentID: id, IntentExpressed: text, Stage: stage, Decision: decision, Result: result}
	}
	d := rec("discover", "candidates", "discovered")
	d.ToolID, d.Confidence, d.Candidates, d.DurationMS = tool, conf, []string{tool}, 1.5
	r := rec("route", tier, tier)
	if tier != schemas.TierNotFound {
		r.ToolID, r.Candidates = tool, []string{tool}
	}
	r.Confidence = conf
	out := []schemas.AuditRecord{rec("parse", "intent", "parsed"), d, r}
	if ran {
		e := rec("execute", "", "success")
		e.ToolID = tool
		out = append(out, e)
	}
	return out
}

func TestExtractAndLabels(t *testing.T) {
	var recs []schemas.AuditRecord
	recs = append(recs, history("h", t0, "weather in Paris", "weather"))
	recs = append(recs, pipelineRecords("s", "m1.0", t0.Add(time.Minute), "convert 10 euros to dollars", schemas.TierActivated, "currency", 0.93, true)...)
	// Routed multiple_matches; the agent then activated translate: a correction.
	recs = append(recs, pipelineRecords("s", "m2.0", t0.Add(2*time.Minute), "say hello in Spanish", schemas.TierMultiple, "stocks", 0.6, false)...)
	recs = append(recs,
		schemas.AuditRecord{Timestamp: t0.Add(3 * time.Minute), SessionID: "s", IntentID: "m3.0", IntentExpressed: "activate translate", Stage: "parse", Result: "parsed"},
		schemas.AuditRecord{Timestamp: t0.Add(3 * time.Minute), SessionID: "s", IntentID: "m3.0", Stage: "execute", ToolID: "toolyard/activate", Parameters: map[string]any{"id": "translate"}, Result: "success"},
		// A direct call: nothing for discovery to replay.
		schemas.AuditRecord{Timestamp: t0.Add(4 * time.Minute), SessionID: "s", IntentID: "m4.0", Stage: "parse", Decision: "direct_call", ToolID: "stocks", Result: "parsed"},
	)
	intents, skipped := Extract(recs)
	if len(intents) != 3 {
		t.Fatalf("intents %d, want 3 (history, m1, m2): %+v", len(intents), intents)
	}
	if skipped["direct call (no discovery)"] != 1 || skipped["no discovery recorded"] != 1 {
		t.Fatalf("skipped %v", skipped)
	}
	h, m1, m2 := intents[0], intents[1], intents[2]
	if h.Text != "weather in Paris" || h.Recorded.Tier != schemas.TierActivated || h.Recorded.Tool != "weather" || h.Recorded.Confidence != nil {
		t.Fatalf("history intent %+v", h)
	}
	if m1.Recorded.Tier != schemas.TierActivated || !m1.Recorded.Ran || *m1.Recorded.Confidence != 0.93 || *m1.Recorded.LatencyMS != 1.5 {
		t.Fatalf("m1 %+v", m1.Recorded)
	}
	if m2.Recorded.Tier != schemas.TierMultiple || m2.Recorded.Ran || m2.Recorded.Tool != "stocks" {
		t.Fatalf("m2 %+v", m2.Recorded)
	}
	lbl := Labels(recs, labels.Options{})
	for _, c := range []struct {
		in   Intent
		want string
	}{{h, "weather"}, {m1, "currency"}, {m2, "translate"}} {
		if got := lbl[c.in.Key].Tool; got != c.want {
			t.Errorf("label of %q = %q, want %q", c.in.Text, got, c.want)
		}
	}
}

func TestLabelScore(t *testing.T) {
	ran := func(tool string) Outcome { return Outcome{Tier: schemas.TierActivated, Tool: tool, Ran: true} }
	for _, c := range []struct {
		l    Label
		o    Outcome
		want int
	}{
		{Label{Tool: "a"}, ran("a"), 1},
		{Label{Tool: "a"}, ran("b"), -1},
		{Label{Tool: "a"}, Outcome{Tier: schemas.TierMultiple, Tool: "a"}, 0},
		{Label{Negatives: []string{"b"}}, ran("b"), -1},
		{Label{Negatives: []string{"b"}}, ran("c"), 0},
		{Label{}, ran("c"), 0},
	} {
		if got := c.l.Score(c.o); got != c.want {
			t.Errorf("%+v scores %+v %d, want %d", c.l, c.o, got, c.want)
		}
	}
}

func TestSummarizeCountsChangesGainsAndMetrics(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	in := func(key, text string) Intent { return Intent{Key: key, Session: "s", Text: text} }
	act := func(tool string, c float64) Outcome {
		return Outcome{Tier: schemas.TierActivated, Tool: tool, Top: tool, Ran: true, Confidence: f(c), LatencyMS: f(1)}
	}
	ask := func(tier, tool string, c float64) Outcome {
		return Outcome{Tier: tier, Tool: tool, Top: tool, Confidence: f(c), LatencyMS: f(2)}
	}
	rows := []Row{
		{in("1", "a"), act("weather", 0.9), act("weather", 0.95)},                     // unchanged, right
		{in("2", "b"), act("stocks", 0.9), ask(schemas.TierMultiple, "stocks", 0.7)},  // tier changed; wrong run avoided: gained
		{in("3", "c"), ask(schemas.TierWeak, "currency", 0.4), act("currency", 0.88)}, // tier changed; right run: gained
		{in("4", "d"), act("translate", 0.9), act("weather", 0.9)},                    // tool changed; lost
		{in("5", "e"), ask(schemas.TierNotFound, "", 0.1), ask(schemas.TierNotFound, "", 0.2)},
	}
	lbl := map[string]Label{"1": {Tool: "weather"}, "2": {Tool: "currency"}, "3": {Tool: "currency"}, "4": {Tool: "translate"}}
	s := Summarize(rows, lbl, nil, SideInfo{Source: "b"}, SideInfo{Source: "c"})
	if s.Intents != 5 || s.ChangedTier != 2 || s.ChangedTool != 1 || s.Gained != 2 || s.Lost != 1 || s.Labelled != 4 {
		t.Fatalf("summary %+v", s)
	}
	if len(s.Changes) != 3 {
		t.Fatalf("changes %d, want 3", len(s.Changes))
	}
	if s.Transitions[schemas.TierActivated][schemas.TierMultiple] != 1 || s.Transitions[schemas.TierWeak][schemas.TierActivated] != 1 || s.Transitions[schemas.TierActivated][schemas.TierActivated] != 2 {
		t.Fatalf("transitions %v", s.Transitions)
	}
	if len(s.ToolChanges) != 1 || s.ToolChanges[0].From != "translate" || s.ToolChanges[0].To != "weather" || s.ToolChanges[0].Examples[0] != "d" {
		t.Fatalf("tool changes %+v", s.ToolChanges)
	}
	perTool := map[string]ToolEffect{}
	for _, e := range s.PerTool {
		perTool[e.Tool] = e
	}
	if perTool["currency"].Gained != 2 || perTool["translate"].Lost != 1 {
		t.Fatalf("per tool %+v", s.PerTool)
	}
	b, c := s.Baseline.Metrics, s.Candidate.Metrics
	// Baseline: top right on 1 and 3 of 4 labelled; activated 1, 2, 4 of which 1 and 4 right.
	if *b.Accuracy != 0.75 || *b.ActivatedPrecision != 0.6667 || *b.ActivatedCoverage != 0.75 {
		t.Fatalf("baseline metrics %+v", b)
	}
	// Candidate: top right on 1 and 3; activated 1, 3, 4 of which 1 and 3 right.
	if *c.Accuracy != 0.5 || *c.ActivatedPrecision != 0.6667 || c.Ran != 3 {
		t.Fatalf("candidate metrics %+v", c)
	}
	if b.NotFoundPrecision != nil {
		t.Fatalf("no labelled not_found intent, yet a precision: %v", *b.NotFoundPrecision)
	}
	if c.ECE == nil || *c.LatencyP50MS != 1 {
		t.Fatalf("candidate ECE/latency %+v", c)
	}
}

func TestSweepAndReliability(t *testing.T) {
	type pt struct {
		conf    float64
		correct bool
	}
	stats := func(pts ...pt) sideStats {
		s := newSideStats()
		for _, p := range pts {
			s.point(p.conf, p.correct)
		}
		return s
	}
	s := stats(pt{0.95, true}, pt{0.9, true}, pt{0.8, false}, pt{0.6, true}, pt{0.2, false})
	act := s.sweepActivated()
	if act[0].Threshold != 0.5 || act[0].N != 4 || act[0].Precision != 0.75 || act[0].Coverage != 0.8 {
		t.Fatalf("at 0.5: %+v", act[0])
	}
	at := func(ps []SweepPoint, th float64) SweepPoint {
		for _, p := range ps {
			if p.Threshold == th {
				return p
			}
		}
		t.Fatalf("no point at %v", th)
		return SweepPoint{}
	}
	if p := at(act, 0.85); p.N != 2 || p.Precision != 1 {
		t.Fatalf("at 0.85: %+v", p)
	}
	// A confidence equal to a threshold reaches it, as in routing.
	if p := at(act, 0.9); p.N != 2 {
		t.Fatalf("at 0.9: %+v", p)
	}
	if p := at(act, 0.99); p.N != 0 || !math.IsNaN(p.Precision) {
		t.Fatalf("at 0.99: %+v", p)
	}
	nf := s.sweepNotFound()
	if p := at(nf, 0.3); p.N != 1 || p.Precision != 1 || p.Coverage != 0.5 {
		t.Fatalf("not_found at 0.3: %+v", p)
	}
	if p := at(nf, 0.6); p.N != 1 {
		t.Fatalf("not_found at 0.6 (0.6 is not below it): %+v", p)
	}
	bins := s.reliability()
	if bins[9].N != 2 || bins[9].Accuracy != 1 || bins[8].Accuracy != 0 {
		t.Fatalf("bins %+v", bins)
	}
	// Perfectly calibrated bins give no error.
	perfect := stats(pt{1, true}, pt{0, false})
	perfect.m.Labelled = 2
	if e := perfect.metrics().ECE; e == nil || *e != 0 {
		t.Fatalf("ECE %v", e)
	}
}

// Rows in any order, and split over several accumulators' worth of input,
// give the same summary: what the accumulator keeps does not depend on the
// order, and the changes listed are the earliest.
func TestAccumulatorIgnoresRowOrder(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	var rows []Row
	lbl := map[string]Label{}
	for i := range 40 {
		key := fmt.Sprintf("k%02d", i)
		in := Intent{Key: key, Session: "s", Text: "intent " + key, Time: t0.Add(time.Duration(i) * time.Second)}
		b := Outcome{Tier: schemas.TierActivated, Tool: "a", Top: "a", Ran: true, Confidence: f(0.9), LatencyMS: f(float64(i))}
		c := b
		if i%3 == 0 {
			c = Outcome{Tier: schemas.TierMultiple, Tool: "b", Top: "b", Confidence: f(0.6), LatencyMS: f(1)}
		}
		rows = append(rows, Row{Intent: in, Baseline: b, Candidate: c})
		lbl[key] = Label{Tool: "a"}
	}
	want := Summarize(rows, lbl, nil, SideInfo{}, SideInfo{})
	shuffled := slices.Clone(rows)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	got := Summarize(shuffled, lbl, nil, SideInfo{}, SideInfo{})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order changed the summary:\n got %+v\nwant %+v", got, want)
	}
	if want.ChangedTool != 14 || len(want.Changes) != 14 || want.Changes[0].Text != "intent k00" || want.ToolChanges[0].Examples[0] != "intent k00" {
		t.Fatalf("summary %+v", want)
	}
	// Only the earliest changes are listed; the others are counted.
	a := NewAccumulator()
	for _, r := range shuffled {
		a.Add(r, lbl[r.Intent.Key])
	}
	if n := len(a.changes); n != 14 {
		t.Fatalf("kept %d changes", n)
	}
	var h changeHeap
	dropped := 0
	for _, r := range shuffled {
		if h.keep(changed{at: r.Intent}, 5) {
			dropped++
		}
	}
	kept := h.inOrder()
	if dropped != 35 || len(kept) != 5 || kept[0].at.Key != "k00" || kept[4].at.Key != "k04" {
		t.Fatalf("kept %d, dropped %d: %v", len(kept), dropped, kept)
	}
}

// The latency sample is bounded, and exact below its bound.
func TestLatencySampleIsBounded(t *testing.T) {
	r := newReservoir(100)
	for i := range 50 {
		r.add(float64(i))
	}
	if s := r.sorted(); len(s) != 50 || quantile(s, 0.5) != 24 {
		t.Fatalf("below the bound: %v", s)
	}
	for i := range 100_000 {
		r.add(float64(i % 1000))
	}
	s := r.sorted()
	if len(s) != 100 {
		t.Fatalf("kept %d latencies", len(s))
	}
	// A uniform sample of 0..999 has its median near 500.
	if m := quantile(s, 0.5); m < 300 || m > 700 {
		t.Fatalf("median of the sample %v", m)
	}
}

// A candidate identical to the baseline changes nothing.
func TestIdenticalCandidateReportsNoChange(t *testing.T) {
	th := route.DefaultThresholds()
	base, cand := testSide(t, "baseline", th), testSide(t, "candidate", th)
	var recs []schemas.AuditRecord
	texts := []string{"weather forecast for Lisbon tomorrow", "convert 100 dollars to euros", "translate good morning into French", "share price of ACME", "bake a cake"}
	for i, text := range texts {
		recs = append(recs, history("s", t0.Add(time.Duration(i)*time.Minute), text, testTools[i%len(testTools)].ID))
	}
	intents, _ := Extract(recs)
	rows, err := Run(context.Background(), intents, base, cand, RunOptions{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(rows, Labels(recs, labels.Options{}), nil, SideInfo{}, SideInfo{})
	if s.Intents != len(texts) || s.ChangedTier != 0 || s.ChangedTool != 0 || s.Gained != 0 || s.Lost != 0 || len(s.Changes) != 0 {
		t.Fatalf("identical sides changed something: %+v", s)
	}
}

func TestReportWritesSummaryAndSelfContainedPage(t *testing.T) {
	th := route.Thresholds{Activate: 0.9, Multiple: 0.5, Weak: 0.3}
	cand := testSide(t, "candidate", th)
	var recs []schemas.AuditRecord
	for i, c := range []struct{ text, tool string }{
		{"weather forecast for Lisbon tomorrow", "weather"},
		{"convert 100 dollars to euros", "currency"},
		{"translate good morning into French", "translate"},
		{"share price of ACME", "stocks"},
		{"what is the temperature in Oslo", "weather"},
	} {
		recs = append(recs, history("s", t0.Add(time.Duration(i)*time.Minute), c.text, c.tool))
	}
	intents, skipped := Extract(recs)
	rows, err := Run(context.Background(), intents, nil, cand, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep := NewReport(rows, Labels(recs, labels.Options{}), skipped, SideInfo{Source: "recorded"}, SideInfo{Source: "test"}, th)
	dir := filepath.Join(t.TempDir(), "report")
	if err := rep.Write(dir); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"intents", "changed_tier", "changed_tool", "baseline", "candidate", "changes", "tier_transitions", "per_tool"} {
		if _, ok := got[k]; !ok {
			t.Errorf("summary.json has no %q", k)
		}
	}
	if got["intents"].(float64) != 5 {
		t.Errorf("intents %v", got["intents"])
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	if n := strings.Count(html, "<svg"); n != 6 {
		t.Errorf("%d inline SVG plots, want 6", n)
	}
	if regexp.MustCompile(`(?i)(src|href)=["']?(https?:)?//`).MatchString(html) || strings.Contains(html, "<script") {
		t.Error("the page loads something from elsewhere")
	}
	// Each plot draws lines or shapes, not just axes: paths beyond a frame.
	for _, id := range []string{"plot-transitions", "plot-activated", "plot-not-found", "plot-reliability", "plot-latency"} {
		i := strings.Index(html, `id="`+id+`"`)
		if i < 0 {
			t.Fatalf("no %s", id)
		}
		end := strings.Index(html[i:], "</svg>")
		if n := strings.Count(html[i:i+end], "<path"); n < 10 {
			t.Errorf("%s has %d paths: not drawn?", id, n)
		}
	}
}
