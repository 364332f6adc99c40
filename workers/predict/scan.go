package predict

import "strings"

// scanner follows one message's text byte by byte and knows, at every
// point, whether a "[TOOL:" marker is open and what it says so far. It keeps
// the open intent (capped) and the last words before it, never the whole
// message.
type scanner struct {
	maxIntent int
	maxWords  int

	// maybe holds the bytes of a possible opener ("[", pads, "tool", pads)
	// not yet decided; outside a marker only.
	maybe []byte
	open  bool
	depth int // plain brackets opened inside the marker
	// intent is the marker's text so far, whitespace runs as one space.
	intent []byte
	// words counts the marker's completed words; overflow is set when the
	// intent outgrew maxIntent (then it is not predicted any more).
	words    int
	overflow bool
	// word is the word being written outside a marker; before the last
	// completed words there (context for the templates).
	word   []byte
	before []string
	// markers counts the markers opened in this message.
	markers int
}

// event is what one byte changed.
type event int

const (
	evNone   event = iota
	evOpened       // a marker opened
	evWord         // a word of the open marker completed
	evClosed       // the marker closed
	evEnd          // a sentence of the open marker ended (?, ! or .)
)

func newScanner(maxIntent, maxWords int) *scanner {
	return &scanner{maxIntent: maxIntent, maxWords: maxWords}
}

// reset forgets any open marker: after a gap in the chunks the text in
// between is unknown, so nothing is predicted until the next opener.
func (s *scanner) reset() {
	s.maybe, s.open, s.depth, s.intent, s.words, s.overflow, s.word = s.maybe[:0], false, 0, s.intent[:0], 0, false, s.word[:0]
}

// prefix is the open marker's text up to its last completed word.
func (s *scanner) prefix() string {
	t := string(s.intent)
	if i := strings.LastIndexByte(t, ' '); i >= 0 {
		return strings.TrimSpace(t[:i])
	}
	return ""
}

// step feeds one byte.
func (s *scanner) step(b byte) event {
	if s.open {
		return s.inside(b)
	}
	if len(s.maybe) > 0 || b == '[' {
		return s.opener(b)
	}
	s.outside(b)
	return evNone
}

// opener grows the undecided opener by b and decides it when it can.
func (s *scanner) opener(b byte) event {
	s.maybe = append(s.maybe, b)
	switch st := openerState(s.maybe); st {
	case openerYes:
		s.maybe = s.maybe[:0]
		s.open, s.depth, s.intent, s.words, s.overflow = true, 0, s.intent[:0], 0, false
		s.flushWord()
		s.markers++
		return evOpened
	case openerNo:
		// Not an opener: its bytes are text; a "[" among them may start one.
		rest := append([]byte(nil), s.maybe[1:]...)
		s.maybe = s.maybe[:0]
		s.outside('[')
		var ev event
		for _, c := range rest {
			if e := s.step(c); e != evNone {
				ev = e
			}
		}
		return ev
	}
	return evNone
}

type openerVerdict int

const (
	openerMaybe openerVerdict = iota
	openerYes
	openerNo
)

// maxPad is how many spaces or tabs the opener may have around "TOOL", as
// the parser allows.
const maxPad = 16

// openerState decides "[", pads, "TOOL" in any case, pads, ":".
func openerState(b []byte) openerVerdict {
	i, pads := 1, 0
	for ; i < len(b) && (b[i] == ' ' || b[i] == '\t'); i++ {
		if pads++; pads > maxPad {
			return openerNo
		}
	}
	for k := 0; k < 4; k++ {
		if i >= len(b) {
			return openerMaybe
		}
		if b[i]|0x20 != "tool"[k] {
			return openerNo
		}
		i++
	}
	for pads = 0; i < len(b) && (b[i] == ' ' || b[i] == '\t'); i++ {
		if pads++; pads > maxPad {
			return openerNo
		}
	}
	if i >= len(b) {
		return openerMaybe
	}
	if b[i] != ':' {
		return openerNo
	}
	return openerYes
}

// outside collects the words before a marker.
func (s *scanner) outside(b byte) {
	if isSpace(b) || b == '.' || b == ',' || b == ';' || b == '!' || b == '?' {
		s.flushWord()
		return
	}
	if len(s.word) < 64 {
		s.word = append(s.word, b)
	}
}

func (s *scanner) flushWord() {
	if len(s.word) == 0 {
		return
	}
	s.before = append(s.before, strings.ToLower(string(s.word)))
	if len(s.before) > s.maxWords {
		s.before = s.before[len(s.before)-s.maxWords:]
	}
	s.word = s.word[:0]
}

// inside grows the open marker's text.
func (s *scanner) inside(b byte) event {
	switch {
	case b == '[':
		s.depth++
	case b == ']' && s.depth > 0:
		s.depth--
	case b == ']':
		s.open = false
		return evClosed
	}
	if isSpace(b) {
		if len(s.intent) > 0 && s.intent[len(s.intent)-1] != ' ' {
			s.intent = append(s.intent, ' ')
			s.words++
			return evWord
		}
		return evNone
	}
	if len(s.intent) >= s.maxIntent {
		s.overflow = true
		return evNone
	}
	s.intent = append(s.intent, b)
	if b == '?' || b == '!' || b == '.' {
		return evEnd
	}
	return evNone
}

// text is the open marker's whole text so far.
func (s *scanner) text() string { return strings.TrimSpace(string(s.intent)) }

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
