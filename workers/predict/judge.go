package predict

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/route"
)

func sqrt(x float64) float64 { return math.Sqrt(x) }

// Judge reports whether answering with prefetched instead of fresh (what a
// fresh search of the real intent ranks) is a wrong hit: another tool
// first, or the same tool in another tier. Both empty is right.
func Judge(prefetched, fresh []schemas.Candidate, th route.Thresholds) (wrong bool) {
	if len(prefetched) == 0 || len(fresh) == 0 {
		return len(prefetched) != len(fresh)
	}
	p, f := prefetched[0], fresh[0]
	return p.ToolID != f.ToolID || th.Tier(clamp(p.Confidence)) != th.Tier(clamp(f.Confidence))
}

func clamp(c float64) float64 {
	if math.IsNaN(c) {
		return 0
	}
	return min(1, max(0, c))
}

// Tally counts predictions and what became of the real intents: hits,
// misses and, among the hits, wrong ones (known when a fresh search
// checked them), and the time hits saved. Safe for concurrent use.
type Tally struct {
	Predictions, Hits, Misses, Checked, WrongHits atomic.Int64
	saved                                         atomic.Int64 // nanoseconds
}

// Hit records a hit that saved d.
func (t *Tally) Hit(saved time.Duration) {
	t.Hits.Add(1)
	t.saved.Add(int64(max(0, saved)))
}

// Check records the verdict of a fresh search on a hit.
func (t *Tally) Check(wrong bool) {
	t.Checked.Add(1)
	if wrong {
		t.WrongHits.Add(1)
	}
}

// Saved is the time hits saved so far.
func (t *Tally) Saved() time.Duration { return time.Duration(t.saved.Load()) }

// HitRate is hits over real intents looked up.
func (t *Tally) HitRate() float64 {
	return ratio(t.Hits.Load(), t.Hits.Load()+t.Misses.Load())
}

// WrongHitRate is wrong hits over checked hits.
func (t *Tally) WrongHitRate() float64 { return ratio(t.WrongHits.Load(), t.Checked.Load()) }

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
