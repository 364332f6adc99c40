package gateway

import (
	"strings"
	"testing"
)

func TestMCPName(t *testing.T) {
	tests := []struct {
		id, want string
	}{
		{"fs/read_file", "fs.read_file"},
		{"everything/get-sum", "everything.get-sum"},
		{"kiwi/search/web_search", "kiwi.search.web_search"},
		{"plain", "plain"},
	}
	for _, tc := range tests {
		if got := mcpName(tc.id); got != tc.want {
			t.Errorf("mcpName(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
	// Ids that would collide or break MCP's name rules get a hash suffix:
	// distinct, valid, at most 128 characters.
	odd := []string{"requestFirst Aid Assistance", "a.b/c", "a/b.c", "ünïcode/tööl", strings.Repeat("x", 300), strings.Repeat("x", 300) + "y", ""}
	seen := map[string]string{}
	for _, id := range odd {
		n := mcpName(id)
		if len(n) == 0 || len(n) > maxName {
			t.Errorf("mcpName(%q) = %q: length %d", id, n, len(n))
		}
		for _, r := range n {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
				t.Errorf("mcpName(%q) = %q holds %q", id, n, r)
			}
		}
		if other, dup := seen[n]; dup {
			t.Errorf("%q and %q share the name %q", id, other, n)
		}
		seen[n] = id
	}
}
