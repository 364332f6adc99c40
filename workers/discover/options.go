package discover

import (
	"fmt"
	"math"
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
}

func defaultConfig() config {
	return config{topK: 10, boosts: DefaultFieldBoosts(), maxQueryTerms: 48, compactAfter: 64}
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

func (c config) validate() error {
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
