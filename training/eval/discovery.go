package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/route"
)

// Searcher is what discovery evaluation needs of an engine.
type Searcher interface {
	Search(ctx context.Context, query string, k int, scope []string) ([]schemas.Candidate, error)
}

// Line is one query's outcome, written as a JSON line.
type Line struct {
	ID         string    `json:"id"`
	Ranked     []string  `json:"ranked"`
	Confidence []float64 `json:"confidence"`
	Tier       string    `json:"tier"`
}

// Report sums up a discovery evaluation.
type Report struct {
	Queries int `json:"queries"`
	// Ranking metrics over the queries that have gold tools.
	Ranked     int     `json:"ranked"`
	HitAt1     float64 `json:"hit_at_1"`
	RecallAt3  float64 `json:"recall_at_3"`
	RecallAt5  float64 `json:"recall_at_5"`
	RecallAt10 float64 `json:"recall_at_10"`
	MRRAt10    float64 `json:"mrr_at_10"`
	NDCGAt10   float64 `json:"ndcg_at_10"`
	// ECE of the top confidence against top-1 correctness (10 bins).
	ECE float64 `json:"ece"`
	// AUROC of the top confidence, needs a tool vs not (awareness sets only).
	AUROC float64 `json:"auroc,omitempty"`
	// Tiers counts queries per routing tier; ActivatedPrecision is the share
	// of activated queries whose top tool is right.
	Tiers              map[string]int `json:"tiers"`
	ActivatedPrecision float64        `json:"activated_precision"`
	P50MS              float64        `json:"p50_ms"`
	P99MS              float64        `json:"p99_ms"`
}

// Discovery runs every query through s, writes a Line per query to out (if
// not nil) and returns the report. progress, if not nil, is called now and then.
func Discovery(ctx context.Context, s Searcher, qs []Query, k int, th route.Thresholds, out io.Writer, progress func(done, total int)) (Report, error) {
	rep := Report{Queries: len(qs), Tiers: map[string]int{}}
	enc := json.NewEncoder(io.Discard)
	if out != nil {
		enc = json.NewEncoder(out)
	}
	var lat []float64
	var topConf []float64
	var topRight []bool
	var awareScore []float64
	var awareLabel []bool
	activated, activatedRight := 0, 0
	for i, q := range qs {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		start := time.Now()
		cands, err := s.Search(ctx, q.Query, k, nil)
		if err != nil {
			return rep, fmt.Errorf("query %s: %w", q.ID, err)
		}
		lat = append(lat, float64(time.Since(start).Microseconds())/1000)
		line := Line{ID: q.ID, Ranked: make([]string, len(cands)), Confidence: make([]float64, len(cands))}
		for j, c := range cands {
			line.Ranked[j], line.Confidence[j] = c.ToolID, c.Confidence
		}
		d := route.Decide(schemas.Candidates{Candidates: cands}, th)
		line.Tier = d.Tier
		rep.Tiers[d.Tier]++
		if err := enc.Encode(line); err != nil {
			return rep, fmt.Errorf("write results: %w", err)
		}
		top := 0.0
		if len(cands) > 0 {
			top = cands[0].Confidence
		}
		if q.NeedsTool != nil {
			awareScore = append(awareScore, top)
			awareLabel = append(awareLabel, *q.NeedsTool)
		}
		if len(q.GoldToolIDs) > 0 {
			gold := make(map[string]bool, len(q.GoldToolIDs))
			for _, id := range q.GoldToolIDs {
				gold[id] = true
			}
			rep.Ranked++
			h := hitAt1(line.Ranked, gold)
			rep.HitAt1 += h
			rep.RecallAt3 += recallAt(line.Ranked, gold, 3)
			rep.RecallAt5 += recallAt(line.Ranked, gold, 5)
			rep.RecallAt10 += recallAt(line.Ranked, gold, 10)
			rep.MRRAt10 += mrrAt(line.Ranked, gold, 10)
			rep.NDCGAt10 += ndcgAt(line.Ranked, gold, 10)
			topConf = append(topConf, top)
			topRight = append(topRight, h == 1)
			if d.Tier == schemas.TierActivated {
				activated++
				if h == 1 {
					activatedRight++
				}
			}
		}
		if progress != nil && (i+1)%500 == 0 {
			progress(i+1, len(qs))
		}
	}
	if rep.Ranked > 0 {
		n := float64(rep.Ranked)
		rep.HitAt1 /= n
		rep.RecallAt3 /= n
		rep.RecallAt5 /= n
		rep.RecallAt10 /= n
		rep.MRRAt10 /= n
		rep.NDCGAt10 /= n
		rep.ECE = ECE(topConf, topRight, 10)
	}
	if activated > 0 {
		rep.ActivatedPrecision = float64(activatedRight) / float64(activated)
	}
	if len(awareLabel) > 0 {
		rep.AUROC = AUROC(awareScore, awareLabel)
	}
	sort.Float64s(lat)
	rep.P50MS, rep.P99MS = percentile(lat, 0.50), percentile(lat, 0.99)
	return rep, nil
}

// Print writes the report for a person.
func (r Report) Print(w io.Writer, label string) {
	fmt.Fprintf(w, "%s: %d queries (%d with gold tools)\n", label, r.Queries, r.Ranked)
	if r.Ranked > 0 {
		fmt.Fprintf(w, "  hit@1 %.3f  recall@3 %.3f  recall@5 %.3f  recall@10 %.3f  MRR@10 %.3f  nDCG@10 %.3f\n",
			r.HitAt1, r.RecallAt3, r.RecallAt5, r.RecallAt10, r.MRRAt10, r.NDCGAt10)
		fmt.Fprintf(w, "  calibration: ECE %.3f of top confidence vs top-1 correct; activated %d, of which right %.3f\n",
			r.ECE, r.Tiers[schemas.TierActivated], r.ActivatedPrecision)
	}
	if r.AUROC > 0 {
		fmt.Fprintf(w, "  awareness: AUROC %.3f of top confidence, needs a tool vs not\n", r.AUROC)
	}
	fmt.Fprintf(w, "  tiers: activated %d, multiple %d, weak %d, not found %d\n",
		r.Tiers[schemas.TierActivated], r.Tiers[schemas.TierMultiple], r.Tiers[schemas.TierWeak], r.Tiers[schemas.TierNotFound])
	fmt.Fprintf(w, "  latency per query: p50 %.2f ms, p99 %.2f ms\n", r.P50MS, r.P99MS)
}
