package resolve

import "testing"

// TestMessageAndObjectGuards: requests near the message-colon, "that",
// one-item, play-object, open-now, "is there" and possessive-owner rules
// that must keep what they resolved to before (or keep asking).
func TestMessageAndObjectGuards(t *testing.T) {
	checkResolveCases(t, []resolveCase{
		// A pronoun or a reference is no item.
		{"item pronoun", ruleBasket, "add it to the list", map[string]any{"action": "add"}},
		{"item vague", ruleBasket, "add more to the list", map[string]any{"action": "add"}},
		{"two items stay a list", ruleBasket, "add limes and mint to the list", map[string]any{"action": "add", "items": []any{"limes", "mint"}}},
		// An array of people is no list of items.
		{"no attendees", manifest("t/invite", "Invite", `{"type":"object","properties":{"attendees":{"type":"array","items":{"type":"string"}}}}`),
			"add Priya", map[string]any{}},
		// A reference or only the tool's own words is no query.
		{"play reference", ruleTunes, "play this", map[string]any{}},
		{"play own words", ruleTunes, "play music in the kitchen", map[string]any{"room": "kitchen"}},
		{"put on pronoun", ruleTunes, "put on something calm", map[string]any{}},
		// "that" as a demonstrative is no message.
		{"that photo", ruleChatApp, "send Bo that photo", map[string]any{"chat": "Bo"}},
		// A pronoun before the colon is no recipient: ask who.
		{"colon pronoun", ruleChatApp, "tell them: we're here", nil},
		// A verb's particle before the colon is no recipient: the colon
		// is read as before.
		{"colon particle", manifest("t/memo", "Memo", `{"type":"object","required":["title"],"properties":{"title":{"type":"string"},"text":{"type":"string"}}}`),
			"write down: buy stamps", map[string]any{"title": "buy stamps"}},
		// Not open is no open-now.
		{"not open", ruleNearby, "find a bakery that is not open", map[string]any{"query": "bakery that is not open"}},
		// "is there" with more than where the asker is: the whole rest
		// past the question's frame.
		{"there with more", ruleNearby, "is there a problem with my car", map[string]any{"query": "problem with my car"}},
		// A possessive whose thing is not the tool's: no owner as chat.
		{"owner of other", ruleChatApp, "pin the photo on the coach's fridge", nil},
	})
}
