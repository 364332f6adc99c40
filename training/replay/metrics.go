package replay

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/toolyard/toolyard/schemas"
)

// Metrics are one side's figures. Rates are over the intents with a
// positive label; a figure that cannot be computed (no such intents, no
// recorded confidences) is null.
type Metrics struct {
	Intents  int            `json:"intents"`
	Labelled int            `json:"labelled"`
	Tiers    map[string]int `json:"tiers"`
	Ran      int            `json:"ran"`
	// Accuracy is hit@1: the most confident candidate is the label's tool.
	Accuracy *float64 `json:"accuracy"`
	// ActivatedPrecision is the share of labelled activated intents whose
	// tool is the label's; ActivatedCoverage the share of labelled intents
	// activated.
	ActivatedPrecision *float64 `json:"activated_precision"`
	ActivatedCoverage  *float64 `json:"activated_coverage"`
	// NotFoundPrecision is the share of labelled not_found intents whose
	// top candidate was wrong (refusing was right); NotFoundCoverage the
	// share of labelled intents with a wrong top candidate that were
	// answered not_found.
	NotFoundPrecision *float64 `json:"not_found_precision"`
	NotFoundCoverage  *float64 `json:"not_found_coverage"`
	// ECE is the expected calibration error of the top confidence against
	// hit@1, over labelled intents with a confidence (10 equal bins).
	ECE          *float64 `json:"ece"`
	LatencyP50MS *float64 `json:"latency_p50_ms"`
	LatencyP99MS *float64 `json:"latency_p99_ms"`
}

// Sweep ranges: the activation threshold over its useful range, and the
// weak threshold (below which an intent is not_found) over its own.
const (
	actFrom, actTo = 0.50, 0.99
	nfFrom, nfTo   = 0.05, 0.60
	sweepStep      = 0.01
	reliabilityN   = 10
	// latencySample bounds the latencies kept per side: below it every
	// latency is kept (exact quantiles); above it a uniform sample.
	latencySample = 1 << 16
)

var (
	actThresholds = thresholds(actFrom, actTo, sweepStep)
	nfThresholds  = thresholds(nfFrom, nfTo, sweepStep)
)

// thresholds are the sweep's points from..to by step, each rounded so it
// equals the literal a user configures (0.9, not 0.9000000000000004: a
// confidence of exactly 0.9 reaches it, as in routing).
func thresholds(from, to, step float64) []float64 {
	var out []float64
	for k := 0; ; k++ {
		t := math.Round((from+float64(k)*step)*1e6) / 1e6
		if t > to+1e-9 {
			return out
		}
		out = append(out, t)
	}
}

// sideStats accumulates one side's figures in memory that does not grow
// with the number of intents: counts, confidence bins, per-threshold
// counters for the sweeps and a bounded sample of latencies.
type sideStats struct {
	m                                Metrics
	hits, act, actRight, nf, nfRight int
	wrong                            int // labelled intents whose top candidate is wrong
	// Labelled intents with a confidence: the calibration figures' points.
	points, wrongPoints int
	bins                [reliabilityN]Bin
	// actAt[k] (nfAt[k]) counts points whose confidence reaches exactly k
	// of the ascending thresholds: the sweeps are their suffix (prefix)
	// sums.
	actAt, actRightAt []int
	nfAt, nfWrongAt   []int
	lat               reservoir
}

func newSideStats() sideStats {
	s := sideStats{m: Metrics{Tiers: map[string]int{}},
		actAt: make([]int, len(actThresholds)+1), actRightAt: make([]int, len(actThresholds)+1),
		nfAt: make([]int, len(nfThresholds)+1), nfWrongAt: make([]int, len(nfThresholds)+1),
		lat: newReservoir(latencySample)}
	for i := range s.bins {
		s.bins[i].Lo, s.bins[i].Hi = float64(i)/reliabilityN, float64(i+1)/reliabilityN
	}
	return s
}

// add counts one intent's outcome; l is its label, labelled says it has a
// positive one.
func (s *sideStats) add(o Outcome, l Label, labelled bool) {
	s.m.Intents++
	s.m.Tiers[o.Tier]++
	if o.Ran {
		s.m.Ran++
	}
	if o.LatencyMS != nil {
		s.lat.add(*o.LatencyMS)
	}
	if !labelled {
		return
	}
	s.m.Labelled++
	right := o.Top == l.Tool
	if right {
		s.hits++
	} else {
		s.wrong++
	}
	switch o.Tier {
	case schemas.TierActivated:
		s.act++
		if o.Tool == l.Tool {
			s.actRight++
		}
	case schemas.TierNotFound:
		s.nf++
		if !right {
			s.nfRight++
		}
	}
	if o.Confidence != nil {
		s.point(*o.Confidence, right)
	}
}

