package parse

import (
	"fmt"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

// ConversationCut says how an output's conversation was shortened for its
// intents, so the receipt can tell the agent.
type ConversationCut struct {
	Turns, Bytes         int // the whole conversation
	KeptTurns, KeptBytes int // what each intent carries
}

// String is the receipt's note.
func (c ConversationCut) String() string {
	return fmt.Sprintf("each intent carries the last %d of the conversation's %d turns (%d of %d bytes; the limit per intent is --intent-conversation-bytes)",
		c.KeptTurns, c.Turns, c.KeptBytes, c.Bytes)
}

// conversationBytes is the size a conversation is measured by: its roles
// and contents, summed (what the JSON carries, give or take the quoting).
func conversationBytes(conv []schemas.Message) int {
	n := 0
	for _, m := range conv {
		n += len(m.Role) + len(m.Content)
	}
	return n
}

// minCutTurn is the least of a turn worth carrying cut: a shorter tail is
// more confusing than no turn at all.
const minCutTurn = 64

// tailConversation is the end of conv within limit bytes: the last turns
// whole, then, if room is left, the end of the turn before them, marked
// with a leading "…". The turns nearest the request are where the
// resolvers look for missing values. A shortened conversation is a new
// slice whose contents are conv's strings, not copies, and every intent of
// the output refers to that one slice.
func tailConversation(conv []schemas.Message, limit int) ([]schemas.Message, *ConversationCut) {
	total := conversationBytes(conv)
	if total <= limit {
		return conv, nil
	}
	budget := limit
	start := len(conv)
	var partial *schemas.Message
	for i := len(conv) - 1; i >= 0; i-- {
		size := len(conv[i].Role) + len(conv[i].Content)
		if size <= budget {
			budget -= size
			start = i
			continue
		}
		if room := budget - len(conv[i].Role) - len("…"); room >= minCutTurn {
			m := schemas.Message{Role: conv[i].Role, Content: "…" + tailBytes(conv[i].Content, room)}
			partial = &m
		}
		break
	}
	kept := make([]schemas.Message, 0, len(conv)-start+1)
	if partial != nil {
		kept = append(kept, *partial)
	}
	kept = append(kept, conv[start:]...)
	if len(kept) == 0 {
		kept = nil
	}
	return kept, &ConversationCut{Turns: len(conv), Bytes: total, KeptTurns: len(kept), KeptBytes: conversationBytes(kept)}
}

// tailBytes is the last n bytes of s, or fewer, starting on a character.
func tailBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}
