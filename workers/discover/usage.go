package discover

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/discover/vecindex"
)

// Usage is the evidence a deployment's own history gives about its tools:
// the intents agents expressed when they wanted each tool (labelled by the
// training job from the audit stream, training/labels). Tools are often
// described in the words of their makers and asked for in the words of
// their users; the intents bridge the two. The engine reads them two ways,
// each a signal (signals.go) and a fused term with a fitted weight:
//
//   - usage_text: the request scored by BM25 against a separate field
//     holding each tool's learned intents (document expansion, kept apart
//     from the tool's own text so it has a weight of its own and a new
//     model replaces it without re-indexing the registry; usagetext.go);
//   - usage_text_vote: the share of the request's best BM25 matches among
//     single learned intents that were for the tool;
//   - usage_near / usage_vote: the request's nearest learned intents by
//     the engine's embedder, the closest per tool and the share of the
//     nearest that were for the tool;
//   - usage_class / usage_vector_class: P(tool | request) by classifiers
//     fitted on the learned intents, over the request's words
//     (classifier.go) and over its vector (vectorclass.go).
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
	Neighbours int `json:"neighbours,omitempty"`
	// Classifier, when set, gives usage_class: P(tool | request).
	Classifier *UsageClassifier `json:"classifier,omitempty"`
	// VectorClassifier, when set, gives usage_vector_class: P(tool |
	// request) over the request's vector as Encoder embeds it.
	VectorClassifier *VectorClassifier `json:"vector_classifier,omitempty"`
	Calibration      *Calibration      `json:"calibration,omitempty"`
	// Encoder is the id of the embedder (embed.Embedder.ID) that embeds
	// the learned intents and the request for usage_near and usage_vote:
	// the weights and calibration were fitted on its cosines, so a model
	// is refused by an engine that cannot embed with it (usageside.go)
	// rather than ranked with another embedder's. "" (models before it was
	// recorded): the engine's sentence encoder when it has one, else its
	// word vectors.
	Encoder string `json:"encoder,omitempty"`
	// Vectors, when set, are the learned intents as Encoder embedded them
	// (a stored model version carries them: workers/models/bundle), so
	// that putting the model in force embeds none of them again.
	Vectors *UsageVectors `json:"-"`
}

// UsageVectors are a usage model's learned intents embedded by its usage
// side's embedder, as unit vectors by intent position (nil for an intent
// with nothing to embed). Only a sentence encoder's or a remote embedder's
// are worth keeping: the word vectors embed an intent in microseconds.
type UsageVectors struct {
	Encoder string
	Dim     int
	Vectors [][]float32
}

// LearnedIntent is one intent an agent expressed for a tool.
type LearnedIntent struct {
	Tool string `json:"tool"`
	Text string `json:"text"`
}

// UsageWeights are the fused terms' weights (fusion adds terms in [0, 1]
// with weight 1 for the registry's own evidence).
type UsageWeights struct {
	Class    float64 `json:"class"`
	Text     float64 `json:"text"`
	TextVote float64 `json:"text_vote"`
	Near     float64 `json:"near"`
	Vote     float64 `json:"vote"`
	// VectorClass weighs usage_vector_class (0 in models without one).
	VectorClass float64 `json:"vector_class,omitempty"`
}

// minClassProposal is the classifier probability from which a tool joins
// the pool on the classifier's word alone.
const minClassProposal = 0.02

// usageModel is a Usage made searchable.
type usageModel struct {
	doc  Usage
	text *usageText
	// vecs are the learned intents' vectors, ids "i<position>", in a graph
	// index when there are too many to scan; nil otherwise (mat) or
	// keyword-only.
	vecs vecindex.Index
	// mat holds the learned intents' unit vectors row by position (m.vec
	// points into it) when there are few enough to compare the request
	// with every one: one pass then gives both the nearest intents (the
	// vote) and each tool's closest (near). Zero rows for intents without
	// a vector.
	mat []float32
	// dim is the learned intents' vectors' dimension.
	dim   int
	tools []string // tool of each learned intent, by position
	// byTool lists each tool's learned intents' positions.
	byTool map[string][]int
	vec    [][]float32
	calib  *calibModel
	k      int
	// side is what the intents were embedded with (usageside.go).
	side usageSide
}

