package parse_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

// Each intent carries only the end of the conversation, within the limit
// per intent, and the parse says so; all intents share the one cut.
func TestIntentConversationIsCut(t *testing.T) {
	turn := func(role string, n int, fill string) schemas.Message {
		return schemas.Message{Role: role, Content: strings.Repeat(fill, n)}
	}
	tests := []struct {
		name      string
		limit     int
		conv      []schemas.Message
		wantTurns []string // role:len of what each intent carries
		wantCut   bool
	}{
		{"within the limit: carried whole", 100, []schemas.Message{turn("user", 10, "a"), turn("assistant", 10, "b")},
			[]string{"user:10", "assistant:10"}, false},
		{"exactly the limit", 24, []schemas.Message{turn("user", 20, "a")}, []string{"user:20"}, false},
		{"last turns kept whole", 40, []schemas.Message{turn("user", 500, "a"), turn("user", 10, "b"), turn("assistant", 10, "c")},
			[]string{"user:10", "assistant:10"}, true},
		{"older turn cut to its end", 200, []schemas.Message{turn("user", 500, "a"), turn("assistant", 10, "c")},
			[]string{fmt.Sprintf("user:%d", 200-len("assistant")-10-len("user")-len("…")), "assistant:10"}, true},
		{"one huge last turn keeps its end", 100, []schemas.Message{turn("user", 5000, "é")},
			[]string{"user:<=96"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := withConversation(output("[TOOL: a] and [TOOL: b]"), tt.conv...)
			got, err := parse.New(parse.WithIntentConversationBytes(tt.limit)).Parse(out)
			if err != nil {
				t.Fatal(err)
			}
			if (got.ConversationCut != nil) != tt.wantCut {
				t.Fatalf("ConversationCut = %+v, want cut=%v", got.ConversationCut, tt.wantCut)
			}
			if len(got.Intents) != 2 {
				t.Fatalf("%d intents", len(got.Intents))
			}
			for _, in := range got.Intents {
				if len(in.Conversation) != len(tt.wantTurns) {
					t.Fatalf("intent carries %d turns, want %d", len(in.Conversation), len(tt.wantTurns))
				}
				size := 0
				for i, m := range in.Conversation {
					size += len(m.Role) + len(m.Content)
					if !utf8.ValidString(m.Content) {
						t.Fatalf("turn %d cut inside a character", i)
					}
					want := tt.wantTurns[i]
					if n, ok := strings.CutPrefix(want, m.Role+":<="); ok {
						var max int
						fmt.Sscan(n, &max)
						if len(m.Content) > max+len("…") || !strings.HasPrefix(m.Content, "…") {
							t.Fatalf("turn %d is %d bytes, want at most %d with a leading …", i, len(m.Content), max)
						}
						continue
					}
					if got := fmt.Sprintf("%s:%d", m.Role, len(strings.TrimPrefix(m.Content, "…"))); got != want {
						t.Fatalf("turn %d = %s, want %s", i, got, want)
					}
				}
				if size > tt.limit {
					t.Fatalf("intent carries %d bytes of conversation, over the limit of %d", size, tt.limit)
				}
			}
			if tt.wantCut && !strings.Contains(got.ConversationCut.String(), "--intent-conversation-bytes") {
				t.Errorf("the cut's note %q does not say how to raise the limit", got.ConversationCut)
			}
		})
	}
}

// The default per-intent cap bounds what 32 intents carry of a large
// conversation: 32 × 16 KiB, not 32 × the conversation.
func TestDefaultIntentConversationCap(t *testing.T) {
	conv := make([]schemas.Message, 0, 64)
	for i := range 64 {
		conv = append(conv, schemas.Message{Role: "user", Content: strings.Repeat("x", 12<<10) + fmt.Sprint(i)})
	}
	out := withConversation(output(strings.Repeat("[TOOL: x] ", 32)), conv...)
	got, err := parse.New().Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range got.Intents {
		size := 0
		for _, m := range in.Conversation {
			size += len(m.Role) + len(m.Content)
		}
		if size > parse.DefaultIntentConversationBytes {
			t.Fatalf("an intent carries %d bytes, over %d", size, parse.DefaultIntentConversationBytes)
		}
		if last := in.Conversation[len(in.Conversation)-1].Content; !strings.HasSuffix(last, "63") {
			t.Fatal("the last turn is not the one carried")
		}
	}
}
