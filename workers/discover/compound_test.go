package discover

import (
	"context"
	"slices"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// TestCompounds: a tool's one-word name spelled apart in a request is
// read as the name; keywords, stems and words already written are not.
func TestCompounds(t *testing.T) {
	e := newFixture(t, WithMode(ModeKeyword))
	if err := e.Put(schemas.Manifest{ID: "sys/whoami", Name: "Current user", Description: "Show the user and groups the tools run as.",
		Keywords: []string{"lookup", "account"}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		want []string
	}{
		{"who am i", []string{"whoami"}},
		{"Who am I running as?", []string{"whoami"}},
		{"whoami", nil},             // written as one word already
		{"look up my account", nil}, // a keyword, not a name: an ordinary phrase
		{"send it for me", nil},     // "forme" is no name (its stem "form" would be)
		{"list processes now", nil}, // the name is two words: a mention, not a compound
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			q := e.parse(tt.text)
			e.mu.RLock()
			got := e.compounds(q.words)
			e.mu.RUnlock()
			if !slices.Equal(got, tt.want) {
				t.Fatalf("compounds(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
	cs, err := e.Search(context.Background(), "who am i", 3, nil)
	if err != nil || len(cs) == 0 || cs[0].ToolID != "sys/whoami" {
		t.Fatalf("Search(who am i) = %v, %v; want sys/whoami first", cs, err)
	}
	if err := e.Remove("sys/whoami"); err != nil {
		t.Fatal(err)
	}
	e.mu.RLock()
	left := e.compounds(e.parse("who am i").words)
	e.mu.RUnlock()
	if len(left) != 0 {
		t.Fatalf("after Remove, compounds(who am i) = %v, want none", left)
	}
}
