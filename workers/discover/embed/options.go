package embed

import (
	"fmt"
	"math"
)

// localConfig holds the settings of a Local embedder.
type localConfig struct {
	sifA        float64
	common      int
	ngramWeight float64
	vocab       int
	subwords    bool
	whiten      bool
	data        []byte
}

// The default SIF a is the one the vector file was built for (0 here).
func defaultLocalConfig() localConfig {
	return localConfig{common: 1, ngramWeight: 1, subwords: true, whiten: true}
}

// LocalOption configures a Local embedder.
type LocalOption func(*localConfig)

// WithSIF sets SIF's a (default: the file's, 3e-4): a word of probability
// p weighs a/(a+p), so the smaller a, the less frequent words count.
func WithSIF(a float64) LocalOption { return func(c *localConfig) { c.sifA = a } }

// WithCommonComponents sets how many of the file's common components are
// removed from every vector (default 1, SIF's choice; 0 keeps them).
func WithCommonComponents(n int) LocalOption { return func(c *localConfig) { c.common = n } }

// WithNgramWeight scales the vector a word outside the vocabulary gets from
// its character n-grams (default 1; 0 ignores such words).
func WithNgramWeight(w float64) LocalOption { return func(c *localConfig) { c.ngramWeight = w } }

// WithVocabLimit uses only the n most frequent words of the file and treats
// the rest as unknown (default 0: all of them).
func WithVocabLimit(n int) LocalOption { return func(c *localConfig) { c.vocab = n } }

// WithSubwords turns splitting unknown words into known ones
// (airquality → air quality) on or off (default on).
func WithSubwords(on bool) LocalOption { return func(c *localConfig) { c.subwords = on } }

// WithWhitening turns whitening on or off (default on): sentence vectors
// are multiplied by the inverse square root of their second moment, so
// every direction of meaning counts alike in a cosine. The file ships the
// matrix for its default SIF a and component count; other settings
// compute it when the embedder is made, which takes about a second.
func WithWhitening(on bool) LocalOption { return func(c *localConfig) { c.whiten = on } }

// WithVectors uses the given vector file (the format of cmd/embedconv)
// instead of the one compiled into the binary.
func WithVectors(b []byte) LocalOption { return func(c *localConfig) { c.data = b } }

func (c localConfig) validate(ncommon int) error {
	switch {
	case !(c.sifA >= 0) || math.IsInf(c.sifA, 0):
		return fmt.Errorf("SIF a must be positive (or 0 for the file's), got %g", c.sifA)
	case c.common < 0 || c.common > ncommon:
		return fmt.Errorf("common components to remove must be in [0, %d] (what the vector file ships), got %d", ncommon, c.common)
	case c.ngramWeight < 0 || math.IsNaN(c.ngramWeight) || math.IsInf(c.ngramWeight, 0):
		return fmt.Errorf("n-gram weight must be a finite number ≥ 0, got %g", c.ngramWeight)
	case c.vocab < 0:
		return fmt.Errorf("vocabulary limit must be ≥ 0, got %d", c.vocab)
	}
	return nil
}
