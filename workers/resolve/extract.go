package resolve

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// pair is one explicit argument found in intent text: key=value, key: value,
// or a bare quoted value (empty key).
type pair struct {
	key    string
	value  string
	quoted bool
	// form is '=', ':' or 0 for a bare quoted value.
	form byte
	// start and end span the whole pair in the text, key through value;
	// keyStart is where the key begins (equal to start).
	start, end int
	keyStart   int
	// valueStart is where the value begins (its opening quote if quoted).
	valueStart int
}

// closers maps each opening quote to the quote that closes it. Models write
// typographic quotes as often as straight ones.
var closers = map[rune]rune{'"': '"', '\'': '\'', '`': '`', '“': '”', '‘': '’', '«': '»'}

// extractPairs finds the explicit arguments of an intent, left to right.
// It never fails: text that does not parse as a pair is simply not one.
func extractPairs(text string) []pair {
	var out []pair
	var sc scanner
	for i := 0; i < len(text); {
		if boundaryBefore(text, i) {
			if p, ok := sc.keyed(text, i); ok {
				out = append(out, p)
				i = p.end
				continue
			}
			if v, end, ok := sc.quoted(text, i); ok {
				out = append(out, pair{value: v, quoted: true, start: i, end: end, keyStart: i, valueStart: i})
				i = end
				continue
			}
		}
		_, w := utf8.DecodeRuneInString(text[i:])
		i += w
	}
	return out
}

// boundaryBefore reports whether a token can start at i: at the start of
// the text or after a space or an opening bracket or separator.
func boundaryBefore(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsSpace(r) || strings.ContainsRune("([{,;", r)
}

