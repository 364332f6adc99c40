package uselite

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

// separator marks a word start in SentencePiece pieces (U+2581).
const separator = "\u2581"

// reservedPieces are the control pieces at the head of the vocabulary
// (unknown, <s>, </s>, three extras): never matched against text.
const reservedPieces = 6

// unknown is the id of the unknown piece.
const unknown = 0

// Tokenizer is the model's SentencePiece unigram tokenizer, a port of
// TensorFlow.js's (universal-sentence-encoder's Tokenizer.encode), quirks
// included, so that ids match the reference exactly.
type Tokenizer struct {
	root    *trieNode
	advance []int // per piece: how far the backward pass steps (UTF-16 length, as in JS)
}

type trieNode struct {
	children map[rune]*trieNode
	end      bool
	length   int // in runes
	score    float64
	id       int
}

// NewTokenizer reads the vocabulary: a JSON array of [piece, score] pairs,
// the piece's index being its id.
func NewTokenizer(vocabJSON []byte) (*Tokenizer, error) {
	var vocab [][2]any
	if err := json.Unmarshal(vocabJSON, &vocab); err != nil {
		return nil, fmt.Errorf("uselite: vocabulary: %w", err)
	}
	if len(vocab) <= reservedPieces {
		return nil, fmt.Errorf("uselite: vocabulary has %d pieces, want more than %d", len(vocab), reservedPieces)
	}
	t := &Tokenizer{root: &trieNode{}, advance: make([]int, len(vocab))}
	for id, entry := range vocab {
		piece, ok := entry[0].(string)
		if !ok {
			return nil, fmt.Errorf("uselite: vocabulary entry %d: piece is %T, want a string", id, entry[0])
		}
		score, _ := entry[1].(float64) // JS adds null as 0
		t.advance[id] = len(utf16.Encode([]rune(piece)))
		if id >= reservedPieces {
			t.insert(piece, score, id)
		}
	}
	return t, nil
}

func (t *Tokenizer) insert(piece string, score float64, id int) {
	node := t.root
	n := 0
	for _, r := range piece {
		child := node.children[r]
		if child == nil {
			if node.children == nil {
				node.children = map[rune]*trieNode{}
			}
			child = &trieNode{}
			node.children[r] = child
		}
		node = child
		n++
	}
	if n > 0 {
		node.end, node.length, node.score, node.id = true, n, score, id
	}
}

// match is one lattice edge: a piece of length runes starting somewhere.
type match struct {
	length int
	score  float64
	id     int
}

// prefixes returns every piece that starts symbols, shortest first, or the
// first symbol alone as the unknown piece (score 0) when none does.
func (t *Tokenizer) prefixes(symbols []rune) []match {
	var out []match
	node := t.root.children[symbols[0]]
	for i := 0; i < len(symbols) && node != nil; i++ {
		if node.end {
			out = append(out, match{node.length, node.score, node.id})
		}
		if i+1 < len(symbols) {
			node = node.children[symbols[i+1]]
		} else {
			node = nil
		}
	}
	if len(out) == 0 {
		out = append(out, match{1, 0, unknown})
	}
	return out
}

// Encode returns the piece ids of text: NFKC-normalised, spaces turned into
// the word separator, segmented by Viterbi over the piece scores, runs of
// unknown pieces merged into one.
func (t *Tokenizer) Encode(text string) []int {
	normalized := norm.NFKC.String(text)
	if normalized == "" {
		return nil
	}
	symbols := []rune(separator + strings.ReplaceAll(normalized, " ", separator))
	n := len(symbols)
	// edges[end] lists the pieces ending at end by ascending start, as the
	// JS lattice (an object keyed by start) iterates them: starts are
	// visited in ascending order here.
	edges := make([][]match, n+1)
	for i := range n {
		for _, m := range t.prefixes(symbols[i:]) {
			edges[i+m.length] = append(edges[i+m.length], m)
		}
	}
	best := make([]float64, n+1)
	words := make([]int, n+1)
	for end := 0; end <= n; end++ {
		for _, m := range edges[end] {
			score := m.score + best[end-m.length]
			// best 0 means "unset" in the reference, a quirk kept for equal ids.
			if best[end] == 0 || score >= best[end] {
				best[end], words[end] = score, m.id
			}
		}
	}
	var ids []int
	for i := n; i > 0; i -= t.advance[words[i]] {
		ids = append(ids, words[i])
	}
	merged := ids[:0]
	prevUnknown := false
	for _, id := range ids {
		if !(prevUnknown && id == unknown) {
			merged = append(merged, id)
		}
		prevUnknown = id == unknown
	}
	for i, j := 0, len(merged)-1; i < j; i, j = i+1, j-1 {
		merged[i], merged[j] = merged[j], merged[i]
	}
	return merged
}
