package parse

import (
	"github.com/toolyard/toolyard/schemas"
)

// verdict is the answer of a look at the text: yes, no, or "cannot tell
// until more of the stream arrives".
type verdict int8

const (
	no verdict = iota
	yes
	more
)

// scanner is the one state machine behind Parse and Stream. It walks buf
// once, left to right, in one of four modes (prose, inside markers, inside a
// fenced code block, inside a <tool_call>). When a decision needs text that
// has not arrived yet it stops at the start of the undecided token and is
// resumed there by the next chunk. The progress of an unbounded lookahead
// is kept in la (and in tc for calls), so however a token is split over
// chunks each byte is examined a bounded number of times. Parse is the same
// machine fed the whole text at once, so Parse and Stream cannot disagree
// on what they find.
type scanner struct {
	cfg  *config
	meta meta

	// buf holds the text from absolute offset base; pos is the absolute
	// position of the next byte to examine. A Stream drops the front of buf
	// it no longer needs; Parse holds the whole text.
	buf  []byte
	base int
	pos  int
	// whole is set when buf is the entire output and src the same text as a
	// string: contexts can then be substrings instead of copies.
	whole bool
	src   string
	// final: no more text will come, so "more" is never an answer.
	final bool

	frames []frame // open markers, outermost first
	fence  fenceState
	tc     callState
	la     lookahead
	bt     backtickIndex

	items     int // intents and calls numbered so far
	problems  int
	dropped   int // problems past maxProblems
	firstDrop int
	out       Parsed
	err       *Error
}

func (s *scanner) end() int { return s.base + len(s.buf) }

func (s *scanner) at(p int) byte { return s.buf[p-s.base] }

// undecided is the verdict at the end of the text so far: at the end of the
// output a pattern that has not matched yet never will.
func (s *scanner) undecided() verdict {
	if s.final {
		return no
	}
	return more
}

// run scans as far as the text allows.
func (s *scanner) run() {
	for s.err == nil {
		var switched bool
		switch {
		case s.fence.open:
			switched = s.scanFence()
		case s.tc.open:
			switched = s.scanCall()
		case len(s.frames) > 0:
			switched = s.scanBody()
		default:
			switched = s.scanProse()
		}
		if !switched {
			return
		}
	}
}

// finish scans the rest of the output and reports what is still open.
func (s *scanner) finish() {
	s.final = true
	s.run()
	if s.err != nil {
		return
	}
	if len(s.frames) > 0 {
		s.terminate(cutEnd, s.end())
	}
	if s.dropped > 0 {
		s.out.Problems = append(s.out.Problems, Problem{Code: CodeTooManyProblems, Pos: s.firstDrop, Message: msgTooManyProblems(s.dropped)})
	}
}

// take hands over what was found since the last take.
func (s *scanner) take() Parsed {
	out := s.out
	s.out = Parsed{}
	return out
}

// scanProse scans text outside markers, code and calls. It reports whether
// it switched mode; otherwise it has consumed the text or is waiting for more.
func (s *scanner) scanProse() bool {
	stop := s.cfg.prose
	for {
		b, i := s.buf, s.pos-s.base
		for i < len(b) && !stop[b[i]] {
			i++
		}
		if i >= len(b) {
			s.pos = s.end()
			return false
		}
		p := s.base + i
		switch b[i] {
		case '[':
			n, v := s.opener(p)
			switch v {
			case more:
				s.pos = p
				return false
			case yes:
				s.open(p, n)
				s.pos = p + n
				return true
			}
			s.pos = p + 1
		case '`', '~':
			next, v := s.proseCode(p)
			if v == more {
				s.pos = p
				return false
			}
			s.pos = next
			if s.fence.open {
				return true
			}
		case '<':
			switch s.callStart(p) {
			case more:
				s.pos = p
				return false
			case yes:
				if s.tc.noCloser {
					// No </tool_call> follows an earlier opener, so none
					// follows this one: report it and read on.
					s.unclosedCall(p)
					s.pos = p + len(callOpen)
					continue
				}
				s.tc = callState{open: true, start: p, scan: p + len(callOpen)}
				s.pos = p
				return true
			}
			s.pos = p + 1
		}
	}
}

// scanBody scans inside open markers: brackets balance, inner markers nest,
// inline code is opaque, and a blank line, a fence or a <tool_call> cuts
// every open marker. Intents are plain language: a call inside one is far
// more likely to follow a forgotten "]" than to belong to the intent, and
// read as intent text it would be lost.
func (s *scanner) scanBody() bool {
	stop := s.cfg.body
	for {
		b, i := s.buf, s.pos-s.base
		for i < len(b) && !stop[b[i]] {
			i++
		}
		if i >= len(b) {
			s.pos = s.end()
			return false
		}
		p := s.base + i
		switch b[i] {
		case '[':
			n, v := s.opener(p)
			switch v {
			case more:
				s.pos = p
				return false
			case yes:
				s.open(p, n)
				s.pos = p + n
				continue
			}
			s.frames[len(s.frames)-1].depth++
			s.pos = p + 1
		case ']':
			s.pos = p + 1
			if f := &s.frames[len(s.frames)-1]; f.depth > 0 {
				f.depth--
				continue
			}
			s.close(p)
			if s.err != nil {
				return false
			}
			if len(s.frames) == 0 {
				return true
			}
		case '`':
			next, v := s.codeSpan(p)
			if v == more {
				s.pos = p
				return false
			}
			s.pos = next
		case '<':
			switch s.callStart(p) {
			case more:
				s.pos = p
				return false
			case yes:
				s.terminate(cutCall, p)
				s.pos = p
				return true
			}
			s.pos = p + 1
		case '\n':
			v, cut := s.lineBreak(p + 1)
			if v == more {
				s.pos = p
				return false
			}
			s.pos = p + 1
			if v == yes {
				s.terminate(cut, p+1)
				return true
			}
		}
	}
}

// claim numbers the next intent or call, failing the output past the limit.
func (s *scanner) claim() (int, bool) {
	if s.items >= s.cfg.maxIntents {
		s.err = errTooMany(s.cfg.maxIntents)
		return 0, false
	}
	s.items++
	return s.items - 1, true
}

// roomForProblem counts a problem that will not be listed and says whether
// there is room to list it.
func (s *scanner) roomForProblem(pos int) bool {
	if s.problems < maxProblems {
		s.problems++
		return true
	}
	if s.dropped == 0 {
		s.firstDrop = pos
	}
	s.dropped++
	return false
}

func (s *scanner) addProblem(code string, pos int, msg string) {
	s.out.Problems = append(s.out.Problems, Problem{Code: code, Pos: pos, Message: msg})
}

func (s *scanner) addIntent(in schemas.Intent) {
	in.V = schemas.Version
	in.SessionID = s.meta.session
	in.MessageID = s.meta.message
	in.Conversation = s.meta.conversation
	in.Scope = s.meta.scope
	in.TimeZone = s.meta.timeZone
	s.out.Intents = append(s.out.Intents, in)
}