// SetUsage puts a usage model in force (nil removes it): it is indexed
// first, then swapped in at once, so searches never wait for it and each
// search sees one model from start to end. Intents for tools the registry
// does not hold are kept (the tool may be imported later) and count for
// nothing until then.
func (e *Engine) SetUsage(ctx context.Context, u *Usage) error {
	if u == nil {
		e.usage.Store(nil)
		return nil
	}
	m, err := e.buildUsage(ctx, *u)
	if err != nil {
		return fmt.Errorf("discover: usage %q: %w", u.Version, err)
	}
	e.usage.Store(m)
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
	if err := u.Classifier.check(); err != nil {
		return nil, err
	}
	if err := u.VectorClassifier.check(); err != nil {
		return nil, err
	}
	for _, w := range []float64{u.Weights.Class, u.Weights.Text, u.Weights.TextVote, u.Weights.Near, u.Weights.Vote, u.Weights.VectorClass} {
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
	m.text = newUsageText(e.text, texts, u.Intents)
	var err error
	if m.side, err = e.usageSideFor(u.Encoder); err != nil {
		return nil, err
	}
	if m.side.v != nil && len(u.Intents) > 0 {
		if err := m.embed(ctx, m.side.v, e.usage.Load()); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// embed gives every learned intent its vector, as the engine embeds a
// request (intents and requests are the same kind of text), and makes them
// searchable: a matrix scanned whole below scanAllLimit, a graph index
// above. With a sentence encoder, intents already embedded with it keep
// their vectors: those the model carries (Usage.Vectors, a stored
// version), and those of the model in force (prev, nil without), since a
// new version repeats most of the last one's intents and the encoder takes
// milliseconds an intent (the word vectors microseconds: they embed afresh,
// as always). The graph index is given the unit vectors either way, so a
// version built after another ranks exactly as one built alone.
func (m *usageModel) embed(ctx context.Context, v *vectors, prev *usageModel) error {
	vec, put, dim, err := m.vectors(ctx, v, prev)
	if err != nil {
		return err
	}
	m.vec, m.dim = vec, dim // every intent has its place, a vector or not
	if dim == 0 {
		return nil
	}
	if c := m.doc.VectorClassifier; c != nil && c.Dim != dim {
		return fmt.Errorf("vector classifier reads %d dimensions, the embedder %s gives %d", c.Dim, v.emb.ID(), dim)
	}
	n := 0
	for _, x := range vec {
		if x != nil {
			n++
		}
	}
	if n < scanAllLimit {
		m.mat = make([]float32, len(m.vec)*dim)
		for i, x := range m.vec {
			if x != nil {
				row := m.mat[i*dim : (i+1)*dim : (i+1)*dim]
				copy(row, x)
				m.vec[i] = row
			}
		}
		return nil
	}
	ids := make([]string, 0, n)
	vecs := make([][]float32, 0, n)
	for i, x := range put {
		if m.vec[i] != nil {
			ids, vecs = append(ids, intentID(i)), append(vecs, x)
		}
	}
	idx, err := vecindex.NewAuto(dim, 0)
	if err != nil {
		return err
	}
	if err := idx.PutBatch(ids, vecs); err != nil {
		return err
	}
	m.vecs = idx
	return nil
}

// vectors are the learned intents' unit vectors by position (nil for an
// intent with nothing to embed), what a graph index is given for each (the
// word vectors' raw ones, else the unit ones), and their dimension (0 when
// none has a vector); embed says whose vectors are reused.
func (m *usageModel) vectors(ctx context.Context, v *vectors, prev *usageModel) (vec, put [][]float32, dim int, err error) {
	words := m.side.kind == sideWords
	known := map[string][]float32{}
	stored := 0
	if !words {
		maps.Copy(known, prev.vectorsBy(v.emb.ID()))
		if stored, err = m.doc.Vectors.addTo(known, v.emb.ID(), m.doc.Intents); err != nil {
			return nil, nil, 0, err
		}
	}
	fresh, err := embedDistinct(ctx, v, m.doc.Intents, known)
	if err != nil {
		return nil, nil, 0, err
	}
	vec = make([][]float32, len(m.doc.Intents))
	put = make([][]float32, len(m.doc.Intents))
	n := 0
	for i, in := range m.doc.Intents {
		nv, ok := known[in.Text]
		put[i] = nv
		if !ok {
			qv := fresh[in.Text]
			if qv == nil {
				continue
			}
			nv, put[i] = embed.Normalize(qv), qv
			if !words {
				put[i] = nv
			}
		}
		vec[i] = nv
		n, dim = n+1, len(nv)
	}
	if n == 0 {
		return vec, put, 0, nil
	}
	// Stored vectors must be the embedder's own: when none was embedded
	// afresh, one intent is, to show the embedder's dimension.
	if stored > 0 && len(fresh) == 0 {
		probe, err := v.embedText(ctx, m.doc.Intents[0].Text)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("embed learned intent 0: %w", err)
		}
		if probe != nil {
			dim = len(probe)
		}
	}
	for i, x := range vec {
		if x != nil && len(x) != dim {
			return nil, nil, 0, fmt.Errorf("learned intent %d's vector has %d dimensions, the embedder %s gives %d", i, len(x), v.emb.ID(), dim)
		}
	}
	return vec, put, dim, nil
}

// embedDistinct embeds each distinct text of the intents that known lacks,
// once, on every core: with a sentence encoder or a remote embedder this is
// most of a model's load time. A nil vector: nothing to embed.
func embedDistinct(ctx context.Context, v *vectors, intents []LearnedIntent, known map[string][]float32) (map[string][]float32, error) {
	first := map[string]int{} // each text's first intent, for errors
	var todo []string
	for i, in := range intents {
		if _, ok := known[in.Text]; ok {
			continue
		}
		if _, ok := first[in.Text]; !ok {
			first[in.Text] = i
			todo = append(todo, in.Text)
		}
	}
	got := make([][]float32, len(todo))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for j, text := range todo {
		g.Go(func() error {
			qv, err := v.embedText(gctx, text)
			if err != nil {
				return fmt.Errorf("embed learned intent %d: %w", first[text], err)
			}
			got[j] = qv
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make(map[string][]float32, len(todo))
	for j, text := range todo {
		out[text] = got[j]
	}
	return out, nil
}

// addTo adds the stored vectors to known, by intent text, when they are
// the learned intents' as the embedder with id embeds them, and says how
// many it added.
func (uv *UsageVectors) addTo(known map[string][]float32, id string, intents []LearnedIntent) (int, error) {
	if uv == nil || uv.Encoder != id {
		return 0, nil
	}
	if len(uv.Vectors) != len(intents) {
		return 0, fmt.Errorf("stored vectors: %d for %d learned intents", len(uv.Vectors), len(intents))
	}
	n := 0
	for i, v := range uv.Vectors {
		if v == nil {
			continue
		}
		if len(v) != uv.Dim {
			return 0, fmt.Errorf("stored vector %d has %d components, not %d", i, len(v), uv.Dim)
		}
		known[intents[i].Text] = v
		n++
	}
	return n, nil
}

// UsageVectors are the learned intents' unit vectors of the usage model in
// force, as its usage side embedded them (nil without one, or
// keyword-only). Only a sentence encoder's or a remote embedder's are worth
// storing with a version: the word vectors embed an intent in
// microseconds. They are the model's own, shared: read them, never write
// them.
func (e *Engine) UsageVectors() *UsageVectors {
	m := e.usage.Load()
	if m == nil || m.side.v == nil || len(m.vec) == 0 {
		return nil
	}
	return &UsageVectors{Encoder: m.side.v.emb.ID(), Dim: m.dim, Vectors: m.vec}
}

// LearnedVectors are u's learned intents' unit vectors as SetUsage would
// embed them (reusing the model in force's, and u's stored ones, of the
// same embedder), without putting u in force or indexing them: training
// fits the vector classifier on them first. nil when u embeds nothing
// (keyword-only, or no intents).
func (e *Engine) LearnedVectors(ctx context.Context, u *Usage) (*UsageVectors, error) {
	side, err := e.usageSideFor(u.Encoder)
	if err != nil || side.v == nil || len(u.Intents) == 0 {
		return nil, err
	}
	m := &usageModel{doc: *u, side: side}
	vec, _, dim, err := m.vectors(ctx, side.v, e.usage.Load())
	if err != nil || dim == 0 {
		return nil, err
	}
	return &UsageVectors{Encoder: side.v.emb.ID(), Dim: dim, Vectors: vec}, nil
}

// vectorsBy are the unit vectors of m's learned intents by text, when
// the embedder with id embedded them (none otherwise, or without m). They
// are shared, never written.
func (m *usageModel) vectorsBy(id string) map[string][]float32 {
	if m == nil || m.side.v == nil || m.side.v.emb.ID() != id {
		return nil
	}
	out := make(map[string][]float32, len(m.vec))
	for i, v := range m.vec {
		if v != nil {
			out[m.doc.Intents[i].Text] = v
		}
	}
	return out
}

// scanAllLimit is how many learned intent vectors a request is compared
// with one by one, as the vector index's exact side does below its graph
// threshold; more go in a graph index.
const scanAllLimit = 100_000

// cosines is the cosine of the unit request vector uq to every learned
// intent, by position (0 for intents without a vector).
func (m *usageModel) cosines(uq []float32) []float32 {
	out := make([]float32, len(m.vec))
	for i := range out {
		if m.vec[i] != nil {
			out[i] = dot(uq, m.mat[i*m.dim:(i+1)*m.dim])
		}
	}
	return out
}

// usageEvidence is one tool's usage signals before fusion.
type usageEvidence struct{ class, vectorClass, text, textVote, vote float64 }

// evidence scores the request against the learned intents: the tools they
// propose (at most n by text, the tools of the k nearest intents) and each
// one's evidence. qv may be nil (keyword-only).
// With every learned intent compared (usageModel.mat), cos is the request's
// cosine to each, for near; nil otherwise.
func (e *Engine) usageEvidence(ctx context.Context, m *usageModel, text string, qv []float32, n int) (out map[string]usageEvidence, cos []float32, err error) {
	out = map[string]usageEvidence{}
	// Every tool the classifier knows gets its probability; the usage
	// model proposes those of them it finds otherwise, and the probable ones.
	for tool, p := range m.doc.Classifier.probabilities(e.ClassifierTerms(text)) {
		out[tool] = usageEvidence{class: p}
	}
	if qterms := terms(e.text, text); len(qterms) > 0 {
		hits, best := m.text.search(usageFieldTools, qterms, n)
		for _, h := range hits {
			if best > 0 {
				tool := strings.TrimPrefix(h.id, "t")
				ev := out[tool]
				ev.text = h.score / best
				out[tool] = ev
			}
		}
		hits, _ = m.text.search(usageFieldIntents, qterms, m.k)
		var total float64
		for _, h := range hits {
			total += h.score
		}
		for _, h := range hits {
			if total <= 0 {
				continue
			}
			ev := out[m.tools[h.doc]]
			ev.textVote += h.score / total
			out[m.tools[h.doc]] = ev
		}
	}
	if qv == nil {
		return out, nil, nil
	}
	uq := embed.Normalize(qv)
	if c := m.doc.VectorClassifier; c != nil {
		for k, p := range c.probabilities(uq) {
			ev := out[c.Tools[k]]
			ev.vectorClass = p
			out[c.Tools[k]] = ev
		}
	}
	var near []textHit // the k nearest learned intents, best first
	switch {
	case m.mat != nil:
		cos = m.cosines(uq)
		near = m.nearest(cos)
	case m.vecs != nil:
		hits, err := m.vecs.Search(qv, m.k, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("usage nearest intents: %w", err)
		}
		for _, h := range hits {
			i, err := strconv.Atoi(strings.TrimPrefix(h.ID, "i"))
			if err != nil || i < 0 || i >= len(m.tools) {
				return nil, nil, errors.New("usage nearest intents: corrupt index id " + h.ID)
			}
			near = append(near, textHit{doc: i, id: h.ID, score: float64(h.Score)})
		}
	}
	var total float64
	for _, h := range near {
		total += math.Max(0, h.score)
	}
	for _, h := range near {
		ev := out[m.tools[h.doc]]
		if total > 0 {
			ev.vote += math.Max(0, h.score) / total
		}
		out[m.tools[h.doc]] = ev
	}
	return out, cos, nil
}

// nearest are the k learned intents with the highest cosines, best first,
// ties by id as the vector index breaks them.
func (m *usageModel) nearest(cos []float32) []textHit {
	top := make(weakestFirst, 0, m.k)
	for i, c := range cos {
		if m.vec[i] != nil {
			top.offer(m.k, i, float64(c), intentID)
		}
	}
	return top.best()
}

// intentID is a learned intent's id: ties between equally near intents go
// by it, as the vector index breaks them.
func intentID(i int) string { return "i" + strconv.Itoa(i) }

// calibrationFor is the confidence model for a ranking: the usage model's
// when the top tool has history (its calibration was fitted on tools with
// history, and says nothing of the others), the engine's otherwise — so a
// registry, or a part of one, without history is calibrated as before.
func (e *Engine) calibrationFor(um *usageModel, order []*pooled) *calibModel {
	if um != nil && um.calib != nil && len(order) > 0 && len(um.byTool[order[0].en.cand.ToolID]) > 0 {
		return um.calib
	}
	return e.calibration()
}

// near is the cosine of qv to the tool's closest learned intent (at least
// 0), read from cos when the request was compared with every intent.
func (m *usageModel) near(tool string, qv []float32, cos []float32) float64 {
	best := 0.0
	for _, i := range m.byTool[tool] {
		switch v := m.vec[i]; {
		case v == nil:
		case cos != nil:
			best = math.Max(best, float64(cos[i]))
		default:
			best = math.Max(best, float64(dot(qv, v)))
		}
	}
	return best
}

// fuse adds the usage terms to every candidate's fused score.
func (m *usageModel) fuse(ps []*pooled) {
	w := m.doc.Weights
	for _, p := range ps {
		p.fused += w.Class*p.useClass + w.VectorClass*p.useVectorClass + w.Text*p.useText + w.TextVote*p.useTextVote + w.Near*p.useNear + w.Vote*p.useVote
	}
}

// proposeUsage proposes the tools the usage model finds (those the filter
// admits and the registry holds) and sets every pooled tool's usage
// signals. Caller holds the read lock.
func (e *Engine) proposeUsage(ctx context.Context, m *usageModel, text string, qv []float32, n int, allow func(*entry) bool, add func(id string) *pooled) (map[string]usageEvidence, []float32, error) {
	ev, cos, err := e.usageEvidence(ctx, m, text, qv, n)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, 0, len(ev))
	for id, u := range ev {
		if u.text > 0 || u.textVote > 0 || u.vote > 0 || u.class >= minClassProposal || u.vectorClass >= minClassProposal {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids) // pool order must not depend on map order
	for _, id := range ids {
		en := e.tools[id]
		if en == nil || (allow != nil && !allow(en)) {
			continue
		}
		add(id)
	}
	return ev, cos, nil
}
