package discover

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/discover/vecindex"
)

// defaultPool is how many tools each side proposes before fusion. Both
// sides put the right tool in their top 50 far more often than in their
// top 10 (MetaTool dev: keyword 0.76, vectors 0.83), and re-scoring 100
// candidates costs well under a millisecond.
const defaultPool = 50

// search answers a query in the engine's mode, falling back to keyword
// search for this query when the intent cannot be embedded.
func (e *Engine) search(ctx context.Context, text string, k int, f Filter) ([]schemas.Candidate, error) {
	return e.searchVectorsOf(ctx, text, text, k, f)
}

// searchVectorsOf is search with every vector of the request embedded from
// vecText: the request's own text, but in training/prefetch's experiments
// (a prefix's vectors with the whole intent's words).
func (e *Engine) searchVectorsOf(ctx context.Context, text, vecText string, k int, f Filter) ([]schemas.Candidate, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k <= 0 {
		k = e.cfg.topK
	}
	if err := e.strictCheck(ctx); err != nil {
		return nil, err
	}
	q := e.parse(text)
	vq := q // what the vectors are embedded from
	if vecText != text {
		vq = e.parse(vecText)
	}
	qv, qe, mode, err := e.embedQuery(ctx, vq, vecText)
	if err != nil {
		return nil, err
	}
	var um *usageModel
	var uq []float32
	if mode != ModeKeyword {
		um = e.usage.Load()
		if uq, err = e.usageQuery(ctx, um, vecText, qv, qe); err != nil {
			return nil, err
		}
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	// The vectors are of the words as written; the keyword side also
	// reads a tool name they spell apart (compound.go).
	q = e.withCompounds(q)
	allow := e.admit(f)
	if mode == ModeKeyword {
		return e.keywordSearch(ctx, q, k, allow)
	}
	return e.hybridSearch(ctx, q, vectorsOf{qv, qe, uq}, k, mode, allow, um)
}

// vectorsOf are a request's vectors: the word vectors' (qv), the sentence
// encoder's for the whole request and each part (qe, nil without one),
// and the usage model's side's (uq, usageside.go; nil without a model).
type vectorsOf struct {
	qv []float32
	qe [][]float32
	uq []float32
}

// embedQuery embeds a request for the engine's mode: the word vectors'
// query vector and the sentence encoder's (nil without one), and the mode
// the search goes on in (keyword when the embedder failed for this query).
func (e *Engine) embedQuery(ctx context.Context, q parsedQuery, text string) ([]float32, [][]float32, Mode, error) {
	mode := e.mode
	var qv []float32
	if mode != ModeKeyword {
		// Embedded before taking the lock: a remote embedder may take
		// a while, and updates must not wait for it.
		var err error
		qv, err = e.vec.query(ctx, e.vectorText(q, text, mode))
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, mode, ctx.Err()
			}
			if isStrict(ctx) {
				return nil, nil, mode, fmt.Errorf("%w: %w", ErrEmbedderFailed, err)
			}
			e.vec.degraded(e.cfg.log, "searching keyword-only", err)
			mode = ModeKeyword
		}
	}
	var qe [][]float32
	if mode == ModeHybrid && e.enc != nil {
		var err error
		if qe, err = e.enc.queries(ctx, text); err != nil {
			if ctx.Err() != nil {
				return nil, nil, mode, ctx.Err()
			}
			// The word vectors still serve: the query goes without the
			// encoder's term rather than without vectors.
			e.enc.degraded(e.cfg.log, "searching without the sentence encoder", err)
			qe = nil
		}
	}

	return qv, qe, mode, nil
}

// degraded reports, at most every warnInterval, that searches go on
// without this side (how: consequence) because its embedder failed.
func (v *vectors) degraded(log *slog.Logger, consequence string, err error) {
	ok, suppressed := v.warn.allow(time.Now())
	if !ok {
		return
	}
	log.Warn("discover: embedder failed, "+consequence,
		slog.String("embedder", v.emb.ID()), slog.Any("err", err), slog.Int64("suppressed_since_last", suppressed))
}

