// Package learn refits discovery from what the audit shows agents wanted
// (training/labels): each tool's learned intents (the usage model), the
// fused weights of the usage signals, a calibration that knows them, and the
// predictor's templates — one model version (workers/models/bundle).
//
// Everything fitted is fitted on the past and measured on the future: the
// labelled examples are split in time order into a history (the first
// latest HoldOut is the test slice; before it, the last FitShare is cut into
// time-ordered folds, each ranked by the usage model of everything before it
// (time-ordered cross-validation), and the weights and the calibration are
// fitted on all the folds' rankings. The test slice, later than anything
// fitted, gives the figures the report shows. The version then learns from every
// example, with the weights and calibration so fitted.
package learn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// Options tune training.
type Options struct {
	// HoldOut is the latest share of the examples held out to test on,
	// never fitted on (default 0.1).
	HoldOut float64
	// FitShare is the share of the examples before the test slice that
	// the weights and calibration are fitted on (default 0.4), in Folds
	// time-ordered folds (default 4).
	FitShare float64
	Folds    int
	Guard    labels.Guard
	Labels   labels.Options
	// Shortcuts decides which phrasings become learned shortcuts (with
	// Guard's per-session cap and distinct-session minimum).
	Shortcuts ShortcutRule
	// UsageEncoder names what embeds the learned intents and the request
	// for the usage model's nearest-intent signals (recorded as
	// Usage.Encoder): "" the engine's own (its sentence encoder when it
	// has one, else its word vectors), "words", or a sentence encoder of
	// embed.Encoders on the usage side alone, which then encodes every
	// request the model serves.
	UsageEncoder string
	// Version names the model (default: the time of training).
	Version string
	// Progress, when set, hears of long steps.
	Progress func(step string, done, total int)
}

// Report says what training did and what it measured.
type Report struct {
	Records   int                   `json:"records"`
	Examples  int                   `json:"examples"`
	BySource  map[labels.Source]int `json:"by_source"`
	Negatives int                   `json:"negatives"`
	Guard     labels.Stats          `json:"guard"`
	Tools     int                   `json:"tools_with_history"`
	Weights   discover.UsageWeights `json:"weights"`
	// Fit is how the fitting rows' top tools fared under the fitted
	// weights: a calibration needs some of each.
	Fit FitOutcomes `json:"fit"`
	// Shortcuts is how many phrasings got a learned shortcut.
	Shortcuts int `json:"shortcuts"`
	// Before and After are the test slice's figures without and with the
	// learned model.
	Before, After Metrics       `json:"-"`
	Duration      time.Duration `json:"-"`
	// Test is the test slice: the latest examples, never fitted on (the
	// eval guard scores the version in force on it too).
	Test []labels.Example `json:"-"`
}

