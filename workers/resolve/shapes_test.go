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
	}
	for _, tt := range tests {
		if got := tt.fn(tt.in); got != tt.want {
			t.Errorf("%s shape of %q = %v, want %v", tt.name, tt.in, got, tt.want)
		}
	}
}
