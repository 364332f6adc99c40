package parse

import (
	"unicode"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

// maxPad is how many spaces or tabs the opener may have on either side of
// "TOOL". A bound keeps the opener a token of bounded length, which a Stream
// can re-examine on every chunk at no real cost.
const maxPad = 16

// frame is an open marker.
type frame struct {
	start int // absolute offset of its "["
	depth int // plain brackets opened inside it and not yet closed
	// seg is where the raw text not yet copied into text starts.
	seg int
	// text is the normalized intent text so far; space records a whitespace
	// run seen since its last character.
	text  []byte
	space bool
	deps  []string // ids of the markers nested directly inside
	// nested is where each of deps stands in text, for the join stage to
	// put the nested intent's result in its place.
	nested []schemas.Nested
}

// opener matches "[", up to maxPad spaces or tabs, "TOOL" in any case, up to
// maxPad spaces or tabs, ":" at p, and returns its length.
func (s *scanner) opener(p int) (int, verdict) {
	b := s.buf
	i := p - s.base + 1
	for pads := 0; i < len(b) && (b[i] == ' ' || b[i] == '\t'); i++ {
		if pads++; pads > maxPad {
			return 0, no
		}
	}
	for k := 0; k < len("tool"); k++ {
		if i >= len(b) {
			return 0, s.undecided()
		}
		// |0x20 folds exactly 'T','O','L' onto 't','o','l' and nothing else onto them.
		if b[i]|0x20 != "tool"[k] {
			return 0, no
		}
		i++
	}
	for pads := 0; i < len(b) && (b[i] == ' ' || b[i] == '\t'); i++ {
		if pads++; pads > maxPad {
			return 0, no
		}
	}
	if i >= len(b) {
		return 0, s.undecided()
	}
	if b[i] != ':' {
		return 0, no
	}
	return i + 1 - (p - s.base), yes
}

// open pushes the marker whose opener spans [p, p+n). The parent's text is
// not touched until this marker closes: most openers of an adversarial
// output never do.
func (s *scanner) open(p, n int) {
	s.frames = append(s.frames, frame{start: p, seg: p + n})
}

// close ends the innermost marker at its "]" at p: it becomes an intent, or
// a problem when it says nothing, and its text takes its place in its parent.
func (s *scanner) close(p int) {
	k := len(s.frames) - 1
	f := &s.frames[k]
	s.appendRaw(f, f.seg, p)
	start, end := f.start, p+1
	text, deps, nested := string(f.text), f.deps, f.nested
	s.frames = s.frames[:k]
	var parent *frame
	if k > 0 {
		parent = &s.frames[k-1]
		s.appendRaw(parent, parent.seg, start)
		parent.seg = end
	}
	if text == "" {
		if s.roomForProblem(start) {
			s.addProblem(CodeEmptyIntent, start, msgEmpty(start, s.excerpt(start, end)))
		}
		return
	}
	index, ok := s.claim()
	if !ok {
		return
	}
	id := s.meta.id(index)
	s.addIntent(schemas.Intent{
		ID: id, Index: index, Text: text, Start: start, End: end,
		ContextBefore: s.before(start), ContextAfter: s.after(end),
		DependsOn: deps, Nested: nested,
	})
	if parent != nil {
		parent.deps = append(parent.deps, id)
		appendWord(parent, text)
		parent.nested = append(parent.nested, schemas.Nested{ID: id, Start: len(parent.text) - len(text), End: len(parent.text)})
	}
}

// terminate reports every open marker as unterminated, cut at position cut.
// Markers that closed inside them stay intents of their own.
func (s *scanner) terminate(why string, cut int) {
	for i := range s.frames {
		start := s.frames[i].start
		if s.roomForProblem(start) {
			s.addProblem(CodeUnterminated, start, msgUnterminated(start, s.excerpt(start, cut), why))
		}
	}
	s.frames = s.frames[:0]
}

// lineBreak looks at the line starting at ls, inside a marker: a blank line
// or a code fence ends the marker's paragraph, so the marker can no longer
// close. It returns the reason for the problem message.
func (s *scanner) lineBreak(ls int) (verdict, string) {
	end := s.end()
	j := ls
	if a, _, ok := s.resume(laBlank, ls); ok {
		j = a
	}
	for j < end && isLineSpace(s.at(j)) {
		j++
	}
	if j == end {
		// At the end of the output the marker is cut there anyway.
		return s.save(laBlank, ls, j, 0), ""
	}
	if s.at(j) == '\n' {
		return yes, cutBlank
	}
	if !s.cfg.codeIntents && (s.at(j) == '`' || s.at(j) == '~') {
		v, _, _, _ := s.fenceOpen(ls)
		return v, cutFence
	}
	return no, ""
}

func isLineSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// appendRaw adds the raw text [a, b) to f's text.
func (s *scanner) appendRaw(f *frame, a, b int) {
	if a >= b {
		return
	}
	seg := s.buf[a-s.base : b-s.base]
	for i := 0; i < len(seg); {
		c := seg[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				f.space = true
			} else {
				f.putSpace()
				f.text = append(f.text, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(seg[i:])
		if unicode.IsSpace(r) {
			f.space = true
		} else {
			f.putSpace()
			f.text = append(f.text, seg[i:i+size]...)
		}
		i += size
	}
}

// appendWord adds an inner intent's (already normalized) text to f's text.
func appendWord(f *frame, w string) {
	f.putSpace()
	f.text = append(f.text, w...)
}

// putSpace writes the pending whitespace run as one space, unless the text
// is still empty: leading whitespace is trimmed, and trailing whitespace is
// never written because nothing follows it.
func (f *frame) putSpace() {
	if f.space && len(f.text) > 0 {
		f.text = append(f.text, ' ')
	}
	f.space = false
}

var asciiSpace = byteSet("\t\n\v\f\r ")

// before is up to contextChars runes of text ending at p.
func (s *scanner) before(p int) string {
	b, lo := s.buf, s.base
	j := p
	for k := 0; k < s.cfg.contextChars && j > lo; k++ {
		j--
		for j > lo && !utf8.RuneStart(b[j-lo]) {
			j--
		}
	}
	return s.text(j, p)
}

// after is up to contextChars runes of the text starting at p that has
// arrived so far: in a Stream, only what came with the closing chunk.
func (s *scanner) after(p int) string {
	b, hi := s.buf, s.end()
	j := p
	for k := 0; k < s.cfg.contextChars && j < hi; k++ {
		if c := b[j-s.base]; c < utf8.RuneSelf {
			j++
		} else {
			_, size := utf8.DecodeRune(b[j-s.base:])
			j += size
		}
	}
	return s.text(p, j)
}

// text is the raw text [a, b) as a string: a substring of the output when
// the whole of it is at hand, a copy of the buffer in a Stream.
func (s *scanner) text(a, b int) string {
	if s.whole {
		return s.src[a:b]
	}
	return string(s.buf[a-s.base : b-s.base])
}

// excerptRunes is how much of a marker or call a problem quotes.
const excerptRunes = 40

// excerpt quotes the start of the raw text [a, b) for a problem message:
// at most excerptRunes runes, whitespace collapsed, "…" when cut.
func (s *scanner) excerpt(a, b int) string {
	a, b = max(a, s.base), min(b, s.end())
	var f frame
	raw := s.buf[a-s.base : b-s.base]
	n := 0
	for i := 0; i < len(raw); {
		r, size := utf8.DecodeRune(raw[i:])
		if unicode.IsSpace(r) {
			f.space = true
			i += size
			continue
		}
		if n += 1 + btoi(f.space && n > 0); n > excerptRunes {
			return string(f.text) + "…"
		}
		f.putSpace()
		f.text = append(f.text, raw[i:i+size]...)
		i += size
	}
	return string(f.text)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
