package main

import (
	"unicode"
)

// tokenizable reports whether the embedder's tokenizer can ever produce w:
// it splits text at everything but letters and digits and drops bare
// numbers, so words like "u.s." or "1990" would only waste space.
func tokenizable(w string) bool {
	letter := false
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			if unicode.ToLower(r) != r {
				return false
			}
			letter = true
		case unicode.IsDigit(r):
		default:
			return false
		}
	}
	return letter
}

// keep returns the ranks of the n most frequent tokenizable words.
func keep(src *source, n int) []int {
	var out []int
	for r, w := range src.words {
		if len(out) == n {
			break
		}
		if tokenizable(w) {
			out = append(out, r)
		}
	}
	return out
}
