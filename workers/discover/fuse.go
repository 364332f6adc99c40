package discover

import (
	"math"
	"slices"
)

// fusionKind is how the two sides' scores are combined into one ranking
// score. Each normalises both sides per query, since neither BM25 nor
// cosine has a scale that means the same across queries, and weighs them
// equally: the weights are a principle, not fitted.
type fusionKind int

const (
	// fusionEvidence adds the keyword engine's ranking strength (BM25
	// relative to the best, coverage, name mention: each in [0,1]) to the
	// vector side's min-max normalised cosine, all with weight 1.
	fusionEvidence fusionKind = iota
	// fusionMinMax is 0.5·minmax(BM25) + 0.5·minmax(cosine) over the pool.
	fusionMinMax
	// fusionZ adds the z-scores of BM25 and cosine over the pool.
	fusionZ
	// fusionRRF is reciprocal-rank fusion with k = 60.
	fusionRRF
	// fusionSoft is fusionEvidence with soft coverage in place of coverage.
	fusionSoft
	// fusionSoftAdd is fusionEvidence plus soft coverage and tool coverage
	// (soft.go) as two more terms of weight 1: how much of the request the
	// tool matches softly, and how much of the tool the request asks for.
	// Dev sets, hit@1 / recall@5 / nDCG@10: MetaTool 0.468 / 0.697 / 0.615,
	// Seal-Tools 0.960 / 0.895 / 0.922, awareness (needs-a-tool queries)
	// 0.592 / 0.796. Without tool coverage: 0.469 / 0.697 / 0.613, 0.959 /
	// 0.884 / 0.913, 0.584 / 0.784; fusionEvidence alone: MetaTool 0.464 /
	// 0.693, Seal-Tools 0.951 / 0.881; fusionSoft, soft coverage in place of
	// coverage, 0.468 / 0.697, 0.954 / 0.878.
	fusionSoftAdd

	fusionDefault = fusionSoftAdd
)

func (f fusionKind) fuse(ps []*pooled, mode Mode) {
	if mode == ModeVector {
		for _, p := range ps {
			p.fused = p.cosine
		}
		return
	}
	f.fuseSides(ps)
	// The sentence encoder, when there is one, is one more term of weight
	// 1, normalised over the pool as the word vectors' cosine is. Without
	// one every encoder cosine is 0.
	if slices.ContainsFunc(ps, func(p *pooled) bool { return p.encCosine != 0 }) {
		es := make([]float64, len(ps))
		for i, p := range ps {
			es[i] = p.encCosine
		}
		for i, e := range minMax(es) {
			ps[i].fused += e
		}
	}
}

// fuseSides combines the keyword side and the word vectors.
func (f fusionKind) fuseSides(ps []*pooled) {
	bm := make([]float64, len(ps))
	cs := make([]float64, len(ps))
	for i, p := range ps {
		bm[i], cs[i] = p.bm25, p.cosine
	}
	switch f {
	case fusionMinMax:
		bm, cs = minMax(bm), minMax(cs)
		for i, p := range ps {
			p.fused = 0.5*bm[i] + 0.5*cs[i]
		}
	case fusionZ:
		bm, cs = zScores(bm), zScores(cs)
		for i, p := range ps {
			p.fused = bm[i] + cs[i]
		}
	case fusionRRF:
		for _, p := range ps {
			p.fused = rrf(p.kwRank) + rrf(p.vecRank)
		}
	case fusionSoft, fusionSoftAdd:
		best := 0.0
		for _, p := range ps {
			best = math.Max(best, p.bm25)
		}
		cs = minMax(cs)
		for i, p := range ps {
			ev := evidence{score: p.bm25, coverage: p.coverage, mention: p.mention}
			if f == fusionSoft {
				ev.coverage = p.soft
			}
			p.fused = strength(ev, best) + cs[i]
			if f == fusionSoftAdd {
				p.fused += clamp01(p.soft) + clamp01(p.toolCov)
			}
		}
	default:
		best := 0.0
		for _, p := range ps {
			best = math.Max(best, p.bm25)
		}
		cs = minMax(cs)
		for i, p := range ps {
			ev := evidence{score: p.bm25, coverage: p.coverage, mention: p.mention}
			p.fused = strength(ev, best) + cs[i]
		}
	}
}

func rrf(rank int) float64 {
	if rank < 0 {
		return 0
	}
	return 1 / float64(60+rank+1)
}

func minMax(xs []float64) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	out := make([]float64, len(xs))
	if hi > lo {
		for i, x := range xs {
			out[i] = (x - lo) / (hi - lo)
		}
	}
	return out
}

func zScores(xs []float64) []float64 {
	var mean, sq float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(sq / float64(len(xs)))
	out := make([]float64, len(xs))
	if sd > 0 {
		for i, x := range xs {
			out[i] = (x - mean) / sd
		}
	}
	return out
}