// Train learns a model version from audit records over the registry tools.
// engine is a discovery engine over the same tools (its mode, embedder and
// encoder are the deployment's); Train sets and then removes usage models
// on it while fitting, so give it an engine no one else is searching.
func Train(ctx context.Context, engine *discover.Engine, records []schemas.AuditRecord, opts Options) (*bundle.Bundle, Report, error) {
	start := time.Now()
	if opts.HoldOut <= 0 || opts.HoldOut >= 1 {
		opts.HoldOut = 0.1
	}
	if opts.FitShare <= 0 || opts.FitShare >= 1 {
		opts.FitShare = 0.4
	}
	if opts.Folds <= 0 {
		opts.Folds = 4
	}
	if opts.Version == "" {
		opts.Version = start.UTC().Format("20060102T150405Z")
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	rep := Report{Records: len(records), BySource: map[labels.Source]int{}}
	side, err := engine.UsageEmbedderID(opts.UsageEncoder)
	if err != nil {
		return nil, rep, fmt.Errorf("train: %w", err)
	}
	all := labels.Derive(records, opts.Labels)
	positives, st := opts.Guard.Apply(all)
	rep.Guard = st
	for _, e := range positives {
		if e.Negative {
			rep.Negatives++
			continue
		}
		rep.BySource[e.Source]++
		rep.Examples++
	}
	pos := slices.DeleteFunc(slices.Clone(positives), func(e labels.Example) bool { return e.Negative })
	if len(pos) == 0 {
		return nil, rep, noExamples(all, st, opts.Guard.WithDefaults())
	}
	negs := negatives(positives)

	// Time-ordered cross-validation: the latest HoldOut is the test
	// slice; the FitShare before it is cut into Folds, and each fold is
	// ranked with the usage learned from everything before it.
	cut := int(float64(len(pos)) * (1 - opts.HoldOut))
	history, test := pos[:cut], pos[cut:]
	if len(test) > maxTest {
		test = test[len(test)-maxTest:]
	}
	rep.Test = test
	defer engine.SetUsage(ctx, nil)
	base := engine.Calibration()
	// The test slice without a model first: the folds then follow one
	// another and the test slice's model the last fold, each reusing the
	// encoder vectors of the intents the one before had (usage.go).
	if err := engine.SetUsage(ctx, nil); err != nil {
		return nil, rep, err
	}
	if rep.Before, err = Evaluate(ctx, engine, test, func(d, t int) { progress("testing without the model", d, t) }); err != nil {
		return nil, rep, err
	}
	var rows []row
	// Each usage model's vector classifier starts from the one before:
	// every history below holds the one before it.
	var vc *discover.VectorClassifier
	first := int(float64(cut) * (1 - opts.FitShare))
	for f := range opts.Folds {
		lo := first + (cut-first)*f/opts.Folds
		hi := first + (cut-first)*(f+1)/opts.Folds
		if lo == 0 || hi <= lo {
			continue
		}
		fu := usageOf(engine, side, fmt.Sprintf("%s-fold%d", opts.Version, f), pos[:lo], negs, discover.UsageWeights{}, nil)
		if err := putUsage(ctx, engine, fu, vc,
			func(d, t int) { progress(fmt.Sprintf("fitting fold %d/%d's vector classifier", f+1, opts.Folds), d, t) }); err != nil {
			return nil, rep, err
		}
		vc = fu.VectorClassifier
		fr, err := explainAll(ctx, engine, spread(pos[lo:hi], maxFitRows/opts.Folds), func(d, t int) { progress(fmt.Sprintf("ranking fold %d/%d", f+1, opts.Folds), d, t) })
		if err != nil {
			return nil, rep, err
		}
		rows = append(rows, fr...)
	}
	if len(rows) == 0 {
		return nil, rep, fmt.Errorf("train: %d labelled examples are too few to fit on (need a history before the folds)", len(pos))
	}
	w := fitWeights(rows)
	rep.Weights = w
	c, fit, err := fitCalibration(rows, w, base)
	rep.Fit = fit
	if err != nil {
		return nil, rep, err
	}
	calib := &c

	// The test slice, later than anything fitted, with the history's usage
	// and the fitted weights and calibration (before: above).
	tu := usageOf(engine, side, opts.Version+"-test", history, negs, w, calib)
	if err := putUsage(ctx, engine, tu, vc,
		func(d, t int) { progress("fitting the test slice's vector classifier", d, t) }); err != nil {
		return nil, rep, err
	}
	if rep.After, err = Evaluate(ctx, engine, test, func(d, t int) { progress("testing with the model", d, t) }); err != nil {
		return nil, rep, err
	}

	u := usageOf(engine, side, opts.Version, pos, negs, w, calib)
	// A sentence encoder's vectors of the learned intents go with the
	// version, so that no worker embeds them again; putting the model in
	// force here embeds only the test slice's intents, the rest carry over.
	if err := putUsage(ctx, engine, u, tu.VectorClassifier, func(d, t int) { progress("fitting the version's vector classifier", d, t) }); err != nil {
		return nil, rep, err
	}
	if words, err := engine.UsageEmbedderID("words"); err == nil && side == words {
		u.Vectors = nil
	}
	rep.Tools = len(toolsOf(u))
	rep.Duration = time.Since(start)
	b := &bundle.Bundle{
		Manifest: bundle.Manifest{
			Version: opts.Version, CreatedAt: start.UTC(),
			Trained: bundle.Trained{Records: len(records), Examples: rep.Examples, BySource: sourceCounts(rep.BySource),
				From: pos[0].Time, Until: pos[len(pos)-1].Time},
			Metrics: rep.metrics(),
			Note:    "usage model over the labelled history; weights and calibration fitted on a later slice, figures from a later one still",
		},
		Usage:     u,
		Templates: templatesOf(pos),
	}
	b.Templates.Shortcuts = Shortcuts(all, opts.Shortcuts, opts.Guard)
	rep.Shortcuts = len(b.Templates.Shortcuts)
	return b, rep, nil
}

func (r Report) metrics() map[string]float64 {
	m := map[string]float64{}
	for k, v := range r.Before.Map() {
		m["before_"+k] = v
	}
	for k, v := range r.After.Map() {
		m["after_"+k] = v
	}
	return m
}

func sourceCounts(m map[labels.Source]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}

// negatives are the (text, tool) pairs the audit says were wrong.
func negatives(es []labels.Example) map[[2]string]bool {
	out := map[[2]string]bool{}
	for _, e := range es {
		if e.Negative {
			out[[2]string{e.Text, e.Tool}] = true
		}
	}
	return out
}

// maxPerTool bounds each tool's learned intents to its latest distinct
// ones: memory and index size stay bounded however long the history, and
// what agents ask now matters more than what they asked a year ago.
const maxPerTool = 200

// usageOf is the usage model of examples: each tool's latest distinct
// intents (at most maxPerTool), minus those the audit marked wrong for it,
// embedded by side (Usage.Encoder).
func usageOf(e *discover.Engine, side, version string, es []labels.Example, wrong map[[2]string]bool, w discover.UsageWeights, calib *discover.Calibration) *discover.Usage {
	seen := map[[2]string]bool{}
	per := map[string]int{}
	var kept []labels.Example
	for i := len(es) - 1; i >= 0; i-- {
		ex := es[i]
		k := [2]string{ex.Text, ex.Tool}
		if seen[k] || wrong[k] || per[ex.Tool] >= maxPerTool {
			continue
		}
		seen[k] = true
		per[ex.Tool]++
		kept = append(kept, ex)
	}
	slices.Reverse(kept)
	u := &discover.Usage{Version: version, Encoder: side, Weights: w, Calibration: calib, Classifier: fitClassifier(e, kept, defaultClassifier)}
	for _, ex := range kept {
		u.Intents = append(u.Intents, discover.LearnedIntent{Tool: ex.Tool, Text: ex.Text})
	}
	return u
}

// putUsage fits u's vector classifier on its learned intents' vectors and
// puts u in force with them (u.Vectors), embedding and indexing the
// intents once. The fit starts from from's weights when set (fitVectorClassifier).
// progress hears of the fit.
func putUsage(ctx context.Context, e *discover.Engine, u *discover.Usage, from *discover.VectorClassifier, progress func(done, total int)) error {
	vs, err := e.LearnedVectors(ctx, u)
	if err != nil {
		return err
	}
	if u.VectorClassifier, err = fitVectorClassifier(ctx, vs, u.Intents, from, progress); err != nil {
		return err
	}
	// The vectors just made, so that SetUsage embeds none again (a
	// sentence encoder's; the word vectors embed afresh in microseconds).
	u.Vectors = vs
	return e.SetUsage(ctx, u)
}

func toolsOf(u *discover.Usage) map[string]bool {
	out := map[string]bool{}
	for _, in := range u.Intents {
		out[in.Tool] = true
	}
	return out
}

// Bounds on the ranking work of training, which grows with the history
// otherwise: the weights and the calibration need a few thousand rows, and
// the figures a few thousand test examples, not a million of either.
const (
	maxFitRows = 4000
	maxTest    = 5000
)

// spread is at most n of es, evenly spaced in time.
func spread(es []labels.Example, n int) []labels.Example {
	if n <= 0 || len(es) <= n {
		return es
	}
	out := make([]labels.Example, n)
	for i := range out {
		out[i] = es[i*len(es)/n]
	}
	return out
}

// row is one fitting query: its pooled candidates' signals and which is right.
type row struct {
	cands []discover.Explained
	gold  string
}

// poolSize is how many candidates a fitting query keeps: re-weighting can
// only reorder the pool, so it must hold what the weights may promote.
const poolSize = 50

// explainAll ranks the examples on every core, keeping their order.
func explainAll(ctx context.Context, e *discover.Engine, es []labels.Example, progress func(int, int)) ([]row, error) {
	rows := make([]row, len(es))
	var mu sync.Mutex
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, ex := range es {
		g.Go(func() error {
			cs, err := e.Explain(gctx, ex.Text, poolSize)
			if err != nil {
				return fmt.Errorf("train: rank %q: %w", ex.Text, err)
			}
			if cs == nil {
				return errors.New("train: discovery has no vectors (keyword-only); the usage model needs the hybrid engine")
			}
			rows[i] = row{cands: cs, gold: ex.Tool}
			mu.Lock()
			if done++; done%200 == 0 || done == len(es) {
				progress(done, len(es))
			}
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return rows, nil
}

// rescore is a candidate's fused score under usage weights w: the pool was
// ranked with every usage weight 0, so its fused score is the registry's
// own evidence.
func rescore(c discover.Explained, w discover.UsageWeights) float64 {
	return termsOf(c).score(w)
}

// usageTerms are a candidate's fused score and usage signals, read out of
// its signal map once: the weight fit scores each row hundreds of times.
type usageTerms struct{ fused, class, vectorClass, text, textVote, near, vote float64 }

func termsOf(c discover.Explained) usageTerms {
	s := c.Signals
	return usageTerms{fused: s[discover.FeatureFused], class: s[discover.FeatureUsageClass], vectorClass: s[discover.FeatureUsageVectorClass], text: s[discover.FeatureUsageText],
		textVote: s[discover.FeatureUsageTextVote], near: s[discover.FeatureUsageNear], vote: s[discover.FeatureUsageVote]}
}

// score is the fused score under usage weights w.
func (t usageTerms) score(w discover.UsageWeights) float64 {
	return t.fused + w.Class*t.class + w.VectorClass*t.vectorClass + w.Text*t.text + w.TextVote*t.textVote + w.Near*t.near + w.Vote*t.vote
}

// ranked orders a row's candidates under w, best first.
func ranked(r row, w discover.UsageWeights) []discover.Explained {
	cs := slices.Clone(r.cands)
	slices.SortStableFunc(cs, func(a, b discover.Explained) int { return cmp.Compare(rescore(b, w), rescore(a, w)) })
	return cs
}

// weightGrid are the values each usage weight is tried at. The registry's
// own evidence adds up to about four terms in [0, 1]; the grid lets usage
// count from nothing to twice all of them.
var weightGrid = []float64{0, 0.5, 1, 2, 4, 6, 8}

// fitWeights chooses the usage weights that put the right tool first most
// often on the fitting slice (then the best mean reciprocal rank), by
// coordinate ascent over the grid: each weight in turn tries every grid
// value with the others held, for a few rounds. A signal enters, its
// weight leaving 0, only when that puts more rows first: a better mean
// reciprocal rank at the same hits, a reordering of the places below the
// first, is no reason to rank by a signal at all. On 68 fitting rows of a
// small registry's history, 66 of them right without usage evidence, two
// signals entered so and cost three of 81 held-out requests their top
// tool (docs/benchmarks.md, "A small history"); the MetaTool models are
// the same with the rule or without it (the usage encoder's but for one
// request). Once in, a weight is tuned for hits, then the mean reciprocal
// rank.
func fitWeights(rows []row) discover.UsageWeights {
	var w discover.UsageWeights
	fields := []*float64{&w.Class, &w.VectorClass, &w.Text, &w.TextVote, &w.Near, &w.Vote}
	// Each score needs only the gold tool's place, not a sorted ranking.
	sigs := make([]rowSignals, len(rows))
	for i, r := range rows {
		sigs[i] = signalsOf(r)
	}
	score := func() (float64, float64) {
		var hit, mrr float64
		for _, s := range sigs {
			if i := s.goldRank(w); i >= 0 {
				mrr += 1 / float64(i+1)
				if i == 0 {
					hit++
				}
			}
		}
		return hit, mrr
	}
	bestHit, bestMRR := score()
	for range 3 {
		changed := false
		for _, f := range fields {
			keep := *f
			for _, v := range weightGrid {
				*f = v
				hit, mrr := score()
				better := hit > bestHit || hit == bestHit && mrr > bestMRR
				if enters := keep == 0 && v != 0; better && (!enters || hit > bestHit) {
					bestHit, bestMRR, keep, changed = hit, mrr, v, true
				}
			}
			*f = keep
		}
		if !changed {
			break
		}
	}
	return w
}

// rowSignals are a row's candidates' terms, in rank order, and the gold
// tool's index among them (-1 when absent).
type rowSignals struct {
	gold  int
	terms []usageTerms
}

func signalsOf(r row) rowSignals {
	out := rowSignals{gold: -1, terms: make([]usageTerms, len(r.cands))}
	for i, c := range r.cands {
		out.terms[i] = termsOf(c)
		if c.ToolID == r.gold && out.gold < 0 {
			out.gold = i
		}
	}
	return out
}

// goldRank is the gold tool's place under w, as ranked (a stable sort)
// would put it. -1 when the gold tool is not a candidate.
func (r rowSignals) goldRank(w discover.UsageWeights) int {
	if r.gold < 0 {
		return -1
	}
	return placeOf(r.gold, len(r.terms), func(i int) float64 { return r.terms[i].score(w) })
}

// placeOf is the 0-based place of candidate gold among n scored by score,
// as a stable sort best first would put it: those scoring above it, and
// those before it scoring the same.
func placeOf(gold, n int, score func(int) float64) int {
	g := score(gold)
	place := 0
	for i := range n {
		if v := score(i); v > g || v == g && i < gold {
			place++
		}
	}
	return place
}

// usageFeatures are the signals the learned calibration adds to the
// engine's own.
var usageFeatures = []string{discover.FeatureUsageClass, discover.FeatureUsageVectorClass, discover.FeatureUsageText, discover.FeatureUsageTextVote, discover.FeatureUsageNear, discover.FeatureUsageVote,
	discover.FeatureUsageMargin, discover.FeatureUsageBest, discover.FeatureUsageAgree}

// fitCalibration refits the confidence on the fitting slice's top
// candidates under the fitted weights: one logistic model of "the top tool
// is right" over the engine's signals, the usage ones, and the engine's
// P(needs a tool) as a term (Calibration.NeedTerm) rather than a factor.
// The history holds only requests that needed a tool, so the need model
// cannot be refitted on it; kept as a factor (what this fitted before) it
// capped the confidence of requests the history plainly knew: on the
// MetaTool learn history (fitted on the 50–90 % slice, tested on the
// latest 10 %) the product was under-confident in every middle bin, ECE
// 0.090 and 35.1 % activated at 0.954 right; as a fitted term ECE 0.039
// and 46.5 % at 0.965 (training/README.md). The term keeps the need
// model's doubt, at the weight the history gives it.
// How the rows' top tools fared (FitOutcomes) decides its form: with few
// of either, the engine's calibration leans in (minFitOutcomes).
func fitCalibration(rows []row, w discover.UsageWeights, base discover.Calibration) (discover.Calibration, FitOutcomes, error) {
	features := slices.Clone(base.Features)
	for _, f := range usageFeatures {
		if !slices.Contains(features, f) {
			features = append(features, f)
		}
	}
	var xs [][]float64
	var ys []bool
	var needs []float64
	var fit FitOutcomes
	for _, r := range rows {
		cs := ranked(r, w)
		top := topSignals(cs, w)
		x := make([]float64, len(features), len(features)+1)
		for i, f := range features {
			x[i] = discover.TermValue(f, top)
		}
		if base.Need != nil {
			needs = append(needs, discover.NeedLogit(needOf(base.Need, top)))
		}
		xs = append(xs, x)
		right := cs[0].ToolID == r.gold
		ys = append(ys, right)
		if right {
			fit.Right++
		} else {
			fit.Wrong++
		}
	}
	needTerm := fit.enough() && base.Need != nil
	if needTerm {
		for i := range xs {
			xs[i] = append(xs[i], needs[i])
		}
	}
	var need *discover.NeedModel
	if base.Need != nil {
		n := *base.Need
		n.Features, n.Weights = slices.Clone(n.Features), slices.Clone(n.Weights)
		need = &n
	}
	if !needTerm {
		weights, bias, err := discover.FitLogisticPrior(xs, ys, 1e-3, enginePrior(base, features))
		if err != nil {
			return discover.Calibration{}, fit, fmt.Errorf("train: fit calibration on %d rows: %w", len(xs), err)
		}
		return discover.Calibration{Version: "learned", Features: features, Weights: weights, Bias: bias, Need: need,
			Note: "P(need) x P(right): the engine's calibration moved as far as a few fitting rows warrant, with the usage signals; need model kept"}, fit, nil
	}
	weights, bias, err := discover.FitLogistic(xs, ys, 1e-3)
	if err != nil {
		return discover.Calibration{}, fit, fmt.Errorf("train: fit calibration on %d rows: %w", len(xs), err)
	}
	return discover.Calibration{Version: "learned", Features: features, Weights: weights[:len(features)], Bias: bias, Need: need, NeedTerm: &weights[len(features)],
		Note: "P(right) fitted with the usage signals and logit P(need) as a term on a time-held-out slice of the history; need model kept"}, fit, nil
}

// calibrationPrior is the strength of the engine's own calibration as the
// prior of a learned one fitted on few rows (discover.Prior): a hundred
// rows or so, at their most uncertain.
const calibrationPrior = 20

// enginePrior is the engine's calibration as a prior over the learned
// one's columns: its weights on the features it reads, 0 on the usage
// signals it does not.
func enginePrior(base discover.Calibration, features []string) discover.Prior {
	p := discover.Prior{Bias: base.Bias, Strength: calibrationPrior, Weights: make([]float64, len(features))}
	for i, f := range features {
		if j := slices.Index(base.Features, f); j >= 0 {
			p.Weights[i] = base.Weights[j]
		}
	}
	return p
}

// minFitOutcomes is how many right and how many wrong top tools the
// fitting rows must hold for the calibration to be refitted freely, with
// P(needs a tool) as a fitted term. With fewer, a fit has no evidence of
// when the usage evidence misleads: from six right answers of two
// sessions it made every request whose top tool had history 1.00 sure
// ("list the printers" ran the directory lister;
// TestFewExamplesKeepTheConfidence). The engine's calibration, its need
// model a factor as the engine has it, is then a prior (calibrationPrior),
// and the rows move it only as far as they can.
const minFitOutcomes = 10

// FitOutcomes counts the fitting rows whose top tool, under the fitted
// weights, was right and wrong.
type FitOutcomes struct {
	Right int `json:"right"`
	Wrong int `json:"wrong"`
}

func (f FitOutcomes) enough() bool { return f.Right >= minFitOutcomes && f.Wrong >= minFitOutcomes }

// Leaning says why the calibration leans on the engine's, or "" when it
// was refitted freely.
func (f FitOutcomes) Leaning() string {
	if f.enough() {
		return ""
	}
	return fmt.Sprintf("the fitting rows held %d right and %d wrong top tools (%d of each refit it freely): the engine's calibration, moved as far as they warrant",
		f.Right, f.Wrong, minFitOutcomes)
}

// topSignals are the top candidate's signals with the fused score and its
// margins recomputed under w.
func topSignals(cs []discover.Explained, w discover.UsageWeights) map[string]float64 {
	top := maps.Clone(cs[0].Signals)
	f := rescore(cs[0], w)
	second := 0.0
	if len(cs) > 1 {
		second = rescore(cs[1], w)
	}
	top[discover.FeatureFused] = f
	top[discover.FeatureMargin] = f - second
	top[discover.FeatureMarginExcess] = math.Max(0, f-second-1)
	return top
}

// needOf is P(needs a tool) under n, 1 without a need model.
func needOf(n *discover.NeedModel, s map[string]float64) float64 {
	if n == nil {
		return 1
	}
	return n.Probability(s)
}

// noExamples says why training has nothing to learn from: no labels at
// all, or labels the poisoning guard set aside (a first trial from one
// session meets the distinct-session minimum, and should be told so
// rather than that its successes were not seen).
func noExamples(all []labels.Example, st labels.Stats, g labels.Guard) error {
	derived := 0
	for _, e := range all {
		if !e.Negative {
			derived++
		}
	}
	if derived == 0 {
		return errors.New("train: no labelled examples in the audit records (successes, corrections, feedback or imported history)")
	}
	return fmt.Errorf("train: the poisoning guard kept none of the %d labelled examples: "+
		"%d came from too few distinct sessions (a tool's examples count once %d sessions gave them: --min-sessions), "+
		"%d were over one session's cap for a tool (--max-per-session %d)",
		derived, st.TooFewSessions, g.MinSessions, st.CappedPerSession, g.PerSession)
}
