package predict

import "unicode"

// Tokens cuts text as a language model's tokenizer roughly would, for the
// simulation's pacing: a word of up to 7 characters with the space before
// it is one token, a longer word one token per 5 characters; punctuation
// is a token of its own. On English this gives about 1.3 tokens a word,
// as BPE tokenizers do.
func Tokens(text string) []string {
	var out []string
	rs := []rune(text)
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && unicode.IsSpace(rs[j]) {
			j++
		}
		k := j
		for k < len(rs) && (unicode.IsLetter(rs[k]) || unicode.IsDigit(rs[k])) {
			k++
		}
		if k == j { // punctuation (or trailing space): one rune
			k = min(len(rs), j+1)
		}
		word := rs[j:k]
		if len(word) <= 7 {
			out = append(out, string(rs[i:k]))
		} else {
			out = append(out, string(rs[i:j+5]))
			for p := j + 5; p < k; p += 5 {
				out = append(out, string(rs[p:min(k, p+5)]))
			}
		}
		i = k
	}
	return out
}