// pooled is one candidate of a hybrid search with the evidence of both sides.
type pooled struct {
	en *entry
	// kwRank and vecRank are the positions in each side's pool, -1 when
	// that side did not propose the tool.
	kwRank, vecRank int
	bm25, cosine    float64
	// encRank and encCosine are the sentence encoder's (WithEncoder):
	// encRank -1 when it did not propose the tool or there is none.
	encRank   int
	encCosine float64
	coverage  float64
	mention   float64
	// known is the query's own idf-weighted share of describing words that
	// any tool contains: low for requests about things no tool deals with.
	known float64
	// describing is log(1 + the number of the query's describing terms):
	// requests no tool serves are often long (pasted text, whole tasks).
	describing float64
	// soft is coverage with paraphrases credited by word-vector cosine,
	// softKnown the share of the query the pool's best tools match softly
	// (soft.go).
	soft, softKnown float64
	// toolCov is the share of the tool's own words the query matches,
	// softly (soft.go).
	toolCov float64
	// selfServe is how close the request is to what the agent does by
	// itself (selfserve.go), the same for every candidate.
	selfServe float64
	// The use* fields are the usage model's evidence, one per usage
	// signal (usage.go): 0 without one or without history for the tool.
	useClass, useVectorClass, useText, useTextVote, useNear, useVote float64
	// registry is log10(1 + the number of tools registered), the same for
	// every candidate.
	registry float64
	// phraseMatch: phrase.go.
	phraseMatch float64
	// asked are the kinds of effect the request asks of this tool, and
	// actionConflict says it names none of them (action.go).
	asked          actionKind
	actionConflict bool
	fused          float64
	conf           float64
}

// hybridSearch pools both sides' best tools, completes every pooled tool's
// evidence from the side that did not propose it, fuses and calibrates.
// Caller holds the read lock.
func (e *Engine) hybridSearch(ctx context.Context, q parsedQuery, vs vectorsOf, k int, mode Mode, allow func(*entry) bool, um *usageModel) ([]schemas.Candidate, error) {
	order, err := e.pooledRanking(ctx, q, vs, k, mode, allow, um)
	if err != nil {
		return nil, err
	}
	if len(order) == 0 {
		return []schemas.Candidate{}, nil
	}
	e.calibrationFor(um, order).confidences(order)
	if len(order) > k {
		order = order[:k]
	}
	out := make([]schemas.Candidate, len(order))
	for i, p := range order {
		c := p.en.cand
		c.Keywords = slices.Clone(c.Keywords)
		c.Score = p.fused
		c.Confidence = p.conf
		c.MatchType = matchType(p)
		if p.actionConflict {
			c.Mismatch = &schemas.EffectMismatch{Asked: p.asked.Names(), Names: p.en.actions.Names()}
		}
		out[i] = c
	}
	return out, nil
}

