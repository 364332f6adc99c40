package parse

import (
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

// Stream parses an output that arrives in chunks, as the agent writes it.
//
// Write returns the items that the chunk completed: an intent as soon as its
// closing "]" arrives, a call as soon as its </tool_call> arrives. What can
// hold an item back: a backtick earlier on the same line with no closing
// backtick yet (the item may turn out to be inline code) and a line that
// starts like a code fence (it may turn out to be one), both until the end
// of that line; and a "<tool_call" with no </tool_call> yet (what follows
// it may be its parameters).
//
// Positions are offsets in the whole streamed text, and indices and ids are
// numbered as Parse numbers them: the items of every Write and of Close,
// concatenated, are what Parse finds in the whole text, problems included,
// except for ContextAfter, which holds only the text that had arrived when
// the intent was emitted (possibly none), and Outer, which is not set: an
// inner intent is emitted before its outer one has an id (its DependsOn,
// emitted later, names it).
//
// Memory is bounded: a Stream keeps a context window of text, plus the open
// marker's paragraph or the open call, not the whole output. Every byte is
// examined a bounded number of times however the text is chunked. The
// limits of the Parser apply to the whole streamed text.
//
// A Stream is not safe for concurrent use.
type Stream struct {
	sc scanner
	// partial holds the first bytes of a UTF-8 character split by a chunk.
	partial []byte
	total   int
	err     error
	closed  bool
}

// compactMin is the least amount of dead text worth moving the buffer for.
const compactMin = 4 << 10

// NewStream starts parsing a streamed output.
func (p *Parser) NewStream(sessionID, messageID string) *Stream {
	return p.NewStreamFor(schemas.AgentOutput{SessionID: sessionID, MessageID: messageID})
}

// NewStreamFor is NewStream for an output whose conversation and scope are
// known up front: its intents carry them as Parse's do. out.Text is ignored.
func (p *Parser) NewStreamFor(out schemas.AgentOutput) *Stream {
	m, _ := p.cfg.metaOf(out)
	st := &Stream{sc: scanner{cfg: &p.cfg, meta: m}}
	if err := checkMessageID(out.MessageID); err != nil {
		st.err = err
	} else if n := conversationBytes(out.Conversation); n > p.cfg.maxConvBytes {
		st.err = errConversationTooLarge(n, p.cfg.maxConvBytes, p.cfg.intentConv)
	}
	return st
}

// Write adds the next chunk of the output and returns the items it
// completed, in order. Chunks may split the text anywhere, even inside a
// UTF-8 character.
//
// An error (an *Error, or ErrClosed) fails the whole output: the call
// returns no items and every later Write returns the same error. Items
// returned by earlier Writes have been handed out all the same; the caller
// decides what to do with them.
func (st *Stream) Write(chunk string) (Parsed, error) {
	if st.err != nil {
		return Parsed{}, st.err
	}
	if st.closed {
		return Parsed{}, ErrClosed
	}
	s := &st.sc
	st.total += len(chunk)
	if st.total > s.cfg.maxTextBytes {
		return st.fail(errTooLarge(st.total, s.cfg.maxTextBytes, true))
	}
	from := len(s.buf)
	s.buf = append(s.buf, st.partial...)
	s.buf = append(s.buf, chunk...)
	cut := from + completeRunes(s.buf[from:])
	st.partial = append(st.partial[:0], s.buf[cut:]...)
	s.buf = s.buf[:cut]
	if !utf8.Valid(s.buf[from:]) {
		return st.fail(errInvalidUTF8(s.base + from + firstInvalid(string(s.buf[from:]))))
	}
	s.run()
	if s.err != nil {
		return st.fail(s.err)
	}
	st.compact()
	return s.take(), nil
}

// Close ends the output: it returns what the end decides (markers still open
// become CodeUnterminated problems; held-back items are released).
//
// Close has no error result: when the end fails the whole output (too many
// intents, a UTF-8 character cut short), Close returns no items and one
// Problem with the Error's code at the end of the text, and Err reports the
// *Error. After a failed Write, or a first Close, Close returns nothing.
func (st *Stream) Close() Parsed {
	if st.err != nil || st.closed {
		return Parsed{}
	}
	st.closed = true
	s := &st.sc
	if len(st.partial) > 0 {
		return st.failAtClose(errInvalidUTF8(s.end()), s.end())
	}
	s.finish()
	if s.err != nil {
		return st.failAtClose(s.err, s.end())
	}
	return s.take()
}

// Err is the error that failed the stream, if any.
func (st *Stream) Err() error { return st.err }

// Buffered is how many bytes of text the Stream holds: the context window
// and whatever open marker or call is still undecided.
func (st *Stream) Buffered() int { return len(st.sc.buf) + len(st.partial) }

func (st *Stream) fail(err *Error) (Parsed, error) {
	st.err = err
	st.sc.out = Parsed{}
	return Parsed{}, err
}

func (st *Stream) failAtClose(err *Error, pos int) Parsed {
	st.err = err
	return Parsed{Problems: []Problem{{Code: err.Code, Pos: pos, Message: err.Message}}}
}

// compact drops the text no decision will look at again: everything before
// the open marker or call, or before pos, less a window for ContextBefore
// (contextChars runes are at most 4 bytes each) and for the indentation a
// fence check looks back over.
func (st *Stream) compact() {
	s := &st.sc
	keep := s.pos
	if s.tc.open {
		keep = min(keep, s.tc.start)
	}
	if len(s.frames) > 0 {
		keep = min(keep, s.frames[0].start)
	}
	keep -= utf8.UTFMax*s.cfg.contextChars + maxIndent + 2
	dead := keep - s.base
	if dead < compactMin || dead < len(s.buf)/2 {
		return
	}
	n := copy(s.buf, s.buf[dead:])
	s.buf = s.buf[:n]
	s.base = keep
}

// completeRunes is the length of b without a trailing incomplete UTF-8
// character (one that the next chunk may complete).
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}