// point counts a labelled intent with confidence conf into the bins and
// the sweeps.
func (s *sideStats) point(conf float64, correct bool) {
	s.points++
	b := &s.bins[max(min(int(conf*reliabilityN), reliabilityN-1), 0)]
	b.N++
	b.Confidence += conf
	if correct {
		b.Accuracy++
	}
	// How many thresholds conf reaches (conf ≥ t), the same comparison the
	// tiers make.
	k := sort.Search(len(actThresholds), func(i int) bool { return actThresholds[i] > conf })
	s.actAt[k]++
	if correct {
		s.actRightAt[k]++
	}
	k = sort.Search(len(nfThresholds), func(i int) bool { return nfThresholds[i] > conf })
	s.nfAt[k]++
	if !correct {
		s.wrongPoints++
		s.nfWrongAt[k]++
	}
}

// metrics are the side's figures so far.
func (s *sideStats) metrics() Metrics {
	m := s.m
	m.Tiers = maps.Clone(s.m.Tiers)
	m.Accuracy = ratio(s.hits, m.Labelled)
	m.ActivatedPrecision = ratio(s.actRight, s.act)
	m.ActivatedCoverage = ratio(s.act, m.Labelled)
	m.NotFoundPrecision = ratio(s.nfRight, s.nf)
	m.NotFoundCoverage = ratio(s.nfRight, s.wrong)
	if s.points > 0 {
		var e float64
		for _, b := range s.reliability() {
			if b.N > 0 {
				e += float64(b.N) / float64(s.points) * math.Abs(b.Accuracy-b.Confidence)
			}
		}
		m.ECE = ptr(round(e))
	}
	if lat := s.lat.sorted(); len(lat) > 0 {
		m.LatencyP50MS = ptr(round(quantile(lat, 0.5)))
		m.LatencyP99MS = ptr(round(quantile(lat, 0.99)))
	}
	return m
}

// Bin is one bin of a reliability diagram.
type Bin struct {
	Lo, Hi     float64
	N          int
	Confidence float64 // mean confidence
	Accuracy   float64 // observed hit@1
}

// reliability is the reliability diagram's bins: mean confidence and
// observed hit@1 per equal confidence bin.
func (s *sideStats) reliability() []Bin {
	out := slices.Clone(s.bins[:])
	for i := range out {
		if out[i].N > 0 {
			out[i].Confidence /= float64(out[i].N)
			out[i].Accuracy /= float64(out[i].N)
		}
	}
	return out
}

// SweepPoint is a tier's precision and coverage at one threshold.
type SweepPoint struct {
	Threshold float64 `json:"threshold"`
	Precision float64 `json:"precision"`
	Coverage  float64 `json:"coverage"`
	N         int     `json:"n"`
}

// sweepActivated: as the activation threshold t moves, the share of
// labelled intents activated (confidence ≥ t) and how many of those have
// the right top candidate.
func (s *sideStats) sweepActivated() []SweepPoint {
	out := make([]SweepPoint, len(actThresholds))
	var n, right int
	// A point reaching k thresholds counts at thresholds 0..k-1: walk down.
	for j := len(actThresholds) - 1; j >= 0; j-- {
		n += s.actAt[j+1]
		right += s.actRightAt[j+1]
		out[j] = SweepPoint{Threshold: round(actThresholds[j]), N: n, Coverage: frac(n, s.points), Precision: frac(right, n)}
	}
	return out
}

// sweepNotFound: as the weak threshold t moves, how many not_found answers
// (confidence < t) were right to refuse (the top candidate was wrong), and
// how many of the wrong top candidates were refused.
func (s *sideStats) sweepNotFound() []SweepPoint {
	out := make([]SweepPoint, len(nfThresholds))
	var n, refusedWrong int
	// A point reaching k thresholds is below thresholds k..: walk up.
	for j := range nfThresholds {
		n += s.nfAt[j]
		refusedWrong += s.nfWrongAt[j]
		out[j] = SweepPoint{Threshold: round(nfThresholds[j]), N: n, Precision: frac(refusedWrong, n), Coverage: frac(refusedWrong, s.wrongPoints)}
	}
	return out
}

// reservoir keeps a uniform sample of at most cap values (Vitter's
// algorithm R), seeded so a replay's report is reproducible.
type reservoir struct {
	seen    int
	v       []float64
	cap     int
	rng     *rand.Rand
	inOrder bool // v is sorted (and stays a uniform sample: order is not part of it)
}

func newReservoir(n int) reservoir { return reservoir{cap: n, rng: rand.New(rand.NewPCG(1, 2))} }

func (r *reservoir) add(x float64) {
	r.seen++
	r.inOrder = false
	if len(r.v) < r.cap {
		r.v = append(r.v, x)
		return
	}
	if j := r.rng.IntN(r.seen); j < r.cap {
		r.v[j] = x
	}
}

// sorted is the sample in ascending order, sorted once however often it is
// asked for (the summary's quantiles, the latency plot); callers do not
// modify it.
func (r *reservoir) sorted() []float64 {
	if !r.inOrder {
		slices.Sort(r.v)
		r.inOrder = true
	}
	return r.v
}

func ratio(n, d int) *float64 {
	if d == 0 {
		return nil
	}
	return ptr(round(float64(n) / float64(d)))
}

// round keeps summary figures readable (and stable across platforms).
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// frac is n/d, NaN when d is 0 (a plot leaves a gap there).
func frac(n, d int) float64 {
	if d == 0 {
		return math.NaN()
	}
	return float64(n) / float64(d)
}
