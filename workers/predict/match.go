package predict

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// MinCosine is the least cosine between a real intent and a predicted one
// for the prediction's search to answer the real intent.
const MinCosine = 0.8

// MaxEntries bounds a session's prefetched searches: the newest are kept.
const MaxEntries = 8

// Entry is one prefetched search: the predicted intent, what it was
// searched with (registry and model version) and the candidates.
type Entry struct {
	MessageID string `json:"message_id,omitempty"`
	Marker    int    `json:"marker"`
	// TextSum and Words stand for the predicted text (Sum): the bucket
	// never holds what an agent wrote, which may name a secret.
	TextSum    string              `json:"text_sum"`
	Words      int                 `json:"words"`
	Source     string              `json:"source"`
	Confidence float64             `json:"confidence"`
	Registry   string              `json:"registry"`
	Model      string              `json:"model"`
	Candidates []schemas.Candidate `json:"candidates"`
	At         time.Time           `json:"at"`
	// Pending is set while the search runs: a lookup that matches it
	// may wait for it (Lookup).
	Pending bool `json:"pending,omitempty"`
}

// Slot is what the prefetch bucket holds per session: its newest entries,
// oldest first.
type Slot struct {
	Entries []Entry `json:"entries"`
}

// Add puts e in the slot, replacing an entry of the same text and dropping
// the oldest beyond MaxEntries.
func (s *Slot) Add(e Entry) {
	for i, old := range s.Entries {
		if old.TextSum == e.TextSum && old.Registry == e.Registry && old.Model == e.Model {
			s.Entries = append(s.Entries[:i], s.Entries[i+1:]...)
			break
		}
	}
	s.Entries = append(s.Entries, e)
	if n := len(s.Entries) - MaxEntries; n > 0 {
		s.Entries = append(s.Entries[:0], s.Entries[n:]...)
	}
}

// Vectorizer embeds a text as a unit vector (all zeros when it has nothing
// to embed). The match rule uses a local one: microseconds, where the
// search's own embedder may be a remote server.
type Vectorizer func(text string) []float32

// Rule is the match rule. The contract's part: the same registry and
// model version, and a cosine of at least MinCosine between the real and
// the predicted text (never below 0.8). MaxMissingWords is the stricter
// part that keeps answers unchanged: the prediction must be the real
// intent word for word but for at most that many of its last words; -1
// drops the condition.
type Rule struct {
	MinCosine       float64
	MaxMissingWords int
}

// DefaultRule answers only with a search of the real intent's exact words
// (case and whitespace aside for the cosine, not for the words): measured
// on MetaTool with the trained model, a prefix missing even one word
// ranked another tool first, or the same in another tier, for about one
// intent in five (docs/prefetch.md).
func DefaultRule() Rule { return Rule{MinCosine: MinCosine, MaxMissingWords: 0} }

// Sum is what an entry keeps of a predicted text: the SHA-256 of its
// words joined by single spaces, and how many words it has.
func Sum(text string) (sum string, words int) {
	ws := strings.Fields(text)
	h := sha256.Sum256([]byte(strings.Join(ws, " ")))
	return hex.EncodeToString(h[:]), len(ws)
}

// Match picks the entry that may answer the real intent under rule: the
// closest by cosine, and of equals the one with more words. An entry
// matches when it is of the real intent's words, or of all but at most
// rule.MaxMissingWords of its last words (-1: any number): the predicted
// text is then known from the real one, and the cosine is between the two.
// It returns the entry's index, -1 when none qualifies.
func Match(real string, entries []Entry, registry, model string, vec Vectorizer, rule Rule) (i int, cos float64) {
	minCos := max(rule.MinCosine, MinCosine)
	rw := strings.Fields(real)
	// The sums of real's word prefixes, longest first, as far as the rule
	// lets words be missing.
	missing := len(rw) - 1
	if rule.MaxMissingWords >= 0 {
		missing = min(missing, rule.MaxMissingWords)
	}
	prefixes := map[string]int{} // sum → words
	for m := 0; m <= missing; m++ {
		sum, _ := Sum(strings.Join(rw[:len(rw)-m], " "))
		prefixes[sum] = len(rw) - m
	}
	var rv []float32
	i, cos = -1, 0
	for k, e := range entries {
		if e.Registry != registry || e.Model != model {
			continue
		}
		n, ok := prefixes[e.TextSum]
		if !ok {
			continue
		}
		c := 1.0
		if n < len(rw) {
			if rv == nil {
				rv = vec(real)
			}
			c = cosine(rv, vec(strings.Join(rw[:n], " ")))
		}
		if c >= minCos && (i < 0 || c > cos || (c == cos && n > entries[i].Words)) {
			i, cos = k, c
		}
	}
	return i, cos
}

// cosine of two vectors, 0 when either is all zeros or their lengths differ.
func cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (sqrt(na) * sqrt(nb))
}
