package discover

import (
	"cmp"
	"container/heap"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search"
)

// usageText is the usage model's keyword side: BM25 over two fields, each
// tool's learned intents together (usage_text, document expansion) and
// each learned intent alone (the nearest intents by text vote).
//
// Why not a bleve index, as the registry has: a request shares a few
// common words with most learned intents, and bleve's disjunction walks
// every posting of them through its searcher heap, then looks up each
// match's external id to break ties by id. At 200,000 learned intents
// that was tens of milliseconds a request, paid by every discovery in
// serving and by every ranked example in training. A model never changes
// once built, so its postings are flat arrays scored term at a time into
// one accumulator, as postings.go does for the registry.
//
// The arithmetic is bleve's BM25 for a match query (one term query per
// analysed token, repeats included, in a disjunction), as it was when this
// was a bleve index holding both fields' documents, so trained weights
// keep their meaning: idf over the documents of both fields, the average
// length ⌈distinct terms of the field / documents⌉, the field length
// bleve recovers from its float32 norm, the query norm over every clause
// and the coordination factor. Scores are rounded to 1e-9, so that sums
// taken in another order compare equal, and ties go by document id.
type usageText struct {
	fields [2]textField // by usageFieldTools, usageFieldIntents
	// docs is how many documents both fields hold together: bleve's
	// document count, which its idf uses for every field.
	docs    int
	scratch sync.Pool // *accumulator
}

// The two fields of usageText.
const (
	usageFieldTools   = iota // a tool's learned intents, one document per tool
	usageFieldIntents        // one learned intent per document
)

// textField is one field's postings.
type textField struct {
	lists map[string]*textPostings
	// ids are the documents' ids ("t<tool>", "i<position>"), the tie-break.
	ids []string
	// norms are each document's k1·(1 − b + b·length/average length),
	// BM25's length normalisation, with the length bleve's norm gives
	// back.
	norms []float64
}

// textPostings are the documents holding a term and its frequency in each.
type textPostings struct {
	docs []uint32
	tfs  []uint32
}

// textHit is a document of a usageText field and its score.
type textHit struct {
	doc   int
	id    string
	score float64
}

// newUsageText indexes the tools' learned intents (texts, by tool) and
// every intent alone, analysed as tool text is.
func newUsageText(a analysis.Analyzer, texts map[string][]string, intents []LearnedIntent) *usageText {
	u := &usageText{docs: len(texts) + len(intents)}
	tools := slices.Sorted(func(yield func(string) bool) {
		for t := range texts {
			if !yield(t) {
				return
			}
		}
	})
	toolTerms := analyseAll(a, len(tools), func(i int) string { return strings.Join(texts[tools[i]], "\n") })
	intentTerms := analyseAll(a, len(intents), func(i int) string { return intents[i].Text })
	u.fields[usageFieldTools] = newTextField(toolTerms, u.docs, func(i int) string { return "t" + tools[i] })
	u.fields[usageFieldIntents] = newTextField(intentTerms, u.docs, func(i int) string { return "i" + strconv.Itoa(i) })
	return u
}

// analyseAll is the terms of n texts, analysed on every core.
func analyseAll(a analysis.Analyzer, n int, text func(int) string) [][]string {
	out := make([][]string, n)
	workers := min(runtime.GOMAXPROCS(0), max(1, n/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				out[i] = terms(a, text(i))
			}
		})
	}
	wg.Wait()
	return out
}

