package join

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Error codes of the results join sends for outer intents it does not run.
const (
	// CodeInputFailed: an inner intent did not execute.
	CodeInputFailed = "input_failed"
	// CodeInputTimeout: an inner intent gave no result in time.
	CodeInputTimeout = "input_timeout"
)

// maxReason bounds how much of an inner failure is quoted in the outer one.
const maxReason = 300

// Render is what an inner result contributes to its outer intent. An
// executed result gives its output as one line of text: string content as
// is, other content as compact JSON, whitespace runs as one space (as the
// parser normalizes intent text), cut at maxRunes runes with "…". Any other
// result is a failed input that keeps the inner result's explanation.
func Render(r schemas.Result, maxRunes int) Input {
	in := Input{Status: r.Status, ToolID: r.ToolID}
	if r.Status != schemas.StatusExecuted {
		in.Reason = r.Message
		if r.Error != nil {
			in.Code = r.Error.Code
			if in.Reason == "" {
				in.Reason = r.Error.Message
			}
		}
		if len(r.Matches) > 0 {
			// The alternatives say more than the advice around them, and
			// an agent can call one of them directly.
			ids := make([]string, len(r.Matches))
			for i, m := range r.Matches {
				ids[i] = fmt.Sprintf("%s (%.2f)", m.ToolID, m.Confidence)
			}
			in.Reason = "the candidates were " + strings.Join(ids, ", ")
		}
		in.Reason = clipRunes(strings.Join(strings.Fields(in.Reason), " "), maxReason)
		return in
	}
	var text string
	if r.Output != nil {
		switch c := r.Output.Content.(type) {
		case nil:
		case string:
			text = c
		default:
			b, err := json.Marshal(c)
			if err != nil {
				b = []byte(fmt.Sprint(c))
			}
			text = string(b)
		}
	}
	in.Text = clipRunes(strings.Join(strings.Fields(text), " "), maxRunes)
	return in
}

// clipRunes cuts s to at most n runes, marking the cut with "…".
func clipRunes(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return strings.TrimRight(s[:i], " ") + "…"
}

// Add records the input of inner intent id. It reports false, changing
// nothing, when id is not an input of the record or its input is already in
// (a redelivered result), or the record is no longer waiting.
func (p *Pending) Add(id string, in Input) bool {
	if p.State != StateWaiting || !p.Waits(id) {
		return false
	}
	if _, dup := p.Inputs[id]; dup {
		return false
	}
	if p.Inputs == nil {
		p.Inputs = map[string]Input{}
	}
	p.Inputs[id] = in
	return true
}

// Decide makes a waiting record done once every input is in, with its
// outcome: the outer intent with the inputs substituted, or an error result
// when an input failed. It reports whether the record became done.
func (p *Pending) Decide(now time.Time) bool {
	if p.State != StateWaiting || len(p.Missing()) > 0 {
		return false
	}
	var failed []string
	for _, id := range p.Intent.DependsOn {
		if !p.Inputs[id].OK() {
			failed = append(failed, id)
		}
	}
	switch {
	case len(failed) > 0:
		p.done(now, Outcome{Result: p.failure(CodeInputFailed, p.failedMessage(failed))})
	default:
		in, err := Substitute(p.Intent, p.Inputs)
		if err != nil {
			p.done(now, Outcome{Result: p.failure(CodeInputFailed, "not run: "+err.Error())})
		} else {
			p.done(now, Outcome{Intent: &in})
		}
	}
	return true
}

// Expire makes a record that has waited timeout or longer done, with an
// error result naming the inputs that never arrived. It reports whether the
// record became done.
func (p *Pending) Expire(now time.Time, timeout time.Duration) bool {
	if p.State != StateWaiting || now.Sub(p.CreatedAt) < timeout {
		return false
	}
	missing := p.Missing()
	var b strings.Builder
	fmt.Fprintf(&b, "not run: this intent waited %s for the result of %s, which did not arrive", timeout, p.describe(missing))
	b.WriteString(". Check that workers run every stage (toolyard worker --stage …) and send the request again.")
	p.done(now, Outcome{Result: p.failure(CodeInputTimeout, b.String())})
	return true
}

