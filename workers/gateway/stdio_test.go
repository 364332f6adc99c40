package gateway

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"testing"
)

// Each line is passed on or answered: JSON-RPC messages and batches pass,
// anything else gets one error reply with the line's id when it has one,
// and a line over the limit is dropped whole without losing the next.
func TestFilterLines(t *testing.T) {
	req := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	tests := []struct {
		name, in string
		pass     []string
		replies  []string // "id code"
	}{
		{"requests pass", req + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\r\n", []string{req, `{"jsonrpc":"2.0","method":"notifications/initialized"}`}, nil},
		{"batch passes", "[" + req + "]\n", []string{"[" + req + "]"}, nil},
		{"blank lines are skipped", "\n  \n" + req, []string{req}, nil},
		{"not JSON", "hello\n" + req + "\n", []string{req}, []string{"null -32700"}},
		{"cut JSON", `{"jsonrpc":"2.0","id":3,` + "\n", nil, []string{"null -32700"}},
		{"not a message, with an id", `{"id":"a","method":"ping"}` + "\n", nil, []string{`"a" -32600`}},
		{"a number", "42\n" + req, []string{req}, []string{"null -32600"}},
		{"too long", `{"jsonrpc":"2.0","id":9,"method":"` + strings.Repeat("x", 200) + `"}` + "\n" + req + "\n", []string{req}, []string{"null -32600"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pass, reply bytes.Buffer
			if err := filterLines(strings.NewReader(tt.in), &pass, &reply, 100, slog.New(slog.DiscardHandler)); err != nil {
				t.Fatal(err)
			}
			if got := strings.Fields(pass.String()); strings.Join(got, "|") != strings.Join(tt.pass, "|") {
				t.Errorf("passed %q, want %q", got, tt.pass)
			}
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(reply.String()), "\n") {
				if l == "" {
					continue
				}
				var r struct {
					JSONRPC string          `json:"jsonrpc"`
					ID      json.RawMessage `json:"id"`
					Error   struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal([]byte(l), &r); err != nil || r.JSONRPC != "2.0" || r.Error.Message == "" {
					t.Fatalf("reply %q is not a JSON-RPC error response (%v)", l, err)
				}
				got = append(got, string(r.ID)+" "+strconv.Itoa(r.Error.Code))
			}
			if strings.Join(got, "|") != strings.Join(tt.replies, "|") {
				t.Errorf("replies %q, want %q", got, tt.replies)
			}
		})
	}
}
