package parse

import "bytes"

// Code, as far as the parser cares (a subset of CommonMark):
//
//   - A fence is a line of at most maxIndent spaces or tabs, then three or more
//     backticks or tildes; after backticks the rest of the line (the info
//     string) has no backtick. The block ends at a line of at most maxIndent
//     spaces or tabs, at least as many of the same character, and nothing but
//     whitespace; without one it runs to the end of the output.
//   - Inline code is a run of backticks closed by the next run of exactly as
//     many backticks on the same line. A run without one is plain text.
//
// CommonMark allows 3 spaces of indentation; LLM output nests fences in list
// items, so more is accepted. Code spans stop at the line end (CommonMark lets
// them run to the end of the paragraph) so that a stray backtick hides at most
// the rest of its line, and a Stream never waits longer than a line to decide.

// maxIndent is the indentation a fence line may have.
const maxIndent = 16

type fenceState struct {
	open    bool
	char    byte // '`' or '~'
	n       int  // length of the opening run
	midLine bool // pos is inside a line of the block, not at its start
}

// lookahead remembers how far a pending decision got, so that a Stream
// resumes it where it stopped instead of starting over on every chunk.
type lookahead struct {
	kind lookaheadKind
	key  int // the position the decision is about
	a, b int // kind-specific progress
}

type lookaheadKind int8

const (
	laNone lookaheadKind = iota
	laBlank
	laFenceOpen
	laFenceClose
	laSpan
)

func (s *scanner) resume(k lookaheadKind, key int) (a, b int, ok bool) {
	if s.la.kind == k && s.la.key == key {
		return s.la.a, s.la.b, true
	}
	return 0, 0, false
}

// save records progress and returns the verdict for running out of text.
func (s *scanner) save(k lookaheadKind, key, a, b int) verdict {
	s.la = lookahead{kind: k, key: key, a: a, b: b}
	return s.undecided()
}

// proseCode handles a backtick or tilde at p in prose: it opens a fence,
// skips an inline code span, or is plain text. It returns where to go on.
func (s *scanner) proseCode(p int) (int, verdict) {
	if ls, ok := s.lineStartBefore(p); ok {
		v, char, n, after := s.fenceOpen(ls)
		switch v {
		case more:
			return 0, more
		case yes:
			s.fence = fenceState{open: true, char: char, n: n, midLine: true}
			return after, yes
		}
	}
	if s.at(p) == '~' {
		return p + 1, no
	}
	return s.codeSpan(p)
}

// lineStartBefore reports whether only indentation lies between the start
// of p's line and p, and where that line starts.
func (s *scanner) lineStartBefore(p int) (int, bool) {
	j := p
	for k := 0; k <= maxIndent; k++ {
		if j == 0 {
			return 0, true
		}
		if j == s.base {
			// A Stream keeps more than maxIndent bytes before pos, so only
			// a broken invariant lands here; treat it as mid-line.
			return 0, false
		}
		switch s.at(j - 1) {
		case '\n':
			return j, true
		case ' ', '\t':
			j--
		default:
			return 0, false
		}
	}
	return 0, false
}

// fenceOpen decides whether the line at ls opens a fenced code block; if so
// it returns the fence character, the run length and the position after it.
func (s *scanner) fenceOpen(ls int) (v verdict, char byte, n, after int) {
	end := s.end()
	j := ls
	for j < end && j-ls <= maxIndent && (s.at(j) == ' ' || s.at(j) == '\t') {
		j++
	}
	if j == end {
		return s.undecided(), 0, 0, 0
	}
	char = s.at(j)
	if j-ls > maxIndent || char != '`' && char != '~' {
		return no, 0, 0, 0
	}
	r, q, ok := s.resume(laFenceOpen, ls)
	if !ok {
		r = j
	}
	if q == 0 {
		for r < end && s.at(r) == char {
			r++
		}
		if r == end && !s.final {
			return s.save(laFenceOpen, ls, r, 0), 0, 0, 0
		}
		q = r
	}
	n = r - j
	if n < 3 {
		return no, 0, 0, 0
	}
	if char == '~' {
		return yes, char, n, r
	}
	// A backtick info string holds no backtick: "```x```" is inline code.
	if k := bytes.IndexAny(s.buf[q-s.base:], "`\n"); k >= 0 {
		if s.at(q+k) == '`' {
			return no, 0, 0, 0
		}
		return yes, char, n, r
	}
	if !s.final {
		return s.save(laFenceOpen, ls, r, end), 0, 0, 0
	}
	return yes, char, n, r
}

