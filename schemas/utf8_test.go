package schemas

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckJSONUTF8(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		ok       bool
		mentions string
	}{
		{"plain", `{"text":"hello"}`, true, ""},
		{"multibyte", `{"text":"héllo ✓ 😀"}`, true, ""},
		{"escaped pair", `{"text":"\ud83d\ude00"}`, true, ""},
		{"escaped BMP", `{"text":"\u00e9\u2713"}`, true, ""},
		{"escaped backslash then u", `{"text":"\\ud800"}`, true, ""},
		{"literal U+FFFD is text", `{"text":"` + "\uFFFD" + `"}`, true, ""},
		{"bad byte", "{\"text\":\"a\xffb\"}", false, "offset 10"},
		{"truncated sequence", "{\"text\":\"a\xe2\x82\"}", false, "not valid UTF-8"},
		{"overlong", "{\"text\":\"\xc0\xaf\"}", false, "not valid UTF-8"},
		{"raw surrogate", "{\"text\":\"\xed\xa0\x80\"}", false, "not valid UTF-8"},
		{"lone high escape", `{"text":"a\ud800b"}`, false, "first half"},
		{"high escape at end", `{"text":"\ud800"}`, false, "first half"},
		{"high then non-low", `{"text":"\ud800\u0041"}`, false, "first half"},
		{"lone low escape", `{"text":"\udc00"}`, false, "second half"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckJSONUTF8([]byte(tt.data))
			if (err == nil) != tt.ok {
				t.Fatalf("CheckJSONUTF8(%q) = %v, want ok=%v", tt.data, err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), tt.mentions) {
				t.Errorf("error %q does not mention %q", err, tt.mentions)
			}
		})
	}
}

// FuzzCheckJSONUTF8: a JSON string the checker accepts decodes without
// any replacement: what is decoded is exactly what was sent.
func FuzzCheckJSONUTF8(f *testing.F) {
	for _, s := range []string{`"a"`, `"\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `"\\ud800"`, `"\udc00\ud800"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var s string
		if json.Unmarshal([]byte(data), &s) != nil || CheckJSONUTF8([]byte(data)) != nil {
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("accepted %q decodes to invalid UTF-8", data)
		}
		if strings.ContainsRune(s, utf8.RuneError) && !strings.ContainsRune(data, utf8.RuneError) && !strings.Contains(strings.ToLower(data), `\ufffd`) {
			t.Fatalf("accepted %q decodes with a replacement character it did not hold", data)
		}
	})
}