// pooledRanking pools both sides' best tools, completes every pooled
// tool's evidence from the side that did not propose it, and orders them by
// fused score. um is the usage model in force, nil without, and vs.uq the
// request's vector on its side. Caller holds the read lock.
func (e *Engine) pooledRanking(ctx context.Context, q parsedQuery, vs vectorsOf, k int, mode Mode, allow func(*entry) bool, um *usageModel) ([]*pooled, error) {
	qv, qe := vs.qv, vs.qe
	n := max(k, e.cfg.pool)
	registry := math.Log10(1 + float64(len(e.tools)))
	pool := map[string]*pooled{}
	var order []*pooled
	add := func(id string) *pooled {
		if p, ok := pool[id]; ok {
			return p
		}
		p := &pooled{en: e.tools[id], kwRank: -1, vecRank: -1, encRank: -1, registry: registry}
		pool[id] = p
		order = append(order, p)
		return p
	}

	ts := e.searchTerms(q)
	cls := e.textClauses(ts)
	var proposed []string
	var mentioned map[string]float64
	if len(cls) > 0 && mode != ModeVector {
		proposed = e.post.candidates(cls, e.stats, n, allow)
		mentioned = e.mentions(q.words, allow)
	}
	var f vecindex.Filter // nil: an approximate index then tests no tool
	if allow != nil {
		f = vecindex.AllowFunc(func(id string) bool {
			en := e.tools[id]
			return en != nil && allow(en)
		})
	}
	vhits, err := e.vectorHits(e.vec, qv, n, f)
	if err != nil {
		return nil, err
	}
	ehits, err := e.encoderHits(qe, n, f)
	if err != nil {
		return nil, err
	}
	var usage map[string]usageEvidence
	var usageCos []float32
	if um != nil {
		if usage, usageCos, err = e.proposeUsage(ctx, um, q.raw, vs.uq, n, allow, add); err != nil {
			return nil, err
		}
	}
	// Every tool either side proposed is scored on BM25 in one bleve
	// pass: the keyword side's candidates to rank them, the others so
	// that fusion compares every candidate on both sides.
	var bm25 map[string]float64
	if len(cls) > 0 {
		ids := slices.Clone(proposed)
		for _, h := range vhits {
			ids = append(ids, h.ID)
		}
		for _, h := range ehits {
			ids = append(ids, h.ID)
		}
		for id := range mentioned {
			ids = append(ids, id)
		}
		for _, p := range order { // proposed by the usage model
			ids = append(ids, p.en.cand.ToolID)
		}
		var err error
		if bm25, err = e.scoreText(ctx, cls, ids); err != nil {
			return nil, err
		}
	}
	for i, h := range bestText(proposed, bm25, n) {
		p := add(h.id)
		p.kwRank, p.bm25 = i, h.score
	}
	for id := range mentioned {
		add(id)
	}
	for i, h := range vhits {
		p := add(h.ID)
		p.vecRank, p.cosine = i, float64(h.Score)
	}
	for i, h := range ehits {
		p := add(h.ID)
		p.encRank, p.encCosine = i, float64(h.Score)
	}
	if len(order) == 0 {
		return nil, nil
	}
	for _, p := range order {
		if p.kwRank < 0 {
			p.bm25 = bm25[p.en.cand.ToolID]
		}
	}
	err = e.completeCosine(e.vec, oneVector(qv), pool, func(p *pooled) bool { return p.vecRank >= 0 }, func(p *pooled, c float64) { p.cosine = c })
	if err != nil {
		return nil, err
	}
	err = e.completeCosine(e.enc, qe, pool, func(p *pooled) bool { return p.encRank >= 0 }, func(p *pooled, c float64) { p.encCosine = c })
	if err != nil {
		return nil, err
	}
	e.coverages(q, order)
	e.phraseMatches(q, order)
	self := selfServe(e.abilities, qe)
	for _, p := range order {
		p.mention = mentioned[p.en.cand.ToolID]
		p.selfServe = self
		p.asked = q.askedOf(p.en)
		p.actionConflict = p.asked.conflicts(p.en.actions)
	}
	if um != nil {
		uq := vs.uq
		if uq != nil {
			uq = embed.Normalize(uq)
		}
		for _, p := range order {
			id := p.en.cand.ToolID
			ev := usage[id]
			p.useClass, p.useVectorClass, p.useText, p.useTextVote, p.useVote = ev.class, ev.vectorClass, ev.text, ev.textVote, ev.vote
			if uq != nil {
				p.useNear = um.near(id, uq, usageCos)
			}
		}
	}
	e.cfg.fusion.fuse(order, mode)
	if um != nil {
		um.fuse(order)
	}
	slices.SortStableFunc(order, func(a, b *pooled) int {
		if a.fused != b.fused {
			if a.fused > b.fused {
				return -1
			}
			return 1
		}
		if a.bm25 != b.bm25 {
			if a.bm25 > b.bm25 {
				return -1
			}
			return 1
		}
		return strings.Compare(a.en.cand.ToolID, b.en.cand.ToolID)
	})
	preferAskedAction(order)
	return order, nil
}

