package discover

import (
	"container/heap"
	"math"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2/search"
)

// postings propose the keyword side's best tools; bleve then scores the
// proposals (idsQuery), so every score a caller sees is bleve's own.
//
// Why not let bleve find them: its disjunction searcher walks every
// (term, field) posting of the query through a heap of iterators, scoring
// each through several interfaces. At a million tools a request shares
// its verb, object and domain words with tens of thousands of tools each,
// and that walk took ~50 ms a query. The same BM25 arithmetic done term at
// a time over flat arrays into one accumulator costs a few milliseconds.
//
// The arithmetic is bleve's BM25 exactly (search/searcher/search_term.go,
// scorer_term.go, scorer_disjunction.go as of bleve v2.6): per (term,
// field) clause idf·(√tf·k1)/(√tf + k1·(1−b+b·len/avglen)) times the
// query weight boost·idf·queryNorm, summed over the clauses a tool matches
// and multiplied by the coordination factor matched/clauses; the field
// length is what bleve recovers from its float32 norm, and the average
// length is bleve's: ⌈distinct terms of the field / tools⌉. Rounding
// differs in the last bits only, so candidates is generous at the cut.
type postings struct {
	lists [len(indexedFields)]map[string]*plist
	// lens are each document's field lengths as bleve sees them, by field
	// then document number.
	lens [len(indexedFields)][]float64
	// docs are the entries by document number, nil once removed. Numbers
	// are never reused; compaction builds fresh postings.
	docs []*entry
	nums map[string]uint32

	scratch sync.Pool // *accumulator
}

// plist is one (term, field) posting list: documents in the order added,
// and the term's frequency in each (capped at 255: beyond a few, BM25's
// saturation makes it irrelevant, and the cap only shapes the proposal).
type plist struct {
	docs []uint32
	tfs  []uint8
}

// clause is one (term, field) disjunct of a text query.
type clause struct {
	field int // index into indexedFields
	term  string
	boost float64
}

func newPostings(tools int) *postings {
	// An eighth of spare room, so that the first updates after a load of a
	// large registry do not copy the per-tool arrays.
	room := tools + tools/8
	p := &postings{nums: make(map[string]uint32, tools), docs: make([]*entry, 0, room)}
	for f := range p.lists {
		p.lists[f] = map[string]*plist{}
		p.lens[f] = make([]float64, 0, room)
	}
	return p
}

// buildPostings indexes tools. It reads only immutable entries, so it
// needs no lock.
func buildPostings(tools map[string]*entry) *postings {
	p := newPostings(len(tools))
	for _, en := range tools {
		p.put(en)
	}
	return p
}

// put adds en, replacing any earlier entry with its id.
func (p *postings) put(en *entry) {
	p.remove(en.cand.ToolID)
	n := uint32(len(p.docs))
	p.docs = append(p.docs, en)
	p.nums[en.cand.ToolID] = n
	for f := range p.lists {
		p.lens[f] = append(p.lens[f], bleveFieldLength(en.fieldLen[f]))
		tfs := en.fieldTF(f)
		for i, t := range en.fieldTerms[f] {
			pl := p.lists[f][t]
			if pl == nil {
				pl = &plist{}
				p.lists[f][t] = pl
			}
			pl.docs = append(pl.docs, n)
			pl.tfs = append(pl.tfs, tfs[i])
		}
	}
}

// remove forgets the tool with this id; its postings stay, skipped, until
// compaction rebuilds the postings.
func (p *postings) remove(id string) {
	if n, ok := p.nums[id]; ok {
		p.docs[n] = nil
		delete(p.nums, id)
	}
}

// bleveFieldLength is the field length bleve's BM25 uses: it stores the
// norm 1/√len as a float32 and squares it back.
func bleveFieldLength(n uint32) float64 {
	if n == 0 {
		return 0
	}
	norm := float64(float32(1 / math.Sqrt(float64(n))))
	return 1 / (norm * norm)
}

// candidateSlack is the relative band below the n-th best score whose
// tools are proposed too: far wider than the rounding difference from
// bleve's own arithmetic (about 1e-15), far narrower than real score gaps.
const candidateSlack = 1e-6

