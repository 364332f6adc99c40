package llmresolve

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
)

// How much context a prompt carries around the request.
const (
	maxContextRunes = 300
	maxTurnRunes    = 200
	maxTurns        = 4
)

const analysisSystem = `You choose which tool, if any, fulfils a request. ` +
	`Answer with one JSON object and nothing else.`

const argumentsSystem = `You fill in the arguments of a tool call from a request. ` +
	`Answer with one JSON object of arguments and nothing else.`

// analysisPrompt asks phase 1's question about the candidates.
func analysisPrompt(in schemas.Intent, es []entry, turns int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Request: %q\n", oneLine(in.Text, 1000))
	writeContext(&b, in, turns)
	b.WriteString("Candidate tools:\n")
	for _, e := range es {
		writeTool(&b, e, false)
	}
	b.WriteString(`Answer: {"use_tool": true or false, "server": "<server>", "tool": "<tool id from the list>", ` +
		`"confidence": <0 to 1, how sure you are that this tool is what the request wants>, "reasoning": "<one short sentence>"}` + "\n")
	b.WriteString(`If none of the tools fits, answer {"use_tool": false, "reasoning": "<why>"}.`)
	return b.String()
}

// argumentsPrompt asks phase 2's question about the chosen tool.
func argumentsPrompt(in schemas.Intent, e entry, jsonMode bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Request: %q\n", oneLine(in.Text, 1000))
	writeContext(&b, in, maxTurns)
	fmt.Fprintf(&b, "Tool: %s", e.tool.ID)
	if d := oneLine(e.tool.Description, maxToolDescRunes); d != "" {
		fmt.Fprintf(&b, ": %s", d)
	}
	b.WriteString("\nParameters:\n")
	if len(e.params) == 0 {
		b.WriteString("- none\n")
	} else {
		b.WriteString("- ")
		writeParams(&b, e.params, true, "\n- ")
		b.WriteString("\n")
	}
	b.WriteString("Answer with the JSON object of arguments, e.g. " + example(e.params) + ". " +
		"Take values from the request and its context only; leave out optional parameters it does not give. ")
	if jsonMode {
		b.WriteString(`If a required value is not given, answer {"error": "<what is missing>"}.`)
	} else {
		b.WriteString(`If a required value is not given, answer <error>what is missing</error>.`)
	}
	return b.String()
}

// example shows the answer's shape with the first two parameters.
func example(ps []param) string {
	if len(ps) == 0 {
		return "{}"
	}
	var parts []string
	for _, p := range ps[:min(2, len(ps))] {
		v := `"…"`
		switch {
		case len(p.enum) > 0:
			v = fmt.Sprintf("%q", p.enum[0])
		case p.typ == "integer" || p.typ == "number":
			v = "10"
		case p.typ == "boolean":
			v = "true"
		case strings.HasPrefix(p.typ, "array"):
			v = `["…"]`
		}
		parts = append(parts, fmt.Sprintf("%q: %s", p.name, v))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// writeContext adds what surrounds the request: the end of the text before
// it, the start of the text after it, and the last turns of the
// conversation. Only as much as helps read the request.
func writeContext(b *strings.Builder, in schemas.Intent, turns int) {
	if s := tail(in.ContextBefore, maxContextRunes); s != "" {
		fmt.Fprintf(b, "Text before the request: %q\n", s)
	}
	if s := oneLine(in.ContextAfter, maxContextRunes/2); s != "" {
		fmt.Fprintf(b, "Text after the request: %q\n", s)
	}
	conv := in.Conversation
	if turns <= 0 || len(conv) == 0 {
		return
	}
	if len(conv) > turns {
		conv = conv[len(conv)-turns:]
	}
	b.WriteString("Conversation so far (latest last):\n")
	for _, m := range conv {
		fmt.Fprintf(b, "- %s: %s\n", m.Role, tail(m.Content, maxTurnRunes))
	}
}

// tail is the last n runes of s on one line: the words nearest the request.
func tail(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return "…" + strings.TrimSpace(string(r[len(r)-n:]))
}

// correction asks again after an unusable answer, quoting the problem.
func correction(problem string) string {
	return "That answer cannot be used: " + oneLine(problem, 600) +
		". Answer again with only the corrected JSON object."
}
