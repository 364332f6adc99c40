package discover

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/toolyard/toolyard/workers/discover/vecindex"
)

// Usage is the evidence a deployment's own history gives about its tools:
// the intents agents expressed when they wanted each tool (labelled by the
// training job from the audit stream, training/labels). Tools are often
// described in the words of their makers and asked for in the words of
// their users; the intents bridge the two. The engine reads them two ways,
// each a signal (signals.go) and a fused term with a fitted weight:
//
//   - usage_text: the request scored by BM25 against a separate bleve
//     field holding each tool's learned intents (document expansion, kept
//     apart from the tool's own text so it has a weight of its own and a
//     new model replaces it without re-indexing the registry);
//   - usage_near / usage_vote: the request's nearest learned intents by
//     the engine's embedder, the closest per tool and the share of the
//     nearest that were for the tool.
//
// A tool without history gets 0 on every usage signal, so the model only
// adds evidence; Calibration, when set, is the confidence model fitted with
// these signals and replaces the engine's while the usage is in force.
type Usage struct {
	// Version names the model the usage came from.
	Version string          `json:"version"`
	Intents []LearnedIntent `json:"intents"`
	Weights UsageWeights    `json:"weights"`
	// Neighbours is how many nearest learned intents vote (default 10).
	Neighbours  int          `json:"neighbours,omitempty"`
	Calibration *Calibration `json:"calibration,omitempty"`
}

// LearnedIntent is one intent an agent expressed for a tool.
type LearnedIntent struct {
	Tool string `json:"tool"`
	Text string `json:"text"`
}

// UsageWeights are the fused terms' weights (fusion adds terms in [0, 1]
// with weight 1 for the registry's own evidence).
type UsageWeights struct {
	Text float64 `json:"text"`
	Near float64 `json:"near"`
	Vote float64 `json:"vote"`
}

const usageField = "usage"

// usageModel is a Usage made searchable.
type usageModel struct {
	doc   Usage
	idx   bleve.Index
	vecs  vecindex.Index // learned intent vectors, ids "i<position>"; nil keyword-only
	tools []string       // tool of each learned intent, by position
	// byTool lists each tool's learned intents' positions.
	byTool map[string][]int
	vec    [][]float32
	calib  *calibModel
	k      int
}

// SetUsage puts a usage model in force (nil removes it): it is indexed
// first, then swapped in at once, so searches never wait for it and each
// search sees one model from start to end. Intents for tools the registry
// does not hold are kept (the tool may be imported later) and count for
// nothing until then.
func (e *Engine) SetUsage(ctx context.Context, u *Usage) error {
	if u == nil {
		if old := e.usage.Swap(nil); old != nil {
			old.close()
		}
		return nil
	}
	m, err := e.buildUsage(ctx, *u)
	if err != nil {
		return fmt.Errorf("discover: usage %q: %w", u.Version, err)
	}
	if old := e.usage.Swap(m); old != nil {
		old.close()
	}
	return nil
}

// UsageVersion is the version of the usage model in force, "" without one.
func (e *Engine) UsageVersion() string {
	if m := e.usage.Load(); m != nil {
		return m.doc.Version
	}
	return ""
}

func (e *Engine) buildUsage(ctx context.Context, u Usage) (*usageModel, error) {
	for _, w := range []float64{u.Weights.Text, u.Weights.Near, u.Weights.Vote} {
		if !finite(w) || w < 0 {
			return nil, fmt.Errorf("weights %+v: each must be a finite number ≥ 0", u.Weights)
		}
	}
	m := &usageModel{doc: u, byTool: map[string][]int{}, k: u.Neighbours}
	if m.k <= 0 {
		m.k = 10
	}
	if u.Calibration != nil {
		c, err := u.Calibration.compile()
		if err != nil {
			return nil, err
		}
		m.calib = c
	}
	texts := map[string][]string{}
	for i, in := range u.Intents {
		if in.Tool == "" || strings.TrimSpace(in.Text) == "" {
			return nil, fmt.Errorf("learned intent %d: tool and text are required", i)
		}
		m.tools = append(m.tools, in.Tool)
		m.byTool[in.Tool] = append(m.byTool[in.Tool], i)
		texts[in.Tool] = append(texts[in.Tool], in.Text)
	}
	idx, err := newUsageIndex(texts)
	if err != nil {
		return nil, err
	}
	m.idx = idx
	if e.vec != nil && len(u.Intents) > 0 {
		if err := m.embed(ctx, e.vec); err != nil {
			idx.Close()
			return nil, err
		}
	}
	return m, nil
}

