package kiwi

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lexer reads just enough Python to find a module's top-level
// statements: names, numbers, strings (every quoting and prefix form),
// operators, comments, bracket nesting and line continuations. Nothing is
// executed, and no Python is needed.

type tokKind int

const (
	tokName tokKind = iota
	tokNumber
	tokString
	tokOp
)

type token struct {
	kind tokKind
	text string // the source text (for strings: the literal with quotes)
	line int
	// For strings: the decoded value, and the prefix letters (lower-cased).
	str    string
	prefix string
}

// stmt is a logical line: its tokens, and whether it starts at column 0
// (a top-level statement; indented lines belong to def, class, if …).
type stmt struct {
	toks     []token
	topLevel bool
	line     int
}

// SyntaxError locates what the lexer could not read.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// maxDepth bounds bracket nesting, so hostile input cannot blow the stack of
// the literal evaluator.
const maxDepth = 100

// statements splits src into logical lines.
func statements(src string) ([]stmt, error) {
	var out []stmt
	var cur stmt
	depth := 0
	line := 1
	atLineStart := true
	col := 0
	flush := func() {
		if len(cur.toks) > 0 {
			out = append(out, cur)
		}
		cur = stmt{}
	}
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			if depth == 0 {
				flush()
				atLineStart, col = true, 0
			}
			continue
		case c == '\r' || c == '\f':
			i++
			continue
		case c == ' ' || c == '\t':
			if atLineStart {
				col++
			}
			i++
			continue
		case c == '\\':
			// Explicit line joining: the next line continues this one.
			if i+1 < len(src) && src[i+1] == '\n' {
				i += 2
				line++
				continue
			}
			if i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n' {
				i += 3
				line++
				continue
			}
			return nil, &SyntaxError{line, "stray backslash"}
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		if len(cur.toks) == 0 {
			cur.topLevel, cur.line = atLineStart && col == 0, line
		}
		atLineStart = false
		startLine := line
		switch {
		case isIdentStart(src, i):
			j := i
			for j < len(src) && isIdentPart(src, j) {
				_, n := utf8.DecodeRuneInString(src[j:])
				j += n
			}
			word := src[i:j]
			// A string prefix glued to a quote: r"…", b'…', rb"""…""", f"…".
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isStringPrefix(word) {
				t, n, lines, err := lexString(src[j:], strings.ToLower(word), startLine)
				if err != nil {
					return nil, err
				}
				t.text = word + t.text
				cur.toks = append(cur.toks, t)
				i, line = j+n, line+lines
				continue
			}
			cur.toks = append(cur.toks, token{kind: tokName, text: word, line: line})
			i = j
		case c == '"' || c == '\'':
			t, n, lines, err := lexString(src[i:], "", startLine)
			if err != nil {
				return nil, err
			}
			cur.toks = append(cur.toks, t)
			i, line = i+n, line+lines
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			for j < len(src) && (isAlnum(src[j]) || src[j] == '.' || src[j] == '_' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(strings.ToLower(src[i:j]), "0x")) {
				j++
			}
			cur.toks = append(cur.toks, token{kind: tokNumber, text: src[i:j], line: line})
			i = j
		default:
			op := string(c)
			if i+1 < len(src) {
				switch two := src[i : i+2]; two {
				case "**", "//", "==", "!=", "<=", ">=", "->", ":=", "+=", "-=", "*=", "/=", "|=", "&=", "%=", "<<", ">>", "@=", "^=":
					op = two
				}
			}
			switch op {
			case "(", "[", "{":
				depth++
				if depth > maxDepth {
					return nil, &SyntaxError{line, fmt.Sprintf("brackets nested deeper than %d", maxDepth)}
				}
			case ")", "]", "}":
				depth--
				if depth < 0 {
					return nil, &SyntaxError{line, fmt.Sprintf("unmatched %q", op)}
				}
			}
			if c >= 0x80 {
				r, n := utf8.DecodeRuneInString(src[i:])
				if r == utf8.RuneError && n <= 1 {
					return nil, &SyntaxError{line, "invalid UTF-8"}
				}
				op = src[i : i+n]
			}
			cur.toks = append(cur.toks, token{kind: tokOp, text: op, line: line})
			i += len(op)
		}
	}
	if depth > 0 {
		return nil, &SyntaxError{line, "unclosed bracket at end of file"}
	}
	flush()
	return out, nil
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentStart(s string, i int) bool {
	c := s[i]
	if c < 0x80 {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

func isIdentPart(s string, i int) bool {
	c := s[i]
	if c < 0x80 {
		return c == '_' || isAlnum(c)
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isStringPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf", "t", "tr", "rt":
		return true
	}
	return false
}

// lexString reads a string literal at the start of s (at its opening
// quote). It returns the token, the bytes consumed and the newlines inside.
func lexString(s, prefix string, line int) (token, int, int, error) {
	q := s[:1]
	if strings.HasPrefix(s, q+q+q) {
		q = q + q + q
	}
	raw := strings.ContainsRune(prefix, 'r')
	i := len(q)
	lines := 0
	for {
		if i >= len(s) {
			return token{}, 0, 0, &SyntaxError{line, "unterminated string"}
		}
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			if s[i+1] == '\n' {
				lines++
			}
			i += 2
			continue
		}
		if c == '\n' {
			if len(q) == 1 {
				return token{}, 0, 0, &SyntaxError{line, "unterminated string (newline in a single-quoted string)"}
			}
			lines++
		}
		if strings.HasPrefix(s[i:], q) {
			body := s[len(q):i]
			val := body
			if !raw {
				var err error
				if val, err = unescape(body); err != nil {
					return token{}, 0, 0, &SyntaxError{line, err.Error()}
				}
			}
			end := i + len(q)
			return token{kind: tokString, text: s[:end], line: line, str: val, prefix: prefix}, end, lines, nil
		}
		i++
	}
}

// unescape decodes Python's backslash escapes.
func unescape(s string) (string, error) {
	if !strings.ContainsRune(s, '\\') {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+1+n > len(s) {
				return "", fmt.Errorf("truncated \\%c escape", e)
			}
			var r rune
			for _, h := range s[i+1 : i+1+n] {
				d := hexDigit(byte(h))
				if d < 0 || h >= 0x80 {
					return "", fmt.Errorf("bad \\%c escape %q", e, s[i-1:i+1+n])
				}
				r = r<<4 | rune(d)
			}
			if r > unicode.MaxRune || r >= 0xD800 && r < 0xE000 {
				return "", fmt.Errorf("escape %q is not a character", s[i-1:i+1+n])
			}
			b.WriteRune(r)
			i += n
		case 'N':
			end := strings.IndexByte(s[i:], '}')
			if i+1 >= len(s) || s[i+1] != '{' || end < 0 {
				return "", fmt.Errorf("bad \\N{…} escape")
			}
			// Character names would need Unicode's name table: kept as written.
			b.WriteString(s[i-1 : i+end+1])
			i += end
		case '0', '1', '2', '3', '4', '5', '6', '7':
			r := rune(e - '0')
			for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
				i++
				r = r<<3 | rune(s[i]-'0')
			}
			b.WriteRune(r)
		default:
			// Python keeps unknown escapes as written.
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
