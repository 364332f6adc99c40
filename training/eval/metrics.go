package eval

import (
	"math"
	"sort"
)

// hitAt1 is 1 when the top-ranked tool is a gold tool.
func hitAt1(ranked []string, gold map[string]bool) float64 {
	if len(ranked) > 0 && gold[ranked[0]] {
		return 1
	}
	return 0
}

// recallAt is the share of gold tools among the first k ranked.
func recallAt(ranked []string, gold map[string]bool, k int) float64 {
	if len(gold) == 0 {
		return 0
	}
	n := 0
	for i, id := range ranked {
		if i >= k {
			break
		}
		if gold[id] {
			n++
		}
	}
	return float64(n) / float64(len(gold))
}

// mrrAt is the reciprocal rank of the first gold tool within the first k.
func mrrAt(ranked []string, gold map[string]bool, k int) float64 {
	for i, id := range ranked {
		if i >= k {
			break
		}
		if gold[id] {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// ndcgAt is nDCG with binary relevance over the first k.
func ndcgAt(ranked []string, gold map[string]bool, k int) float64 {
	var dcg, ideal float64
	for i, id := range ranked {
		if i >= k {
			break
		}
		if gold[id] {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := 0; i < len(gold) && i < k; i++ {
		ideal += 1 / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// AUROC is the probability that a random positive scores above a random
// negative (ties count half): how well score separates the two labels.
func AUROC(scores []float64, positive []bool) float64 {
	type pt struct {
		s   float64
		pos bool
	}
	pts := make([]pt, len(scores))
	var np, nn float64
	for i := range scores {
		pts[i] = pt{scores[i], positive[i]}
		if positive[i] {
			np++
		} else {
			nn++
		}
	}
	if np == 0 || nn == 0 {
		return math.NaN()
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].s < pts[j].s })
	// Rank-sum (Mann–Whitney U) with average ranks for ties.
	var rankSum float64
	for i := 0; i < len(pts); {
		j := i
		for j < len(pts) && pts[j].s == pts[i].s {
			j++
		}
		avg := float64(i+j+1) / 2 // ranks are 1-based: (i+1 + j) / 2
		for k := i; k < j; k++ {
			if pts[k].pos {
				rankSum += avg
			}
		}
		i = j
	}
	return (rankSum - np*(np+1)/2) / (np * nn)
}

// ECE is the expected calibration error over equal-width bins: the
// weighted mean gap between confidence and accuracy.
func ECE(conf []float64, correct []bool, bins int) float64 {
	if len(conf) == 0 {
		return math.NaN()
	}
	sumConf := make([]float64, bins)
	sumAcc := make([]float64, bins)
	count := make([]float64, bins)
	for i, c := range conf {
		b := int(c * float64(bins))
		if b >= bins {
			b = bins - 1
		}
		if b < 0 {
			b = 0
		}
		sumConf[b] += c
		if correct[i] {
			sumAcc[b]++
		}
		count[b]++
	}
	var ece float64
	for b := range count {
		if count[b] > 0 {
			ece += count[b] / float64(len(conf)) * math.Abs(sumConf[b]/count[b]-sumAcc[b]/count[b])
		}
	}
	return ece
}

// Percentile of sorted durations in milliseconds (nearest rank).
func Percentile(sortedMS []float64, p float64) float64 { return percentile(sortedMS, p) }

// percentile of sorted durations in milliseconds.
func percentile(sortedMS []float64, p float64) float64 {
	if len(sortedMS) == 0 {
		return 0
	}
	return sortedMS[int(p*float64(len(sortedMS)-1)+0.5)]
}
