package replay

import (
	"math"
	"slices"

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

// point is one labelled intent as the calibration figures see it.
type point struct {
	conf    float64
	correct bool
}

// Measure computes a side's metrics over the rows; side picks the outcome.
func Measure(rows []Row, lbl map[string]Label, side func(Row) Outcome) Metrics {
	m := Metrics{Intents: len(rows), Tiers: map[string]int{}}
	var hits, act, actRight, nf, nfRight, wrong int
	var lat []float64
	pts := points(rows, lbl, side)
	for _, r := range rows {
		o := side(r)
		m.Tiers[o.Tier]++
		if o.Ran {
			m.Ran++
		}
		if o.LatencyMS != nil {
			lat = append(lat, *o.LatencyMS)
		}
		l, ok := lbl[r.Intent.Key]
		if !ok || l.Tool == "" {
			continue
		}
		m.Labelled++
		right := o.Top == l.Tool
		if right {
			hits++
		} else {
			wrong++
		}
		switch o.Tier {
		case schemas.TierActivated:
			act++
			if o.Tool == l.Tool {
				actRight++
			}
		case schemas.TierNotFound:
			nf++
			if !right {
				nfRight++
			}
		}
	}
	m.Accuracy = ratio(hits, m.Labelled)
	m.ActivatedPrecision = ratio(actRight, act)
	m.ActivatedCoverage = ratio(act, m.Labelled)
	m.NotFoundPrecision = ratio(nfRight, nf)
	m.NotFoundCoverage = ratio(nfRight, wrong)
	if len(pts) > 0 {
		m.ECE = ptr(round(ece(pts, 10)))
	}
	if len(lat) > 0 {
		slices.Sort(lat)
		m.LatencyP50MS = ptr(round(quantile(lat, 0.5)))
		m.LatencyP99MS = ptr(round(quantile(lat, 0.99)))
	}
	return m
}

// points are the labelled intents with a confidence.
func points(rows []Row, lbl map[string]Label, side func(Row) Outcome) []point {
	var pts []point
	for _, r := range rows {
		o := side(r)
		l, ok := lbl[r.Intent.Key]
		if !ok || l.Tool == "" || o.Confidence == nil {
			continue
		}
		pts = append(pts, point{conf: *o.Confidence, correct: o.Top == l.Tool})
	}
	return pts
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

// Bin is one bin of a reliability diagram.
type Bin struct {
	Lo, Hi     float64
	N          int
	Confidence float64 // mean confidence
	Accuracy   float64 // observed hit@1
}

// reliability bins the points by confidence into n equal bins.
func reliability(pts []point, n int) []Bin {
	bins := make([]Bin, n)
	for i := range bins {
		bins[i].Lo, bins[i].Hi = float64(i)/float64(n), float64(i+1)/float64(n)
	}
	for _, p := range pts {
		i := min(int(p.conf*float64(n)), n-1)
		i = max(i, 0)
		bins[i].N++
		bins[i].Confidence += p.conf
		if p.correct {
			bins[i].Accuracy++
		}
	}
	for i := range bins {
		if bins[i].N > 0 {
			bins[i].Confidence /= float64(bins[i].N)
			bins[i].Accuracy /= float64(bins[i].N)
		}
	}
	return bins
}

func ece(pts []point, n int) float64 {
	var e float64
	for _, b := range reliability(pts, n) {
		if b.N > 0 {
			e += float64(b.N) / float64(len(pts)) * math.Abs(b.Accuracy-b.Confidence)
		}
	}
	return e
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
func sweepActivated(pts []point, from, to, step float64) []SweepPoint {
	var out []SweepPoint
	for t := from; t <= to+1e-9; t += step {
		var n, right int
		for _, p := range pts {
			if p.conf >= t {
				n++
				if p.correct {
					right++
				}
			}
		}
		sp := SweepPoint{Threshold: round(t), N: n, Coverage: frac(n, len(pts))}
		sp.Precision = frac(right, n)
		out = append(out, sp)
	}
	return out
}

// sweepNotFound: as the weak threshold t moves, how many not_found answers
// (confidence < t) were right to refuse (the top candidate was wrong), and
// how many of the wrong top candidates were refused.
func sweepNotFound(pts []point, from, to, step float64) []SweepPoint {
	wrong := 0
	for _, p := range pts {
		if !p.correct {
			wrong++
		}
	}
	var out []SweepPoint
	for t := from; t <= to+1e-9; t += step {
		var n, refusedWrong int
		for _, p := range pts {
			if p.conf < t {
				n++
				if !p.correct {
					refusedWrong++
				}
			}
		}
		out = append(out, SweepPoint{Threshold: round(t), N: n, Precision: frac(refusedWrong, n), Coverage: frac(refusedWrong, wrong)})
	}
	return out
}

// frac is n/d, NaN when d is 0 (a plot leaves a gap there).
func frac(n, d int) float64 {
	if d == 0 {
		return math.NaN()
	}
	return float64(n) / float64(d)
}