// scanFence skips the lines of a fenced block up to its closing fence.
func (s *scanner) scanFence() bool {
	for {
		if s.fence.midLine {
			k := bytes.IndexByte(s.buf[s.pos-s.base:], '\n')
			if k < 0 {
				s.pos = s.end()
				return false
			}
			s.pos += k + 1
			s.fence.midLine = false
		}
		if s.pos == s.end() {
			return false
		}
		v, after := s.fenceClose(s.pos)
		switch v {
		case more:
			return false
		case yes:
			s.fence = fenceState{}
			s.pos = after
			return true
		}
		s.fence.midLine = true
	}
}

// fenceClose decides whether the line at ls closes the open fence, and
// returns the position after that line.
func (s *scanner) fenceClose(ls int) (verdict, int) {
	end := s.end()
	j := ls
	for j < end && j-ls <= maxIndent && (s.at(j) == ' ' || s.at(j) == '\t') {
		j++
	}
	if j == end {
		return s.undecided(), 0
	}
	if j-ls > maxIndent || s.at(j) != s.fence.char {
		return no, 0
	}
	r, q, ok := s.resume(laFenceClose, ls)
	if !ok {
		r = j
	}
	if q == 0 {
		for r < end && s.at(r) == s.fence.char {
			r++
		}
		if r == end && !s.final {
			return s.save(laFenceClose, ls, r, 0), 0
		}
		if r-j < s.fence.n {
			return no, 0
		}
		q = r
	}
	for ; q < end; q++ {
		switch c := s.at(q); {
		case c == '\n':
			return yes, q + 1
		case !isLineSpace(c):
			return no, 0
		}
	}
	if !s.final {
		return s.save(laFenceClose, ls, r, q), 0
	}
	return yes, end
}

// codeSpan handles the backtick run at p: it returns the end of the code
// span it opens (yes), or the end of the run when the run is plain text (no).
func (s *scanner) codeSpan(p int) (int, verdict) {
	end := s.end()
	r, q, ok := s.resume(laSpan, p)
	if !ok {
		r = p
	}
	if q == 0 {
		for r < end && s.at(r) == '`' {
			r++
		}
		if r == end && !s.final {
			return 0, s.save(laSpan, p, r, 0)
		}
		q = r
	}
	n := r - p
	if s.bt.covers(p) {
		if c, ok := s.bt.closer(p, n); ok {
			return c + n, yes
		}
		return r, no
	}
	for q < end {
		k := bytes.IndexAny(s.buf[q-s.base:], "`\n")
		if k < 0 {
			q = end
			break
		}
		q += k
		if s.at(q) == '\n' {
			s.bt.build(s, r, q)
			return r, no
		}
		run := q
		for q < end && s.at(q) == '`' {
			q++
		}
		if q == end && !s.final {
			return 0, s.save(laSpan, p, r, run)
		}
		if q-run == n {
			return q, yes
		}
	}
	if !s.final {
		return 0, s.save(laSpan, p, r, q)
	}
	s.bt.build(s, r, end)
	return r, no
}

// backtickIndex lists the backtick runs of the rest of a line, by length.
// Once a run found no closer, every later run on the line would search the
// same text again: thousands of runs of different lengths on one long line
// would make that quadratic. The index answers them in amortized O(1).
type backtickIndex struct {
	from, to int           // the indexed text [from, to): up to a line end
	runs     map[int][]int // run length → starts of runs of that length, ascending
	next     map[int]int   // run length → first entry that may still be a closer
}

func (x *backtickIndex) covers(p int) bool { return x.runs != nil && p >= x.from && p < x.to }

func (x *backtickIndex) build(s *scanner, from, to int) {
	*x = backtickIndex{from: from, to: to, runs: map[int][]int{}, next: map[int]int{}}
	for i := from; i < to; {
		if s.at(i) != '`' {
			i++
			continue
		}
		j := i
		for j < to && s.at(j) == '`' {
			j++
		}
		x.runs[j-i] = append(x.runs[j-i], i)
		i = j
	}
}

// closer finds the first run of length n after p. Queries come with p
// increasing (the scan only moves forward), so the cursors only advance.
func (x *backtickIndex) closer(p, n int) (int, bool) {
	runs, c := x.runs[n], x.next[n]
	for c < len(runs) && runs[c] <= p {
		c++
	}
	x.next[n] = c
	if c < len(runs) {
		return runs[c], true
	}
	return 0, false
}