// boundaryAfter reports whether a token can end at i: a quote followed by a
// letter is an apostrophe, not a closing quote.
func boundaryAfter(text string, i int) bool {
	if i >= len(text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

func isKeyStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isKeyRune(r rune) bool {
	return r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// keyAt reads an identifier at i and returns its end.
func keyAt(text string, i int) int {
	r, w := utf8.DecodeRuneInString(text[i:])
	if !isKeyStart(r) {
		return i
	}
	j := i + w
	for j < len(text) {
		r, w := utf8.DecodeRuneInString(text[j:])
		if !isKeyRune(r) {
			break
		}
		j += w
	}
	// "path.=" or "x-=" are sentence punctuation, not part of the key.
	for j > i && (text[j-1] == '.' || text[j-1] == '-') {
		j--
	}
	return j
}

// separatorAt recognises what follows a key: "=" (spaces allowed around
// it, but not "=="), or ":" followed by a space or a quote. It returns the
// form and where the value starts.
func separatorAt(text string, j int) (byte, int) {
	k := skipSpaces(text, j)
	if k < len(text) && text[k] == '=' && (k+1 == len(text) || text[k+1] != '=') {
		return '=', skipSpaces(text, k+1)
	}
	if j < len(text) && text[j] == ':' && j+1 < len(text) {
		r, _ := utf8.DecodeRuneInString(text[j+1:])
		if _, q := closers[r]; q || unicode.IsSpace(r) {
			return ':', skipSpaces(text, j+1)
		}
	}
	return 0, j
}

func skipSpaces(text string, i int) int {
	for i < len(text) {
		r, w := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += w
	}
	return i
}

// keyed parses key=value or key: value at i.
func (sc *scanner) keyed(text string, i int) (pair, bool) {
	j := keyAt(text, i)
	if j == i {
		return pair{}, false
	}
	form, vs := separatorAt(text, j)
	if form == 0 || vs >= len(text) {
		return pair{}, false
	}
	p := pair{key: text[i:j], form: form, start: i, keyStart: i, valueStart: vs}
	if v, end, ok := sc.quoted(text, vs); ok {
		p.value, p.quoted, p.end = v, true, end
		return p, true
	}
	var end int
	if form == '=' {
		end = vs
		for end < len(text) {
			r, w := utf8.DecodeRuneInString(text[end:])
			if unicode.IsSpace(r) || r == ',' && nextIsKey(text, end+1) {
				break
			}
			end += w
		}
	} else {
		end = colonValueEnd(text, vs)
	}
	v := trimValue(text[vs:end])
	if v == "" {
		return pair{}, false
	}
	p.value, p.end = v, vs+len(v)
	return p, true
}

// nextIsKey reports whether a key=value pair starts at i, so that
// "limit=5,k=3" splits while "tags=a,b" stays one list.
func nextIsKey(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	k := keyAt(text, i)
	if k == i {
		return false
	}
	form, _ := separatorAt(text, k)
	return form == '='
}

// colonValueEnd: a "key: value" value may hold spaces, so it runs to the
// next comma, semicolon or line break, or to the next key.
func colonValueEnd(text string, i int) int {
	for j := i; j < len(text); {
		r, w := utf8.DecodeRuneInString(text[j:])
		switch {
		case r == ',' || r == ';' || r == '\n':
			return j
		case j > i && boundaryBefore(text, j) && !unicode.IsSpace(r):
			if k := keyAt(text, j); k > j {
				if form, _ := separatorAt(text, k); form != 0 {
					return j
				}
			}
		}
		j += w
	}
	return len(text)
}

// trimValue drops what ends a sentence rather than a value: trailing
// commas, semicolons, a full stop, and closing brackets that open nowhere
// in the value.
func trimValue(v string) string {
	v = strings.TrimRightFunc(v, unicode.IsSpace)
	for len(v) > 0 {
		last := v[len(v)-1]
		switch {
		case last == ',' || last == ';' || last == ':':
		case (last == '.' || last == '!' || last == '?') && len(v) > 1 && v[len(v)-2] != '.' && v[len(v)-2] != '/':
		case last == ')' && !strings.Contains(v, "("),
			last == ']' && !strings.Contains(v, "["),
			last == '}' && !strings.Contains(v, "{"):
		default:
			return v
		}
		v = v[:len(v)-1]
	}
	return v
}

// scanner remembers, per closing quote, that none follows: a scan for a
// closer that failed from one position fails from every later one, and
// without the memo a text of many unclosed quotes takes quadratic time.
type scanner struct {
	unclosed map[rune]bool
}

// quoted reads a quoted value at i. Inside double quotes, \" and \\ are
// escapes; other quotes are literal. The closing quote must end a token,
// so "it's" inside single quotes does not close them.
func (sc *scanner) quoted(text string, i int) (string, int, bool) {
	open, w := utf8.DecodeRuneInString(text[i:])
	closer, ok := closers[open]
	if !ok || sc.unclosed[closer] {
		return "", 0, false
	}
	var b strings.Builder
	escaped := false
	for j := i + w; j < len(text); {
		r, rw := utf8.DecodeRuneInString(text[j:])
		if open == '"' && r == '\\' && j+1 < len(text) && (text[j+1] == '"' || text[j+1] == '\\') {
			if !escaped {
				b.WriteString(text[i+w : j])
				escaped = true
			}
			b.WriteByte(text[j+1])
			j += 2
			continue
		}
		if r == closer && boundaryAfter(text, j+rw) {
			if !escaped {
				return text[i+w : j], j + rw, true
			}
			return b.String(), j + rw, true
		}
		if escaped {
			b.WriteString(text[j : j+rw])
		}
		j += rw
	}
	if sc.unclosed == nil {
		sc.unclosed = map[rune]bool{}
	}
	sc.unclosed[closer] = true
	if v, ok := openToEnd(text[i+w:], open, closer); ok {
		return v, len(text), true
	}
	return "", 0, false
}

// openToEnd reads a double quote that is never closed as quoting the rest
// of the text: models often drop the closing quote of a value that ends
// the request (`the ID "rOBhSVKGVKe.`). Only when no quote of its kind
// follows at all, so a stray quote mid-text is not mistaken for one. A
// value of one word loses the full stop that ends the sentence; a longer
// one is a sentence itself and keeps it.
func openToEnd(rest string, open, closer rune) (string, bool) {
	if open != '"' && open != '“' || strings.ContainsRune(rest, closer) || strings.ContainsRune(rest, open) {
		return "", false
	}
	v := strings.TrimSpace(rest)
	if v == "" {
		return "", false
	}
	if len(strings.Fields(v)) < sentenceWords {
		v = trimValue(v)
	}
	return v, v != ""
}

// sentenceWords is how many words make a quoted value a sentence.
const sentenceWords = 5
