package kiwi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// SignaturePrefix starts a signature line.
const SignaturePrefix = "# kiwi-mcp:validated:"

// Signature is a verified signature line.
type Signature struct {
	Timestamp time.Time
	SHA256    string
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// signatureLine finds the signature line: the first line, or the second
// when the first is a shebang. It returns the line's byte range, or -1.
func signatureLine(src string) (start, end int) {
	start = 0
	if strings.HasPrefix(src, "#!") {
		nl := strings.IndexByte(src, '\n')
		if nl < 0 {
			return -1, -1
		}
		start = nl + 1
	}
	if !strings.HasPrefix(src[start:], "# kiwi-mcp:") {
		return -1, -1
	}
	end = strings.IndexByte(src[start:], '\n')
	if end < 0 {
		return start, len(src)
	}
	return start, start + end + 1
}

// verify checks the signature line if there is one: it must read
// "# kiwi-mcp:validated:<RFC 3339 timestamp>:<sha256 hex>", and the hash
// must be the SHA-256 of the file without that line (a shebang above it
// stays). No signature line: nil, nil.
func verify(src string) (*Signature, error) {
	start, end := signatureLine(src)
	if start < 0 {
		return nil, nil
	}
	line := strings.TrimRight(src[start:end], "\r\n")
	rest, ok := strings.CutPrefix(line, SignaturePrefix)
	colon := strings.LastIndexByte(rest, ':')
	if !ok || colon < 0 {
		return nil, fmt.Errorf("malformed signature line %q: want %s<timestamp>:<sha256>", clipText(line), SignaturePrefix)
	}
	ts, sum := rest[:colon], strings.TrimSpace(rest[colon+1:])
	if !hex64.MatchString(sum) {
		return nil, fmt.Errorf("signature hash %q is not 64 lower-case hex digits (a SHA-256)", clipText(sum))
	}
	when, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return nil, fmt.Errorf("signature timestamp %q is not an RFC 3339 time like 2026-01-30T12:00:00Z", clipText(ts))
	}
	got := contentHash(src[:start] + src[end:])
	if got != sum {
		return nil, fmt.Errorf("bad signature: the file changed after it was signed at %s (content sha256 %s, signed %s)", ts, got, sum)
	}
	return &Signature{Timestamp: when, SHA256: sum}, nil
}

func contentHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// Sign returns src with a signature line for its current content at t (an
// existing signature line is replaced; a shebang stays first).
func Sign(src []byte, t time.Time) []byte {
	s := string(src)
	if start, end := signatureLine(s); start >= 0 {
		s = s[:start] + s[end:]
	}
	at := 0
	if strings.HasPrefix(s, "#!") {
		if nl := strings.IndexByte(s, '\n'); nl >= 0 {
			at = nl + 1
		} else {
			s += "\n"
			at = len(s)
		}
	}
	line := SignaturePrefix + t.UTC().Format(time.RFC3339) + ":" + contentHash(s) + "\n"
	return []byte(s[:at] + line + s[at:])
}
