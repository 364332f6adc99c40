package route

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

// maxIntentRunes is how much of the intent a message quotes: enough to
// recognise it, short enough that a pasted page does not flood the reply.
const maxIntentRunes = 120

// nearestShown is how many below-threshold candidates a not-found message
// names, so the agent sees how far off the registry is.
const nearestShown = 2

// serversShown is how many servers a not-found message names; the result's
// Available field carries the (also bounded) list.
const serversShown = 8

func activatedMessage(intent string, ms []schemas.Candidate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Running %s (confidence %s) for %s.", ms[0].ToolID, conf(ms[0]), intent)
	if len(ms) > 1 {
		fmt.Fprintf(&b, " Also considered: %s.", list(ms[1:]))
	}
	return b.String()
}

// activateHow tells the agent the two ways to use a tool it was offered.
func activateHow(id string) string {
	return fmt.Sprintf("activate it with [TOOL: activate %s] (it joins your tools and you get its parameters) "+
		"or call it directly: <tool_call name=%q>{…arguments…}</tool_call>", id, id)
}

func multipleMessage(intent string, ms []schemas.Candidate) string {
	if len(ms) == 1 {
		return fmt.Sprintf("The best match for %s is %s, but not surely. If it is right, %s; otherwise rephrase the request more specifically.",
			intent, list(ms), activateHow(ms[0].ToolID))
	}
	return fmt.Sprintf("Several tools could do %s: %s. To use one, %s (likewise for the others); otherwise rephrase the request more specifically.",
		intent, list(ms), activateHow(ms[0].ToolID))
}

// nearMissMessage answers an intent whose best match says it does another
// kind of thing than the intent asks (schemas.Candidate.Mismatch): "Several
// tools could do 'delete the message': the tool that posts one" would
// offer it as if it could.
func nearMissMessage(intent string, ms []schemas.Candidate) string {
	top := ms[0]
	var b strings.Builder
	fmt.Fprintf(&b, "No tool here says it can %s as %s asks: %s shares its words but says it can %s.",
		top.Mismatch.AskedText(), intent, list(ms[:1]), top.Mismatch.NamesText())
	which := "it is"
	if len(ms) > 1 {
		fmt.Fprintf(&b, " Other matches: %s.", list(ms[1:]))
		which = "one of them is"
	}
	fmt.Fprintf(&b, " If %s right anyway, %s; otherwise look for a tool that can with [TOOL: find_tools <what you need>].", which, activateHow(top.ToolID))
	return b.String()
}

func weakMessage(intent string, ms []schemas.Candidate) string {
	if len(ms) == 1 {
		return fmt.Sprintf("Only a weak match for %s: %s. It does not fit well enough to run. "+
			"Rephrase the request saying what the tool should do and to what, or if it is right, %s.",
			intent, list(ms), activateHow(ms[0].ToolID))
	}
	return fmt.Sprintf("Only weak matches for %s: %s. None fits well enough to run. "+
		"Rephrase the request saying what the tool should do and to what, or if one of these is right, %s.",
		intent, list(ms), activateHow(ms[0].ToolID))
}

func notFoundMessage(intent string, nearest []schemas.Candidate, unmatched []string, cat *schemas.Catalog) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No tool matched %s.", intent)
	switch len(unmatched) {
	case 0:
	case 1:
		fmt.Fprintf(&b, " No tool knows the word %s.", quoteAll(unmatched))
	default:
		fmt.Fprintf(&b, " No tool knows the words %s.", quoteAll(unmatched))
	}
	switch len(nearest) {
	case 0:
	case 1:
		fmt.Fprintf(&b, " The nearest, %s, is too far off.", list(nearest))
	default:
		fmt.Fprintf(&b, " The nearest, %s, are too far off.", list(nearest))
	}
	if len(nearest) > 0 && nearest[0].Mismatch != nil {
		m := nearest[0].Mismatch
		fmt.Fprintf(&b, " %s says it can %s, not %s.", nearest[0].ToolID, m.NamesText(), m.AskedText())
	}
	if cat != nil && cat.Tools > 0 {
		fmt.Fprintf(&b, " Available: %s.", summary(*cat))
	}
	b.WriteString(" Rephrase the request saying what the tool should do and to what, " +
		"or look for tools with [TOOL: find_tools <what you need>].")
	return b.String()
}

// emptyScopeMessage answers an intent whose output's scope holds no tool of
// the registry: it was told "No tool matched … Rephrase the request", which
// no rephrasing could ever fix.
func emptyScopeMessage(intent string, scope []string) string {
	return fmt.Sprintf("No tool matched %s: this output's scope (%s) holds no tool of the registry, so none was searched. "+
		"Fix the scope (tool ids such as files/checksum, or servers such as files) or leave it out.", intent, clipScope(scope))
}

// clipScope lists a scope, its first entries only when it is long.
func clipScope(scope []string) string {
	const shown = 8
	if len(scope) <= shown {
		return strings.Join(scope, ", ")
	}
	return strings.Join(scope[:shown], ", ") + fmt.Sprintf(" and %d more", len(scope)-shown)
}

// summary renders a catalog as "45 tools on 6 servers: system (12), files (9), …".
func summary(c schemas.Catalog) string {
	servers := len(c.Servers) + c.MoreServers
	noun := "servers"
	if servers == 1 {
		noun = "server"
	}
	tools := "tools"
	if c.Tools == 1 {
		tools = "tool"
	}
	parts := make([]string, 0, serversShown)
	for i, s := range c.Servers {
		if i == serversShown {
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", s.Server, s.Tools))
	}
	out := fmt.Sprintf("%d %s on %d %s: %s", c.Tools, tools, servers, noun, strings.Join(parts, ", "))
	if servers > len(parts) {
		out += fmt.Sprintf(" and %d more", servers-len(parts))
	}
	return out
}

func quoteAll(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

// list renders candidates as "id (0.72), id (0.61)".
func list(ms []schemas.Candidate) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.ToolID + " (" + conf(m) + ")"
	}
	return strings.Join(parts, ", ")
}

func conf(m schemas.Candidate) string { return strconv.FormatFloat(m.Confidence, 'f', 2, 64) }

// quoteIntent is the intent on one line, clipped, in double quotes.
func quoteIntent(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return "the empty request"
	}
	if utf8.RuneCountInString(text) > maxIntentRunes {
		r := []rune(text)
		text = strings.TrimSpace(string(r[:maxIntentRunes])) + "…"
	}
	return strconv.Quote(text)
}
