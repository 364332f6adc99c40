package schemas

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

func TestValidateSessionID(t *testing.T) {
	tests := []struct {
		name, id string
		ok       bool
		mentions string // a phrase the error must contain
	}{
		{"letters digits dash underscore", "Session_01-a", true, ""},
		{"one byte", "s", true, ""},
		{"max length", strings.Repeat("a", MaxSessionIDBytes), true, ""},
		{"empty", "", false, "empty"},
		{"over max length", strings.Repeat("a", MaxSessionIDBytes+1), false, "over the limit of 128"},
		{"dot", "a.b", false, "separates subject tokens"},
		{"only a dot", ".", false, "separates subject tokens"},
		{"star wildcard", "*", false, "wildcard"},
		{"tail wildcard", "a>", false, "wildcard"},
		{"space", "a b", false, "whitespace"},
		{"tab", "a\tb", false, "whitespace"},
		{"newline", "a\n", false, "whitespace"},
		{"control", "a\x00b", false, "control character 0x00"},
		{"delete", "a\x7f", false, "control character 0x7f"},
		{"non-ASCII", "séance", false, "non-ASCII"},
		{"invalid UTF-8", "a\xffb", false, "non-ASCII"},
		{"slash", "a/b", false, "'/'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateSessionID(tt.id)
			if (err == nil) != tt.ok {
				t.Fatalf("ValidateSessionID(%q) = %v, want ok=%v", tt.id, err, tt.ok)
			}
			if ValidSessionID(tt.id) != tt.ok {
				t.Errorf("ValidSessionID(%q) disagrees with ValidateSessionID", tt.id)
			}
			if err == nil {
				return
			}
			if !errors.Is(err, ErrInvalidSessionID) {
				t.Errorf("error %v does not wrap ErrInvalidSessionID", err)
			}
			if !strings.Contains(err.Error(), tt.mentions) {
				t.Errorf("error %q does not mention %q", err, tt.mentions)
			}
			if len(err.Error()) > 300 {
				t.Errorf("error is %d bytes long: an error must stay short whatever the input", len(err.Error()))
			}
		})
	}
}

// contractPattern is the session_id pattern of json/common.json.
var contractPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// FuzzValidateSessionID: whatever the input, an accepted id is exactly one
// literal subject token, and the validator agrees with the JSON contract.
func FuzzValidateSessionID(f *testing.F) {
	for _, s := range []string{"", "s1", "a.b", "*", ">", "a b", "\x00", "é", strings.Repeat("x", 129), "a\xffb", "a-_Z9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidateSessionID(s)
		if (err == nil) != contractPattern.MatchString(s) {
			t.Fatalf("ValidateSessionID(%q) = %v, but the contract pattern says %v", s, err, contractPattern.MatchString(s))
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidSessionID) {
				t.Fatalf("error %v does not wrap ErrInvalidSessionID", err)
			}
			return
		}
		subject := ResultSubject(s)
		if strings.ContainsAny(s, ".*> \t\r\n") || strings.Count(subject, ".") != 1 || strings.HasSuffix(subject, ".") {
			t.Fatalf("accepted %q makes the subject %q, not prefix + one literal token", s, subject)
		}
		for i := 0; i < len(s); i++ {
			if s[i] < 0x21 || s[i] > 0x7e {
				t.Fatalf("accepted %q holds the byte 0x%02x", s, s[i])
			}
		}
	})
}
