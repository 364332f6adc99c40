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

func activatedMessage(intent string, ms []schemas.Candidate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Running %s (confidence %s) for %s.", ms[0].ToolID, conf(ms[0]), intent)
	if len(ms) > 1 {
		fmt.Fprintf(&b, " Also considered: %s.", list(ms[1:]))
	}
	return b.String()
}

func multipleMessage(intent string, ms []schemas.Candidate) string {
	if len(ms) == 1 {
		return fmt.Sprintf("The best match for %s is %s, but not surely. "+
			"Re-issue the request naming it if it is right, e.g. [TOOL: %s key=value …], "+
			"or rephrase it more specifically.", intent, list(ms), ms[0].ToolID)
	}
	return fmt.Sprintf("Several tools could do %s: %s. "+
		"Re-issue the request naming the one you mean, e.g. [TOOL: %s key=value …], "+
		"or rephrase it more specifically.", intent, list(ms), ms[0].ToolID)
}

func weakMessage(intent string, ms []schemas.Candidate) string {
	if len(ms) == 1 {
		return fmt.Sprintf("Only a weak match for %s: %s. It does not fit well enough to run. "+
			"Rephrase the request saying what the tool should do and to what, "+
			"or if it is right, name it: [TOOL: %s key=value …].", intent, list(ms), ms[0].ToolID)
	}
	return fmt.Sprintf("Only weak matches for %s: %s. None fits well enough to run. "+
		"Rephrase the request saying what the tool should do and to what, "+
		"or if one of these is right, name it: [TOOL: %s key=value …].", intent, list(ms), ms[0].ToolID)
}

func notFoundMessage(intent string, nearest []schemas.Candidate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No tool matched %s.", intent)
	switch len(nearest) {
	case 0:
	case 1:
		fmt.Fprintf(&b, " The nearest, %s, is too far off.", list(nearest))
	default:
		fmt.Fprintf(&b, " The nearest, %s, are too far off.", list(nearest))
	}
	b.WriteString(" Rephrase the request saying what the tool should do and to what, " +
		"or look for tools with [TOOL: search tools for <what you need>].")
	return b.String()
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