// newUsageIndex indexes each tool's learned intents as one document of one
// field, analysed as tool text is, scored by BM25.
func newUsageIndex(texts map[string][]string) (bleve.Index, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	if err := addAnalyzers(im); err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = textAnalyzer
	im.StoreDynamic, im.IndexDynamic, im.DocValuesDynamic = false, false, false
	dm := bleve.NewDocumentStaticMapping()
	fm := bleve.NewTextFieldMapping()
	fm.Analyzer = textAnalyzer
	fm.Store, fm.IncludeTermVectors, fm.IncludeInAll, fm.DocValues = false, false, false, false
	dm.AddFieldMappingsAt(usageField, fm)
	im.DefaultMapping = dm
	if err := im.Validate(); err != nil {
		return nil, err
	}
	idx, err := bleve.NewMemOnly(mapping.IndexMapping(im))
	if err != nil {
		return nil, err
	}
	b := idx.NewBatch()
	for tool, ts := range texts {
		if err := b.Index(tool, map[string]any{usageField: strings.Join(ts, "\n")}); err != nil {
			idx.Close()
			return nil, err
		}
		if b.Size() >= 1000 {
			if err := idx.Batch(b); err != nil {
				idx.Close()
				return nil, err
			}
			b.Reset()
		}
	}
	if err := idx.Batch(b); err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

// embed puts every learned intent's vector into an index of their own, as
// the engine embeds a request: intents and requests are the same kind of
// text.
func (m *usageModel) embed(ctx context.Context, v *vectors) error {
	m.vec = make([][]float32, len(m.doc.Intents))
	ids := make([]string, 0, len(m.doc.Intents))
	vecs := make([][]float32, 0, len(m.doc.Intents))
	for i, in := range m.doc.Intents {
		qv, err := v.query(ctx, in.Text)
		if err != nil {
			return fmt.Errorf("embed learned intent %d: %w", i, err)
		}
		if qv == nil {
			continue
		}
		m.vec[i] = unit(qv)
		ids = append(ids, "i"+strconv.Itoa(i))
		vecs = append(vecs, qv)
	}
	if len(vecs) == 0 {
		return nil
	}
	idx, err := vecindex.NewAuto(len(vecs[0]), 0)
	if err != nil {
		return err
	}
	if err := idx.PutBatch(ids, vecs); err != nil {
		return err
	}
	m.vecs = idx
	return nil
}

func (m *usageModel) close() {
	if m.idx != nil {
		m.idx.Close()
	}
}

// usageEvidence is one tool's usage signals before fusion.
type usageEvidence struct{ text, near, vote float64 }

// evidence scores the request against the learned intents: the tools they
// propose (at most n by text, the tools of the k nearest intents) and each
// one's evidence. qv may be nil (keyword-only).
func (m *usageModel) evidence(ctx context.Context, text string, qv []float32, n int) (map[string]usageEvidence, error) {
	out := map[string]usageEvidence{}
	if strings.TrimSpace(text) != "" {
		q := bleve.NewMatchQuery(text)
		q.SetField(usageField)
		req := bleve.NewSearchRequestOptions(q, n, 0, false)
		res, err := m.idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("usage search: %w", err)
		}
		best := res.MaxScore
		for _, h := range res.Hits {
			if best > 0 {
				out[h.ID] = usageEvidence{text: h.Score / best}
			}
		}
	}
	if qv != nil && m.vecs != nil {
		hits, err := m.vecs.Search(qv, m.k, nil)
		if err != nil {
			return nil, fmt.Errorf("usage nearest intents: %w", err)
		}
		var total float64
		for _, h := range hits {
			total += math.Max(0, float64(h.Score))
		}
		for _, h := range hits {
			i, err := strconv.Atoi(strings.TrimPrefix(h.ID, "i"))
			if err != nil || i < 0 || i >= len(m.tools) {
				return nil, errors.New("usage nearest intents: corrupt index id " + h.ID)
			}
			ev := out[m.tools[i]]
			if total > 0 {
				ev.vote += math.Max(0, float64(h.Score)) / total
			}
			out[m.tools[i]] = ev
		}
	}
	return out, nil
}

// near is the cosine of qv to the tool's closest learned intent.
func (m *usageModel) near(tool string, qv []float32) float64 {
	best := 0.0
	for _, i := range m.byTool[tool] {
		if v := m.vec[i]; v != nil {
			best = math.Max(best, float64(dot(qv, v)))
		}
	}
	return best
}

// fuse adds the usage terms to every candidate's fused score.
func (m *usageModel) fuse(ps []*pooled) {
	w := m.doc.Weights
	for _, p := range ps {
		p.fused += w.Text*p.useText + w.Near*p.useNear + w.Vote*p.useVote
	}
}

// proposeUsage proposes the tools the usage model finds (those the filter
// admits and the registry holds) and sets every pooled tool's usage
// signals. Caller holds the read lock.
func (e *Engine) proposeUsage(ctx context.Context, m *usageModel, text string, qv []float32, n int, allow func(*entry) bool, add func(id string) *pooled) (map[string]usageEvidence, error) {
	ev, err := m.evidence(ctx, text, qv, n)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(ev))
	for id := range ev {
		ids = append(ids, id)
	}
	slices.Sort(ids) // pool order must not depend on map order
	for _, id := range ids {
		en := e.tools[id]
		if en == nil || (allow != nil && !allow(en)) {
			continue
		}
		add(id)
	}
	return ev, nil
}

// unit is v scaled to length 1, nil for nil or a zero vector.
func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return nil
	}
	inv := float32(1 / math.Sqrt(n))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}
