package schemas

import (
	"strings"
	"testing"
)

func TestDecodeInternal(t *testing.T) {
	tests := []struct {
		name, data, wantErr string
	}{
		{"routed", `{"intent": {"id": "m.0", "session_id": "s", "message_id": "m", "text": "x", "start": 0, "end": 1}, "tier": "weak_matches", "candidates": []}`, ""},
		{"unknown field", `{"intent": {"id": "m.0", "session_id": "s"}, "tier": "weak_matches", "tire": 1}`, "unknown field"},
		{"no session", `{"intent": {"id": "m.0"}, "tier": "weak_matches"}`, "not a session id"},
		{"wildcard session", `{"intent": {"id": "m.0", "session_id": "a.*"}, "tier": "weak_matches"}`, "not a session id"},
		{"no intent id", `{"intent": {"session_id": "s"}, "tier": "weak_matches"}`, "no intent id"},
		{"bad tier", `{"intent": {"id": "m.0", "session_id": "s"}, "tier": "maybe"}`, "not a tier"},
		{"trailing data", `{"intent": {"id": "m.0", "session_id": "s"}, "tier": "not_found"} {}`, "after the JSON value"},
		{"not json", `{"intent":`, "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeInternal[Routed](KindRouted, []byte(tt.data))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("valid message refused: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one saying %q", err, tt.wantErr)
			}
		})
	}
}
