package discover

import (
	"slices"
	"strings"
	"sync"

	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/discover/vecindex"
)

// Soft term matching: a request often names what a tool does in other
// words than the tool's text ("weather forecast" for a tool that reports
// temperatures). BM25 and coverage see only shared terms; soft coverage
// also credits a query word by its best word-vector cosine to the tool's
// words, so a paraphrase counts for part of a match.
//
// A cosine counts above softFloor, scaled to [0,1] between it and 1:
// softFloor is the 99th percentile of the cosine of random pairs of the
// 50,000 most frequent words (0.36 for the shipped GloVe vectors), so a
// word only earns credit for a similarity that chance rarely gives. An
// exact term match counts 1, as in coverage.
const softFloor = 0.36

// softTable holds the word vectors of the registry's words, each word
// once. Words are added under the engine's write lock and read under its
// read lock. Removed tools' words stay: the table is bounded by the
// vocabulary (at most 100k words of 100 floats).
type softTable struct {
	lv   *embed.Local
	ids  map[string]int32
	vecs [][]float32
	pool sync.Pool // *softScratch
}

// softScratch holds one query's cosines: for each table word of the pool
// met so far (in met), its cosines to the query's describing words
// (cos[slot[id]*k:][:k]) and its best cosine to any of them (best).
type softScratch struct {
	met  vecindex.Marks[uint32]
	slot []int32
	best []float32
	cos  []float32
}

// newSoftTable returns nil unless the embedder has word vectors.
func newSoftTable(emb embed.Embedder) *softTable {
	lv, ok := emb.(*embed.Local)
	if !ok {
		return nil
	}
	return &softTable{lv: lv, ids: map[string]int32{}}
}

// add sets the entry's word ids, adding new words to the table.
func (s *softTable) add(en *entry) {
	ids := make([]int32, 0, len(en.words))
	en.wordVec = make([]int32, len(en.words))
	for i, w := range en.words {
		en.wordVec[i] = -1
		id, ok := s.ids[w]
		if !ok {
			v := s.lv.WordVector(w)
			if v == nil {
				continue
			}
			id = int32(len(s.vecs))
			s.vecs = append(s.vecs, v)
			s.ids[w] = id
		}
		ids = append(ids, id)
		en.wordVec[i] = id
	}
	en.wordIDs = ids
}

// vector returns a word's vector, nil when it has none.
func (s *softTable) vector(w string) []float32 {
	if id, ok := s.ids[w]; ok {
		return s.vecs[id]
	}
	return s.lv.WordVector(w)
}

// surfaceWords are the lower-cased words the text analyser keeps from
// text (content words, stop words dropped), unstemmed.
func (e *Engine) surfaceWords(text string) []string {
	if text == "" {
		return nil
	}
	toks := e.text.Analyze([]byte(text))
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		if t.Start >= 0 && t.End <= len(text) && t.Start < t.End {
			out = append(out, strings.ToLower(text[t.Start:t.End]))
		}
	}
	return out
}

// softCredit maps a cosine to the credit a query word earns.
func softCredit(cos float32) float64 {
	return clamp01((float64(cos) - softFloor) / (1 - softFloor))
}