// candidates are the ids, sorted, of the allowed tools that can be among
// the n best for the clauses: the n best by BM25 and every tool within
// candidateSlack of the n-th. A nil allow admits every tool. Caller holds
// the engine's read lock (st and the postings must not change during the
// call).
func (p *postings) candidates(cls []clause, st *stats, n int, allow func(*entry) bool) []string {
	if len(cls) == 0 || n <= 0 || st.docs == 0 {
		return nil
	}
	a := p.accumulator()
	defer p.scratch.Put(a)
	p.accumulate(a, cls, st)

	coord := 1 / float64(len(cls))
	top := a.top[:0]
	for _, d := range a.touched {
		if en := p.docs[d]; en == nil || (allow != nil && !allow(en)) {
			continue
		}
		s := a.cells[d].score(coord)
		if len(top) < n {
			heap.Push(&top, scoredDoc{s, d})
		} else if s > top[0].score {
			top[0] = scoredDoc{s, d}
			heap.Fix(&top, 0)
		}
	}
	a.top = top
	if len(top) == 0 {
		a.reset()
		return nil
	}
	cut := top[0].score
	if len(top) == n {
		cut -= math.Abs(cut) * candidateSlack
	} else {
		cut = math.Inf(-1) // fewer than n match: all are wanted
	}
	var ids []string
	for _, d := range a.touched {
		en := p.docs[d]
		if en == nil || a.cells[d].score(coord) < cut || (allow != nil && !allow(en)) {
			continue
		}
		ids = append(ids, en.cand.ToolID)
	}
	a.reset()
	slices.Sort(ids)
	return ids
}

// accumulate adds every clause's BM25 contribution into a, term at a time.
func (p *postings) accumulate(a *accumulator, cls []clause, st *stats) {
	k1, b := search.BM25_k1, search.BM25_b
	docs := float64(st.docs)
	// The query norm, as bleve's disjunction computes it from its clauses.
	var sumSq float64
	idfs := make([]float64, len(cls))
	for i, c := range cls {
		df := st.inField[indexedFields[c.field]][c.term]
		idfs[i] = math.Log(1 + (docs-float64(df)+0.5)/(float64(df)+0.5))
		w := c.boost * idfs[i]
		sumSq += w * w
	}
	qnorm := 1 / math.Sqrt(sumSq)
	for i, c := range cls {
		pl := p.lists[c.field][c.term]
		if pl == nil {
			continue
		}
		idf := idfs[i]
		weight := c.boost * idf * qnorm
		avg := math.Ceil(float64(len(st.inField[indexedFields[c.field]])) / docs)
		lens := p.lens[c.field]
		for j, d := range pl.docs {
			tf := sqrtTF[pl.tfs[j]]
			s := idf * (tf * k1) / (tf + k1*(1-b+b*lens[d]/avg))
			c := &a.cells[d]
			if c.matched == 0 {
				a.touched = append(a.touched, d)
			}
			c.sum += s * weight
			c.matched++
		}
	}
}

// sqrtTF is √tf for every stored frequency, as bleve's scorer takes it.
var sqrtTF = func() (t [256]float64) {
	for i := range t {
		t[i] = math.Sqrt(float64(i))
	}
	return t
}()

// accumulator is one search's scratch: a score and a clause count per
// document, and the documents touched, so that resetting costs what the
// search touched rather than the registry's size.
type accumulator struct {
	cells   []cell
	touched []uint32
	top     topDocs
}

// cell is one document's running sum and matched clauses, side by side
// because postings visit documents in no cache-friendly order: one miss
// per posting rather than two.
type cell struct {
	sum     float64
	matched uint32
}

// score is the disjunction's score: the sum scaled by the share of
// clauses matched (coord is 1/clauses).
func (c cell) score(coord float64) float64 {
	return c.sum * float64(c.matched) * coord
}

func (p *postings) accumulator() *accumulator {
	a, _ := p.scratch.Get().(*accumulator)
	if a == nil {
		a = &accumulator{}
	}
	if len(a.cells) < len(p.docs) {
		a.cells = make([]cell, len(p.docs)+len(p.docs)/8)
	}
	return a
}

func (a *accumulator) reset() {
	for _, d := range a.touched {
		a.cells[d] = cell{}
	}
	a.touched = a.touched[:0]
	a.top = a.top[:0]
}

type scoredDoc struct {
	score float64
	doc   uint32
}

// topDocs is a min-heap on score: its root is the weakest of the best.
type topDocs []scoredDoc

func (h topDocs) Len() int           { return len(h) }
func (h topDocs) Less(i, j int) bool { return h[i].score < h[j].score }
func (h topDocs) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *topDocs) Push(x any)        { *h = append(*h, x.(scoredDoc)) }
func (h *topDocs) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// scores are the BM25 scores of the text query cls for the tools ids that
// match it, as bleve would give them (rounded as searchIndex rounds); ok is
// false when a tool's term frequency saturated the count the postings keep,
// so that its score would not be bleve's.
func (p *postings) scores(cls []clause, st *stats, ids []string) (out map[string]float64, ok bool) {
	out = make(map[string]float64, len(ids))
	if len(cls) == 0 || st.docs == 0 {
		return out, true
	}
	a := p.accumulator()
	defer p.scratch.Put(a)
	defer a.reset()
	p.accumulate(a, cls, st)
	coord := 1 / float64(len(cls))
	for _, id := range ids {
		d, known := p.nums[id]
		if !known {
			continue
		}
		if p.docs[d].tfSaturated {
			return nil, false
		}
		if a.cells[d].matched > 0 {
			out[id] = math.Round(a.cells[d].score(coord)*1e9) / 1e9
		}
	}
	return out, true
}
