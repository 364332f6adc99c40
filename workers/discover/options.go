package discover

import (
	"fmt"
	"log/slog"
	"math"

	"github.com/toolyard/toolyard/workers/discover/embed"
)

// FieldBoosts weigh a term match by where in the manifest it is found.
// The name field holds the tool's name and the last segment of its id;
// keywords also hold the server name; params hold parameter names, titles,
// descriptions and string enum values.
type FieldBoosts struct {
	Name        float64
	Keywords    float64
	Examples    float64
	Description float64
	Params      float64
}

// DefaultFieldBoosts are the boosts New uses unless WithFieldBoosts says
// otherwise. Names and keywords get less than 1, not more: BM25's length
// normalisation already makes a match in a two-word name count several
// times a match in a description. Measured with BM25 ranking alone, a name
// boost of 3 gave MetaTool hit@1 0.38, of 1 0.42, of 0.75 0.43, while
// Seal-Tools moved by a point or less.
func DefaultFieldBoosts() FieldBoosts {
	return FieldBoosts{Name: 0.75, Keywords: 0.75, Examples: 1, Description: 1, Params: 0.75}
}

type config struct {
	topK          int
	boosts        FieldBoosts
	maxQueryTerms int
	compactAfter  int

	embedder  embed.Embedder
	encoder   embed.Embedder
	cache     embed.Cache
	mode      Mode
	calib     *Calibration
	log       *slog.Logger
	pool      int
	available func(id string) bool
	// fusion picks the score fusion; tests compare the variants.
	fusion fusionKind
	// requestCache is how many request vectors a slow embedder keeps
	// (WithRequestCache).
	requestCache int
}

func defaultConfig() config {
	return config{
		topK: 10, boosts: DefaultFieldBoosts(), maxQueryTerms: 48, compactAfter: 64,
		pool: defaultPool, fusion: fusionDefault, requestCache: embed.QueryCacheSize,
	}
}

// Option configures an Engine.
type Option func(*config)

// WithTopK sets how many candidates Discover returns (default 10).
func WithTopK(k int) Option { return func(c *config) { c.topK = k } }

// WithFieldBoosts replaces the per-field boosts.
func WithFieldBoosts(b FieldBoosts) Option { return func(c *config) { c.boosts = b } }

// WithMaxQueryTerms caps the distinct terms a query searches with (default
// 48); a longer query keeps its rarest terms, which carry the most
// evidence, so pasted pages of text cost no more than a paragraph.
func WithMaxQueryTerms(n int) Option { return func(c *config) { c.maxQueryTerms = n } }

// WithCompactAfter sets how many Put and Remove calls the index absorbs
// before it is rebuilt in the background (default 64). Each update adds an
// index segment that slows every search a little; each rebuild costs about
// 130 µs of CPU per tool (1.3 s at 10k tools). See compaction in update.go.
func WithCompactAfter(n int) Option { return func(c *config) { c.compactAfter = n } }

// WithRequestCache sets how many distinct requests' vectors a slow
// embedder (remote, or the sentence encoder) keeps, so that a repeated
// request is not embedded again (embed.CachedQueries; default
// embed.QueryCacheSize). 0 embeds every request: for measuring an
// embedder's latency on every search.
func WithRequestCache(n int) Option { return func(c *config) { c.requestCache = max(n, 0) } }

// WithEmbedder adds the vector side: tools are embedded at New and Put,
// intents at search, and results of both sides are fused. Without it the
// engine is keyword-only.
func WithEmbedder(e embed.Embedder) Option { return func(c *config) { c.embedder = e } }

// WithEncoder adds a sentence encoder (embed.NewUSELite) beside the
// embedder: a second vector side whose cosine is one more fused term, a
// request in several sentences read part by part. It reads a request as a
// sentence where the embedder averages its words, and costs accordingly
// (milliseconds per text, against microseconds), so it is for registries
// where ranking quality matters more than latency. Unless WithCalibration
// says otherwise, the engine then uses DefaultEncoderCalibration. It needs
// WithEmbedder; hybrid searches use it, keyword and vector searches do not.
func WithEncoder(e embed.Embedder) Option { return func(c *config) { c.encoder = e } }

// WithVectorCache sets where tool vectors are cached by (embedder id,
// manifest content hash), so an unchanged tool is never embedded twice,
// across Puts and across workers sharing the cache. Default: a cache in
// process memory, and none for the local embedder, which recomputes a
// vector faster than a cache would look it up.
func WithVectorCache(cache embed.Cache) Option { return func(c *config) { c.cache = cache } }

// WithMode chooses the retrieval sides (default ModeAuto: hybrid with an
// embedder, keyword without).
func WithMode(m Mode) Option { return func(c *config) { c.mode = m } }

// WithCalibration replaces the shipped confidence model (see
// DefaultCalibration); SetCalibration swaps it later.
func WithCalibration(cal Calibration) Option { return func(c *config) { c.calib = &cal } }

// WithLogger sets where degraded searches are reported (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.log = l } }

// WithCandidatePool sets how many tools each side proposes before fusion
// (default 50). A right tool one side ranks low can still win on the other
// side's evidence only if it is in the pool.
func WithCandidatePool(n int) Option { return func(c *config) { c.pool = n } }

// WithAvailability filters out tools the predicate calls unavailable (a
// server down, a tool disabled), on every search. It is called under the
// engine's read lock and must not call back into the engine.
func WithAvailability(available func(id string) bool) Option {
	return func(c *config) { c.available = available }
}

func (c config) validate() error {
	if c.pool < 1 {
		return fmt.Errorf("candidate pool must be at least 1, got %d", c.pool)
	}
	if _, ok := modeNames[c.mode]; !ok {
		return fmt.Errorf("unknown mode %d", int(c.mode))
	}
	if c.calib != nil {
		if _, err := c.calib.compile(); err != nil {
			return err
		}
	}
	if c.topK < 1 {
		return fmt.Errorf("top-K must be at least 1, got %d", c.topK)
	}
	if c.maxQueryTerms < 1 {
		return fmt.Errorf("max query terms must be at least 1, got %d", c.maxQueryTerms)
	}
	if c.compactAfter < 1 {
		return fmt.Errorf("compact-after must be at least 1, got %d", c.compactAfter)
	}
	for _, b := range []struct {
		field string
		v     float64
	}{
		{"name", c.boosts.Name}, {"keywords", c.boosts.Keywords}, {"examples", c.boosts.Examples},
		{"description", c.boosts.Description}, {"params", c.boosts.Params},
	} {
		if b.v < 0 || math.IsNaN(b.v) || math.IsInf(b.v, 0) {
			return fmt.Errorf("boost of field %s must be a finite number >= 0, got %v", b.field, b.v)
		}
	}
	return nil
}