func newTextField(docTerms [][]string, docs int, id func(int) string) textField {
	f := textField{lists: map[string]*textPostings{}, ids: make([]string, len(docTerms)), norms: make([]float64, len(docTerms))}
	counts := map[string]uint32{}
	for d, ts := range docTerms {
		f.ids[d] = id(d)
		clear(counts)
		for _, t := range ts {
			counts[t]++
		}
		// Postings in document order whatever the map's order: the sums
		// into a document are then always added in the same order.
		for _, t := range slices.Sorted(func(yield func(string) bool) {
			for t := range counts {
				if !yield(t) {
					return
				}
			}
		}) {
			pl := f.lists[t]
			if pl == nil {
				pl = &textPostings{}
				f.lists[t] = pl
			}
			pl.docs = append(pl.docs, uint32(d))
			pl.tfs = append(pl.tfs, counts[t])
		}
	}
	// bleve's average length: the field's distinct terms per document of
	// the whole index, rounded up.
	avg := math.Ceil(float64(len(f.lists)) / float64(max(docs, 1)))
	k1, b := search.BM25_k1, search.BM25_b
	for d, ts := range docTerms {
		f.norms[d] = k1 * (1 - b + (b * bleveFieldLength(uint32(len(ts))) / avg))
	}
	return f
}

// search is the n best documents of the field for the query terms (the
// request analysed, repeats included), best first, ties by id, and the
// best score.
func (u *usageText) search(field int, qterms []string, n int) ([]textHit, float64) {
	f := &u.fields[field]
	if len(qterms) == 0 || n <= 0 || len(f.ids) == 0 {
		return nil, 0
	}
	a, _ := u.scratch.Get().(*accumulator)
	if a == nil {
		a = &accumulator{}
	}
	defer u.scratch.Put(a)
	if len(a.cells) < len(f.ids) {
		a.cells = make([]cell, max(len(f.ids), len(u.fields[0].ids), len(u.fields[1].ids)))
	}
	defer a.reset()

	docs := float64(u.docs)
	idfs := make([]float64, len(qterms))
	var sumSq float64
	for i, t := range qterms {
		df := 0
		if pl := f.lists[t]; pl != nil {
			df = len(pl.docs)
		}
		idfs[i] = math.Log(1 + (docs-float64(df)+0.5)/(float64(df)+0.5))
		sumSq += idfs[i] * idfs[i]
	}
	qnorm := 1 / math.Sqrt(sumSq)
	for i, t := range qterms {
		pl := f.lists[t]
		if pl == nil {
			continue
		}
		idf := idfs[i]
		weight := idf * qnorm
		k1 := search.BM25_k1
		for j, d := range pl.docs {
			var tf float64
			if n := pl.tfs[j]; n < uint32(len(sqrtTF)) {
				tf = sqrtTF[n]
			} else {
				tf = math.Sqrt(float64(n))
			}
			s := idf * (tf * k1) / (tf + f.norms[d])
			c := &a.cells[d]
			if c.matched == 0 {
				a.touched = append(a.touched, d)
			}
			c.sum += s * weight
			c.matched++
		}
	}
	coord := 1 / float64(len(qterms))
	top := make(weakestFirst, 0, min(n, len(a.touched)))
	id := func(d int) string { return f.ids[d] }
	for _, d := range a.touched {
		top.offer(n, int(d), math.Round(a.cells[d].score(coord)*1e9)/1e9, id)
	}
	hits := top.best()
	if len(hits) == 0 {
		return nil, 0
	}
	return hits, hits[0].score
}

// weakestFirst keeps the n best hits (byTextRank) in a heap whose root is
// the weakest kept.
type weakestFirst []textHit

// offer keeps document doc with score if it is among the n best so far;
// its id is read only when it is.
func (h *weakestFirst) offer(n, doc int, score float64, id func(int) string) {
	if len(*h) == n {
		if w := (*h)[0]; score < w.score || score == w.score && id(doc) > w.id {
			return
		}
		(*h)[0] = textHit{doc: doc, id: id(doc), score: score}
		heap.Fix(h, 0)
		return
	}
	heap.Push(h, textHit{doc: doc, id: id(doc), score: score})
}

// best is what was kept, best first.
func (h weakestFirst) best() []textHit {
	slices.SortFunc(h, byTextRank)
	return h
}

func (h weakestFirst) Len() int           { return len(h) }
func (h weakestFirst) Less(i, j int) bool { return byTextRank(h[i], h[j]) > 0 }
func (h weakestFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *weakestFirst) Push(x any)        { *h = append(*h, x.(textHit)) }
func (h *weakestFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// byTextRank orders hits best first, ties by id.
func byTextRank(a, b textHit) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}
