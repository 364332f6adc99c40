package resolve

import "testing"

func TestValueShapes(t *testing.T) {
	tests := []struct {
		fn   func(string) bool
		name string
		in   string
		want bool
	}{
		{isHostLike, "host", "example.net", true},
		{isHostLike, "host", "db.internal", true},
		{isHostLike, "host", "api-2.eu.example.com", true},
		{isHostLike, "host", "3.5", false},
		{isHostLike, "host", "e.g", false},
		{isHostLike, "host", "localhost", false},
		{isHostLike, "host", "-bad.com", false},
		{isRepoLike, "repo", "acme/widgets", true},
		{isRepoLike, "repo", "my.org/tool_kit", true},
		{isRepoLike, "repo", "/etc/hosts", false},
		{isRepoLike, "repo", "a/b/c", false},
		{isChannelLike, "channel", "#team-core", true},
		{isChannelLike, "channel", "#", false},
		{isChannelLike, "channel", "team", false},
		{isPhoneLike, "phone", "555-0142", true},
		{isPhoneLike, "phone", "212-555-0187", true},
		{isPhoneLike, "phone", "1-800-555-0134", true},
		{isPhoneLike, "phone", "+44-20-7946-0958", true},
		{isPhoneLike, "phone", "(020)-7946-0958", true},
		{isPhoneLike, "phone", "+447700900461", true},
		{isPhoneLike, "phone", "2026-11-28", false},
		{isPhoneLike, "phone", "28-11-2026", false},
		{isPhoneLike, "phone", "10-12", false},
		{isPhoneLike, "phone", "5550142", false},
		{isPhoneLike, "phone", "12345-6789", false},
		{isPhoneLike, "phone", "+12", false},
		{isPhoneLike, "phone", "555-01a2", false},
	}
	for _, tt := range tests {
		if got := tt.fn(tt.in); got != tt.want {
			t.Errorf("%s shape of %q = %v, want %v", tt.name, tt.in, got, tt.want)
		}
	}
}
