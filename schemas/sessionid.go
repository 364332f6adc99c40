package schemas

import (
	"errors"
	"fmt"
	"strconv"
)

// MaxSessionIDBytes is the longest session id: long enough for a UUID with a
// prefix, short enough that every subject built from it stays small.
const MaxSessionIDBytes = 128

// ErrInvalidSessionID is wrapped by every error ValidateSessionID returns.
var ErrInvalidSessionID = errors.New("invalid session id")

// ValidateSessionID returns nil when s can be a session id, else an error
// naming the rule it breaks. A session id is always exactly one NATS subject
// token (agent.output.<session>, result.<session>, pipe.<stage>.<session>),
// so it allows only 1–128 ASCII letters, digits, '-' and '_': no empty
// token, no '.', no wildcard ('*', '>'), no whitespace or control
// character, nothing a NATS subject or a KV key would read differently.
//
// Every entry point (publish, the micro endpoints, the MCP gateway, the
// stages reading a session from a subject) calls this one function, and the
// session_id pattern of json/common.json says the same.
func ValidateSessionID(s string) error {
	if s == "" {
		return fmt.Errorf("%w: it is empty; use 1–%d letters, digits, '-' or '_'", ErrInvalidSessionID, MaxSessionIDBytes)
	}
	if len(s) > MaxSessionIDBytes {
		return fmt.Errorf("%w: it is %d bytes long, over the limit of %d; use 1–%d letters, digits, '-' or '_'",
			ErrInvalidSessionID, len(s), MaxSessionIDBytes, MaxSessionIDBytes)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !sessionByte(c) {
			return fmt.Errorf("%w %s: byte %d is %s; a session id is one NATS subject token: use only letters, digits, '-' or '_'",
				ErrInvalidSessionID, quoteClipped(s, 40), i, describeByte(c))
		}
	}
	return nil
}

// ValidSessionID reports whether ValidateSessionID accepts s.
func ValidSessionID(s string) bool { return ValidateSessionID(s) == nil }

func sessionByte(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// describeByte names an offending byte the way a reader recognises it.
func describeByte(c byte) string {
	switch {
	case c == '.':
		return "'.', which separates subject tokens"
	case c == '*' || c == '>':
		return "'" + string(c) + "', a subject wildcard"
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		return "whitespace (" + strconv.QuoteRune(rune(c)) + ")"
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf("the control character 0x%02x", c)
	case c >= 0x80:
		return "non-ASCII"
	}
	return strconv.QuoteRune(rune(c))
}

// quoteClipped quotes at most n bytes of s, for an error message that must
// stay short whatever the input.
func quoteClipped(s string, n int) string {
	if len(s) > n {
		return strconv.Quote(s[:n]) + "…"
	}
	return strconv.Quote(s)
}
