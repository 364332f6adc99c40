package parse

import (
	"bytes"

	"github.com/toolyard/toolyard/schemas"
)

const (
	callOpen  = "<tool_call"
	callClose = "</tool_call"
)

// callState tracks a <tool_call> element being read. Its content is data
// (JSON or XML parameters), never scanned for markers.
type callState struct {
	open  bool
	start int // absolute offset of "<"
	// tagEnd is the offset after the start tag's ">", 0 until found.
	tagEnd int
	scan   int  // where the search for the start tag's end or for the end tag resumes
	quote  byte // the quote of the attribute value the start-tag search is in
	// noCloser: a <tool_call> had no </tool_call> after it, so no later one
	// has either; they are reported at once instead of searched again.
	noCloser bool
}

// callStart matches "<tool_call" followed by whitespace, ">" or "/" at p.
func (s *scanner) callStart(p int) verdict {
	b := s.buf[p-s.base:]
	n := min(len(b), len(callOpen))
	if string(b[:n]) != callOpen[:n] {
		return no
	}
	if len(b) <= len(callOpen) {
		return s.undecided()
	}
	switch b[len(callOpen)] {
	case ' ', '\t', '\r', '\n', '>', '/':
		return yes
	}
	return no
}

// scanCall finds the end of the open <tool_call> and turns the element into
// a call or a problem.
func (s *scanner) scanCall() bool {
	t := &s.tc
	end := s.end()
	if t.tagEnd == 0 {
		q := t.scan
		for ; q < end; q++ {
			c := s.at(q)
			if t.quote != 0 {
				if c == t.quote {
					t.quote = 0
				}
				continue
			}
			if c == '"' || c == '\'' {
				t.quote = c
			} else if c == '>' {
				break
			}
		}
		t.scan = q
		if q == end {
			return s.callUnfinished()
		}
		t.tagEnd, t.scan = q+1, q+1
		if s.at(q-1) == '/' {
			s.emitCall(t.start, t.tagEnd, t.tagEnd, t.tagEnd)
			return true
		}
	}
	for {
		k := bytes.Index(s.buf[t.scan-s.base:], []byte(callClose))
		if k < 0 {
			// A partial "</tool_cal" at the end is looked at again.
			t.scan = max(t.scan, end-len(callClose)+1)
			return s.callUnfinished()
		}
		k += t.scan
		j := k + len(callClose)
		for pads := 0; j < end && isXMLSpace(s.at(j)) && pads <= maxPad; pads++ {
			j++
		}
		if j == end {
			t.scan = k
			return s.callUnfinished()
		}
		if s.at(j) == '>' {
			s.emitCall(t.start, t.tagEnd, k, j+1)
			return true
		}
		t.scan = k + 1
	}
}

// callUnfinished waits for more text; at the end of the output it reports
// the call as unterminated and scans the text after its "<tool_call" again
// as prose: an unclosed call must not swallow the intents that follow it.
func (s *scanner) callUnfinished() bool {
	if !s.final {
		return false
	}
	start := s.tc.start
	s.unclosedCall(start)
	s.tc = callState{noCloser: true}
	s.pos = start + len(callOpen)
	s.la = lookahead{}
	return true
}

func (s *scanner) unclosedCall(p int) {
	if s.roomForProblem(p) {
		s.addProblem(CodeUnterminated, p, msgUnclosedCall(p, s.excerpt(p, p+4*excerptRunes)))
	}
}

// emitCall decodes the element [start, end) whose start tag ends at tagEnd
// and whose end tag starts at closeStart.
func (s *scanner) emitCall(start, tagEnd, closeStart, end int) {
	s.tc = callState{}
	s.pos = end
	elem := s.buf[start-s.base : end-s.base]
	c, err := decodeCall(string(elem), tagEnd-start, closeStart-start)
	if err != nil {
		if s.roomForProblem(start) {
			s.addProblem(CodeBadToolCall, start, msgBadCall(start, s.excerpt(start, end), err))
		}
		return
	}
	index, ok := s.claim()
	if !ok {
		return
	}
	c.V = schemas.Version
	c.IntentID = s.meta.id(index)
	c.SessionID = s.meta.session
	c.MessageID = s.meta.message
	c.Direct = true
	c.Scope = s.meta.scope
	s.out.Calls = append(s.out.Calls, c)
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
