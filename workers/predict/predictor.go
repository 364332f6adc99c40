package predict

import (
	"container/list"
	"fmt"
	"slices"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/models/bundle"
)

// Sources of a prediction.
const (
	SourcePrefix  = "prefix"
	SourceContext = "context"
	SourceNext    = "next"
	// SourceEnd is the open marker's whole text at a sentence end.
	SourceEnd = "end"
)

// Prediction is an intent the agent is likely about to express: the text
// to search for now, why, and how sure the predictor is.
type Prediction struct {
	SessionID string `json:"session_id"`
	MessageID string `json:"message_id"`
	// Marker is which marker of the message it is for, from 0.
	Marker int    `json:"marker"`
	Text   string `json:"text"`
	Source string `json:"source"`
	// Tool is the predicted tool of a context or next prediction.
	Tool       string  `json:"tool,omitempty"`
	Confidence float64 `json:"confidence"`
}

// Predictor follows sessions' streams. It is not safe for concurrent use:
// the stage gives each session's chunks to one goroutine in order (or
// locks around it).
type Predictor struct {
	cfg      config
	sessions map[string]*list.Element
	lru      *list.List // of *sessionState, most recently active first
	stats    FeedStats
}

// FeedStats counts what happened to chunks.
type FeedStats struct {
	Chunks, Duplicates, Stale, Gaps, Evicted, Expired int64
}

type sessionState struct {
	id      string
	message string
	// old are the last messages the session moved on from.
	old      []string
	next     uint64            // the seq expected next
	pending  map[uint64]string // chunks that came early
	sc       *scanner
	lastTool string
	seen     time.Time
	// per open intent: prefix predictions made, when the last one was,
	// and its text (a prediction is made only when the text grew).
	made     int
	lastAt   time.Time
	lastText string
}

// New returns a Predictor.
func New(opts ...Option) *Predictor {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	return &Predictor{cfg: cfg, sessions: map[string]*list.Element{}, lru: list.New()}
}

// Stats returns the chunk counters so far.
func (p *Predictor) Stats() FeedStats { return p.stats }

// Sessions is how many sessions are followed now.
func (p *Predictor) Sessions() int { return len(p.sessions) }

// Feed takes one chunk received at now and returns the predictions it
// (and any held-back chunks it releases) give rise to. A chunk of an
// earlier message than the session's current one, or one already seen, is
// dropped; a chunk that comes early is held back until its predecessors
// arrive or too many are held back, when the gap is given up on.
func (p *Predictor) Feed(now time.Time, c schemas.StreamChunk) ([]Prediction, error) {
	if c.SessionID == "" {
		return nil, fmt.Errorf("predict: chunk %d of message %q has no session id", c.Seq, c.MessageID)
	}
	p.stats.Chunks++
	s := p.session(now, c.SessionID)
	if c.MessageID != s.message {
		if slices.Contains(s.old, c.MessageID) {
			// A late chunk of a message the session has moved on from.
			p.stats.Stale++
			return nil, nil
		}
		p.startMessage(s, c.MessageID)
	}
	switch {
	case c.Seq < s.next:
		p.stats.Duplicates++
		return nil, nil
	case c.Seq > s.next:
		if _, dup := s.pending[c.Seq]; dup {
			p.stats.Duplicates++
			return nil, nil
		}
		s.pending[c.Seq] = c.Delta
		if len(s.pending) <= p.cfg.maxPending {
			return nil, nil
		}
		// Too much held back: give up on the gap, and on the marker it
		// may have been in, and go on from the earliest chunk held.
		p.stats.Gaps++
		first := c.Seq
		for q := range s.pending {
			first = min(first, q)
		}
		s.next = first
		s.sc.reset()
		s.made, s.lastText = 0, ""
		return p.drain(now, s), nil
	}
	s.pending[c.Seq] = c.Delta
	return p.drain(now, s), nil
}

// Observe records that a session ran tool: the next-tool templates start
// from it.
func (p *Predictor) Observe(now time.Time, sessionID, tool string) {
	p.session(now, sessionID).lastTool = tool
}

// Finish ends a message of a session: its output was published whole, so
// what was held back for it is dropped and its late chunks are stale, not
// the start of more predictions (their searches would come after the real
// one). The session, its last tool and its earlier messages stay.
func (p *Predictor) Finish(sessionID, messageID string) {
	el, ok := p.sessions[sessionID]
	if !ok || messageID == "" {
		return
	}
	s := el.Value.(*sessionState)
	if s.message != messageID {
		if !slices.Contains(s.old, messageID) {
			// Its chunks have not come yet, or never will: they are stale.
			s.old = append(s.old, messageID)
			if len(s.old) > maxOld {
				s.old = s.old[1:]
			}
		}
		return
	}
	p.startMessage(s, "")
}

// End forgets a session (it ended).
func (p *Predictor) End(sessionID string) {
	if el, ok := p.sessions[sessionID]; ok {
		p.lru.Remove(el)
		delete(p.sessions, sessionID)
	}
}

