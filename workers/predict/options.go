package predict

import (
	"time"

	"github.com/toolyard/toolyard/workers/models/bundle"
)

type config struct {
	minWords     int
	maxPerIntent int
	debounce     time.Duration
	ttl          time.Duration
	maxSessions  int
	maxPending   int
	maxIntent    int
	contextWords int
	templates    *bundle.Templates
	phrasings    map[string]string
	minShare     float64
	minCount     int
	wordPrefixes bool
}

func defaultConfig() config {
	return config{
		minWords: 3, maxPerIntent: 8, debounce: 100 * time.Millisecond,
		ttl: 10 * time.Minute, maxSessions: 10000, maxPending: 64,
		maxIntent: 2000, contextWords: 32, minShare: 0.3, minCount: 3, wordPrefixes: true,
	}
}

// Option configures a Predictor.
type Option func(*config)

// WithMinWords sets how many words of an open marker must have streamed
// before its prefix is a prediction (default 3): fewer say too little to
// rank tools by.
func WithMinWords(n int) Option { return func(c *config) { c.minWords = max(1, n) } }

// WithMaxPerIntent sets K, the most prefix predictions (so searches) one
// intent gets (default 8): each costs a call to the embedder.
func WithMaxPerIntent(k int) Option { return func(c *config) { c.maxPerIntent = max(1, k) } }

// WithDebounce sets the least time between two prefix predictions of one
// intent (default 100ms): at 40 tokens/s a word comes every 30–40ms, and a
// search per word would spend the K searches on the first words.
func WithDebounce(d time.Duration) Option { return func(c *config) { c.debounce = max(0, d) } }

// WithTTL sets how long a session's state outlives its last chunk (default
// 10 minutes): an agent that never finishes its output costs memory only
// that long.
func WithTTL(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.ttl = d
		}
	}
}

// WithMaxSessions bounds the sessions followed at once (default 10000);
// the least recently active one is forgotten first.
func WithMaxSessions(n int) Option { return func(c *config) { c.maxSessions = max(1, n) } }

// WithMaxPending bounds the chunks held back waiting for an earlier one
// (default 64); past that the gap is given up on.
func WithMaxPending(n int) Option { return func(c *config) { c.maxPending = max(1, n) } }

// WithMaxIntentBytes bounds the text kept of an open marker (default 2000).
func WithMaxIntentBytes(n int) Option { return func(c *config) { c.maxIntent = max(16, n) } }

// WithTemplates turns on the context and next-tool predictions, learned by
// `toolyard train`; phrasings give, per tool, the text to search for when
// that tool is predicted (a learned intent of it, see Phrasings).
func WithTemplates(t *bundle.Templates, phrasings map[string]string) Option {
	return func(c *config) { c.templates, c.phrasings = t, phrasings }
}

// WithWordPrefixes turns the predictions at word ends on or off (default
// on); sentence-end predictions are always made. A word prefix misses the
// intent's last words, so it only answers under a match rule that allows
// missing words (Rule.MaxMissingWords).
func WithWordPrefixes(on bool) Option { return func(c *config) { c.wordPrefixes = on } }