// softCoverages sets each pooled tool's soft coverage and every
// candidate's softKnown: the idf-weighted share of the query's describing
// words the best tool of the pool matches, softly, per word. Without word
// vectors both fall back to their exact counterparts. exact says which
// tool has which describing term (coverages). Caller holds the read lock.
func (e *Engine) softCoverages(q parsedQuery, weights []float64, total float64, order []*pooled, exact []bool) {
	s := e.soft
	if s == nil || total <= 0 || len(q.describing) == 0 {
		for _, p := range order {
			p.soft, p.softKnown = p.coverage, p.known
		}
		e.toolCoverages(q, order, nil)
		return
	}
	k := len(q.describing)
	qv := make([][]float32, k)
	for i, t := range q.describing {
		qv[i] = s.vector(q.surface[t])
	}
	sc, _ := s.pool.Get().(*softScratch)
	if sc == nil {
		sc = &softScratch{}
	}
	if sc.met.Begin(len(s.vecs)) {
		sc.slot = make([]int32, sc.met.Len())
		sc.best = make([]float32, sc.met.Len())
	}
	sc.cos = sc.cos[:0]
	credit := make([][]float64, len(order))
	toolBest := make([]float32, k)
	// One pass over the pool's words: each table word's cosines to every
	// describing word are computed the first time a tool of the pool has
	// it, and each tool keeps, per describing word, its best.
	for j, p := range order {
		credit[j] = make([]float64, k)
		for i := range toolBest {
			toolBest[i] = -1
		}
		for _, id := range p.en.wordIDs {
			if sc.met.Visit(int(id)) {
				sc.slot[id] = int32(len(sc.cos) / k)
				sc.cos = slices.Grow(sc.cos, k)[:len(sc.cos)+k]
				sc.best[id] = cosines(qv, s.vecs[id], sc.cos[len(sc.cos)-k:])
			}
			for i, v := range sc.cos[int(sc.slot[id])*k:][:k] {
				toolBest[i] = max(toolBest[i], v)
			}
		}
		for i := range k {
			switch {
			case exact[j*k+i]:
				credit[j][i] = 1
			case qv[i] != nil:
				credit[j][i] = softCredit(toolBest[i])
			}
		}
	}
	e.toolCoverages(q, order, sc)
	s.pool.Put(sc)
	var known float64
	for i := range q.describing {
		var b float64
		for j := range order {
			b = max(b, credit[j][i])
		}
		known += weights[i] * b
	}
	for j, p := range order {
		var c float64
		for i := range q.describing {
			c += weights[i] * credit[j][i]
		}
		p.soft, p.softKnown = c/total, known/total
	}
}

// toolCoverages sets each pooled tool's tool coverage: the idf-weighted
// share of the tool's own words that the query matches, exactly or softly
// (the best word-vector credit of any describing query word). Coverage asks
// how much of the request a tool speaks to; this asks how much of what the
// tool does is what was asked. A tool that shares one common word with a
// request ("price" for a petrol-price tool asked about stock prices) covers
// little of the request's words and is itself barely covered. sc holds
// each table word's best cosine to the query words (softCoverages); without
// it (no word vectors) only exact matches count.
func (e *Engine) toolCoverages(q parsedQuery, order []*pooled, sc *softScratch) {
	// The describing terms by number; a term no tool's words contain has
	// none and cannot match one.
	asked := make([]int32, 0, len(q.describing))
	for _, t := range q.describing {
		if id, ok := e.stats.termIDs[t]; ok {
			asked = append(asked, id)
		}
	}
	for _, p := range order {
		var num, den float64
		for k, id := range p.en.wordTermIDs {
			if id < 0 {
				continue
			}
			w := e.stats.idfOf(id)
			den += w
			if slices.Contains(asked, id) {
				num += w
				continue
			}
			if sc == nil || k >= len(p.en.wordVec) {
				continue
			}
			// best is -1 (no credit) for a word no query word has a vector for.
			if v := p.en.wordVec[k]; v >= 0 && sc.met.Has(int(v)) {
				num += w * softCredit(sc.best[v])
			}
		}
		if den > 0 {
			p.toolCov = num / den
		}
	}
}

// cosines sets out[i] to the cosine of query word vector qv[i] to the
// table word vector v (-1 for a query word without a vector) and returns
// the best of them. Three query words at a time share one read of v.
func cosines(qv [][]float32, v []float32, out []float32) float32 {
	best := float32(-1)
	var three [3]float32
	for i := 0; i < len(qv); {
		if i+3 <= len(qv) && qv[i] != nil && qv[i+1] != nil && qv[i+2] != nil {
			vecindex.Dot3(qv[i], qv[i+1], qv[i+2], v, &three)
			copy(out[i:i+3], three[:])
			best = max(best, three[0], three[1], three[2])
			i += 3
			continue
		}
		out[i] = -1
		if qv[i] != nil {
			out[i] = dot(qv[i], v)
			best = max(best, out[i])
		}
		i++
	}
	return best
}

// dot is the inner product of two word vectors: the innermost loop of
// soft matching (query words × the pool's words, per query), so it takes
// the vector index's kernel (AVX2 with FMA where the CPU has it: 3.6× the
// portable loop at dimension 100).
func dot(a, b []float32) float32 { return vecindex.Dot(a, b) }