// Sweep forgets the sessions idle for longer than the TTL and returns how
// many it forgot.
func (p *Predictor) Sweep(now time.Time) int {
	n := 0
	for el := p.lru.Back(); el != nil; {
		s := el.Value.(*sessionState)
		if now.Sub(s.seen) <= p.cfg.ttl {
			break
		}
		prev := el.Prev()
		p.lru.Remove(el)
		delete(p.sessions, s.id)
		el = prev
		n++
	}
	p.stats.Expired += int64(n)
	return n
}

func (p *Predictor) session(now time.Time, id string) *sessionState {
	if el, ok := p.sessions[id]; ok {
		s := el.Value.(*sessionState)
		s.seen = now
		p.lru.MoveToFront(el)
		return s
	}
	for len(p.sessions) >= p.cfg.maxSessions {
		old := p.lru.Back()
		p.lru.Remove(old)
		delete(p.sessions, old.Value.(*sessionState).id)
		p.stats.Evicted++
	}
	s := &sessionState{id: id, seen: now, pending: map[uint64]string{}, sc: newScanner(p.cfg.maxIntent, p.cfg.contextWords)}
	p.sessions[id] = p.lru.PushFront(s)
	return s
}

// maxOld is how many earlier messages of a session are remembered, so
// their late chunks are dropped rather than restart the session.
const maxOld = 4

// startMessage makes message the session's current one ("": none, until
// the next chunk names one).
func (p *Predictor) startMessage(s *sessionState, message string) {
	if s.message != "" {
		s.old = append(s.old, s.message)
		if len(s.old) > maxOld {
			s.old = s.old[1:]
		}
	}
	s.message, s.next = message, 0
	clear(s.pending)
	s.sc = newScanner(p.cfg.maxIntent, p.cfg.contextWords)
	s.made, s.lastText = 0, ""
}

// drain applies the chunks that are next in order.
func (p *Predictor) drain(now time.Time, s *sessionState) []Prediction {
	var out []Prediction
	for {
		d, ok := s.pending[s.next]
		if !ok {
			return out
		}
		delete(s.pending, s.next)
		s.next++
		// Words that complete in one chunk arrive at once: only the
		// chunk's last word gives a prefix prediction.
		grew, ended := false, false
		for i := 0; i < len(d); i++ {
			switch s.sc.step(d[i]) {
			case evOpened:
				s.made, s.lastText, s.lastAt = 0, "", time.Time{}
				grew, ended = false, false
				out = append(out, p.templatePredictions(s)...)
			case evWord:
				grew, ended = true, false
			case evEnd:
				ended = i == len(d)-1
			case evClosed:
				s.made, s.lastText = 0, ""
				grew, ended = false, false
			}
		}
		if ended {
			if pr, ok := p.endPrediction(s); ok {
				out = append(out, pr)
			}
		} else if grew {
			if pr, ok := p.prefixPrediction(now, s); ok {
				out = append(out, pr)
			}
		}
	}
}

// prefixPrediction is the open marker's text so far, when it says enough,
// has grown since the last one, the debounce interval has passed and the
// intent has predictions left.
func (p *Predictor) prefixPrediction(now time.Time, s *sessionState) (Prediction, bool) {
	sc := s.sc
	if !p.cfg.wordPrefixes || sc.overflow || sc.words < p.cfg.minWords || s.made >= p.cfg.maxPerIntent-min(endReserve, p.cfg.maxPerIntent/2) {
		return Prediction{}, false
	}
	if !s.lastAt.IsZero() && now.Sub(s.lastAt) < p.cfg.debounce {
		return Prediction{}, false
	}
	text := sc.prefix()
	if text == "" || text == s.lastText {
		return Prediction{}, false
	}
	s.made++
	s.lastAt, s.lastText = now, text
	// The more of an intent has been seen, the likelier its search is the
	// real one's: a dozen words is a typical whole request.
	conf := min(1, float64(sc.words)/12)
	return Prediction{SessionID: s.id, MessageID: s.message, Marker: sc.markers - 1, Text: text, Source: SourcePrefix, Confidence: conf}, true
}

// endReserve is how many of an intent's K predictions (at most half) are
// kept for sentence ends: the likeliest points where the intent is complete.
const endReserve = 2

// endPrediction is the open marker's whole text when its last chunk ended
// a sentence: the intent may be complete, and if the "]" comes next the
// prediction is the real intent word for word. No debounce: it is the
// prediction most worth its search.
func (p *Predictor) endPrediction(s *sessionState) (Prediction, bool) {
	sc := s.sc
	if sc.overflow || sc.words+1 < p.cfg.minWords || s.made >= p.cfg.maxPerIntent {
		return Prediction{}, false
	}
	text := sc.text()
	if text == "" || text == s.lastText {
		return Prediction{}, false
	}
	s.made++
	s.lastText = text
	return Prediction{SessionID: s.id, MessageID: s.message, Marker: sc.markers - 1, Text: text, Source: SourceEnd, Confidence: 1}, true
}

// SetTemplates replaces the templates and phrasings (a new model version);
// nil turns the template predictions off.
func (p *Predictor) SetTemplates(t *bundle.Templates, phrasings map[string]string) {
	p.cfg.templates, p.cfg.phrasings = t, phrasings
}
