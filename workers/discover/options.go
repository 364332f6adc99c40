package discover

import (
	"fmt"
	"math"
)

// FieldBoosts weigh a term match by where in the manifest it is found. A
// name says what a tool is; a parameter description mostly says what
// values look like, so it counts least.
type FieldBoosts struct {
	Name        float64
	Keywords    float64
	Examples    float64
	Description float64
	Params      float64
}

// DefaultFieldBoosts are the boosts New uses unless WithFieldBoosts says otherwise.
func DefaultFieldBoosts() FieldBoosts {
	return FieldBoosts{Name: 3, Keywords: 2, Examples: 1.5, Description: 1, Params: 0.5}
}

type config struct {
	topK          int
	boosts        FieldBoosts
	maxQueryTerms int
	compactAfter  int
}

func defaultConfig() config {
	return config{topK: 10, boosts: DefaultFieldBoosts(), maxQueryTerms: 48, compactAfter: 256}
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
// before it is rebuilt (default 256). The in-memory index adds a segment per
// change and never merges them, so search slows down as changes accumulate;
// a rebuild folds them back into one segment.
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