func matchType(p *pooled) string {
	switch {
	case p.kwRank >= 0 && p.vecRank >= 0:
		return schemas.MatchHybrid
	case p.vecRank >= 0:
		return schemas.MatchSemantic
	default:
		return schemas.MatchKeyword
	}
}

// encoderHits is vectorHits for the encoder's query vectors: each tool's
// best cosine to any of them, best first.
func (e *Engine) encoderHits(qe [][]float32, n int, f vecindex.Filter) ([]vecindex.Hit, error) {
	best := map[string]float32{}
	for _, qv := range qe {
		hits, err := e.vectorHits(e.enc, qv, n, f)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if s, ok := best[h.ID]; !ok || h.Score > s {
				best[h.ID] = h.Score
			}
		}
	}
	out := make([]vecindex.Hit, 0, len(best))
	for id, s := range best {
		out = append(out, vecindex.Hit{ID: id, Score: s})
	}
	slices.SortFunc(out, func(a, b vecindex.Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// oneVector is qv as a list of query vectors: none when qv is nil.
func oneVector(qv []float32) [][]float32 {
	if qv == nil {
		return nil
	}
	return [][]float32{qv}
}

// vectorHits returns side v's best n tools for query vector qv (none
// without either), leaving out tools no longer in the registry.
func (e *Engine) vectorHits(v *vectors, qv []float32, n int, f vecindex.Filter) ([]vecindex.Hit, error) {
	if v == nil || qv == nil {
		return nil, nil
	}
	hits, err := v.search(qv, n, f)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(hits, func(h vecindex.Hit) bool {
		return e.tools[h.ID] == nil // removed from the registry while the index still had it
	}), nil
}

// completeCosine gives the pooled tools side v did not propose their
// cosine on that side (set), so fusion compares every candidate on every
// side. With several query vectors (a request in parts) a tool's cosine is
// its best to any of them, which a tool proposed for one part may have to
// another, so every pooled tool is looked up. Caller holds the read lock.
func (e *Engine) completeCosine(v *vectors, qvs [][]float32, pool map[string]*pooled, proposed func(*pooled) bool, set func(*pooled, float64)) error {
	if v == nil || len(qvs) == 0 {
		return nil
	}
	var ids []string
	for _, p := range pool {
		if len(qvs) > 1 || !proposed(p) {
			ids = append(ids, p.en.cand.ToolID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	// Sorted, so that the vector index sees the same request for the
	// same query every time.
	slices.Sort(ids)
	best := make(map[string]float32, len(ids))
	for _, qv := range qvs {
		hits, err := v.search(qv, len(ids), vecindex.IDs(ids...))
		if err != nil {
			return err
		}
		for _, h := range hits {
			if s, ok := best[h.ID]; !ok || h.Score > s {
				best[h.ID] = h.Score
			}
		}
	}
	for id, s := range best {
		set(pool[id], float64(s))
	}
	return nil
}

// coverages sets each pooled tool's keyword coverage (see rank).
func (e *Engine) coverages(q parsedQuery, order []*pooled) {
	weights, total := e.describingWeights(q)
	var known float64
	for i, t := range q.describing {
		if e.stats.df[t] > 0 {
			known += weights[i]
		}
	}
	if total > 0 {
		known /= total
	}
	// exact[j*len(q.describing)+i]: tool j has describing term i. Soft
	// coverage needs the same matches.
	exact := make([]bool, len(order)*len(q.describing))
	nums := e.stats.termNums(q.describing)
	for j, p := range order {
		p.known = known
		p.describing = math.Log1p(float64(len(q.describing)))
		var covered float64
		for i, id := range nums {
			if p.en.hasTerm(id) {
				covered += weights[i]
				exact[j*len(q.describing)+i] = true
			}
		}
		if total > 0 {
			p.coverage = covered / total
		}
	}
	e.softCoverages(q, weights, total, order, exact)
	e.valueCoverages(q, order, total)
}
