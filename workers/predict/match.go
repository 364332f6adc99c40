package predict

import (
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
	MessageID  string              `json:"message_id,omitempty"`
	Marker     int                 `json:"marker"`
	Text       string              `json:"text"`
	Source     string              `json:"source"`
	Confidence float64             `json:"confidence"`
	Registry   string              `json:"registry"`
	Model      string              `json:"model"`
	Candidates []schemas.Candidate `json:"candidates"`
	At         time.Time           `json:"at"`
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
		if old.Text == e.Text && old.Registry == e.Registry && old.Model == e.Model {
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

// Match picks the entry that may answer the real intent: searched against
// the same registry and model version, with a text whose cosine with the
// real one is at least MinCosine; the closest, and of equals the newest
// (it saw more of the intent). ok is false when none qualifies.
func Match(real string, entries []Entry, registry, model string, vec Vectorizer) (best Entry, cos float64, ok bool) {
	norm := normalize(real)
	var rv []float32
	cos = -1
	for _, e := range entries {
		if e.Registry != registry || e.Model != model {
			continue
		}
		var c float64
		if normalize(e.Text) == norm {
			c = 1
		} else {
			if rv == nil {
				rv = vec(real)
			}
			c = cosine(rv, vec(e.Text))
		}
		if c >= MinCosine && c >= cos {
			best, cos, ok = e, c, true
		}
	}
	if !ok {
		cos = 0
	}
	return best, cos, ok
}

func normalize(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

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