func (p *Pending) done(now time.Time, o Outcome) {
	p.State, p.Outcome, p.DoneAt = StateDone, &o, now.UTC()
}

func (p *Pending) failure(code, msg string) *schemas.Result {
	in := p.Intent
	r := bind.ErrorResult(bind.StageJoin, in.SessionID, in.MessageID, in.ID, in.Text, code, errors.New(msg))
	// A failed input is itself a failed input to the intent further out.
	r.Outer = in.Outer
	return &r
}

// failedMessage says which inputs failed, how, and what to do.
func (p *Pending) failedMessage(failed []string) string {
	var b strings.Builder
	b.WriteString("not run: this intent needs the result of ")
	for i, id := range failed {
		if i > 0 {
			b.WriteString("; and of ")
		}
		in := p.Inputs[id]
		fmt.Fprintf(&b, "intent %s (%q), which ended as %s", id, p.innerText(id), in.Status)
		if in.Code != "" {
			fmt.Fprintf(&b, " (%s)", in.Code)
		}
		if in.Reason != "" {
			fmt.Fprintf(&b, ": %s", strings.TrimRight(in.Reason, "."))
		}
	}
	b.WriteString(". Make the inner intent work on its own (see its result), then send the request again.")
	return b.String()
}

// describe names intents by id and text: `intent m.0 ("fetch …")`.
func (p *Pending) describe(ids []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("intent %s (%q)", id, p.innerText(id))
	}
	return strings.Join(parts, " and ")
}

// Substitute returns the outer intent with each nested span replaced by the
// text of its input, and Nested moved to where the inputs now stand. Every
// input must be present. It fails when the spans do not fit the text, or
// when nothing but whitespace is left.
func Substitute(in schemas.Intent, inputs map[string]Input) (schemas.Intent, error) {
	var b strings.Builder
	b.Grow(len(in.Text))
	nested := make([]schemas.Nested, 0, len(in.Nested))
	prev := 0
	for _, n := range in.Nested {
		if n.Start < prev || n.End < n.Start || n.End > len(in.Text) {
			return in, fmt.Errorf("intent %s: nested span [%d,%d) of %s does not fit its %d-byte text", in.ID, n.Start, n.End, n.ID, len(in.Text))
		}
		input, ok := inputs[n.ID]
		if !ok {
			return in, fmt.Errorf("intent %s: no input for nested intent %s", in.ID, n.ID)
		}
		b.WriteString(in.Text[prev:n.Start])
		start := b.Len()
		b.WriteString(input.Text)
		nested = append(nested, schemas.Nested{ID: n.ID, Start: start, End: b.Len()})
		prev = n.End
		// An empty input between two spaces would leave two: keep one.
		if input.Text == "" && start > 0 && b.String()[start-1] == ' ' && prev < len(in.Text) && in.Text[prev] == ' ' {
			prev++
		}
	}
	b.WriteString(in.Text[prev:])
	text := b.String()
	if strings.TrimSpace(text) == "" {
		return in, fmt.Errorf("the output of %s was empty, and nothing else is left of this intent", describeIDs(in.DependsOn))
	}
	// Text is normalized to single spaces, and so are inputs; an empty input
	// at either end leaves a space to trim, and the spans move with it.
	lead := len(text) - len(strings.TrimLeft(text, " "))
	text = strings.Trim(text, " ")
	for i := range nested {
		nested[i].Start = min(len(text), max(0, nested[i].Start-lead))
		nested[i].End = min(len(text), max(nested[i].Start, nested[i].End-lead))
	}
	out := in
	out.Text, out.Nested = text, nested
	return out, nil
}

func describeIDs(ids []string) string {
	if len(ids) == 1 {
		return "intent " + ids[0]
	}
	return "intents " + strings.Join(ids, ", ")
}
