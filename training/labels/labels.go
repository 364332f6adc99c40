// Package labels derives training examples from audit records: for each
// intent, the tool the agent really wanted, as far as the audit shows it.
//
// The tool an auto-activated intent ran is the system's own guess; learning
// from it alone would reinforce every mistake. So an executed intent counts
// only when nothing in the session corrected it, and the strongest labels
// are the agent's own corrections and feedback:
//
//   - success: an intent that executed a tool with success and was not
//     followed in the same session, within the correction window, by a
//     correction or by "wrong" feedback;
//   - correction: after an intent was answered multiple_matches,
//     weak_matches or not_found (or ran a tool the agent then overrode), the
//     agent's next move in the session named the tool: `activate X`, a
//     direct `<tool_call name="X">`, or a rephrased intent that executed X —
//     the original intent is labelled X;
//   - feedback: an explicit feedback record (stage "feedback", decision
//     "correct", tool X) labels its intent X; decision "wrong" makes the
//     judged tool a negative and drops the intent's success label;
//   - history: an imported audit record with no stage (the DESIGN contract's
//     seven fields) whose result is success is a labelled example;
//   - negatives: "wrong" feedback, and arguments the resolver could not
//     fill from the intent for the tool routing chose (the intent was not
//     about that tool).
//
// Poisoning guard (Guard): one session contributes at most a few examples
// per tool, and a tool's learned intents count only once enough distinct
// sessions agree.
package labels

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// Source says where a label came from.
type Source string

// Sources of labels, strongest last.
const (
	SourceHistory    Source = "history"
	SourceSuccess    Source = "success"
	SourceCorrection Source = "correction"
	SourceFeedback   Source = "feedback"
)

// Example is one intent and the tool the agent wanted (or, Negative, a
// tool it did not want).
type Example struct {
	Time         time.Time `json:"time"`
	Session      string    `json:"session"`
	IntentID     string    `json:"intent_id,omitempty"`
	Text         string    `json:"text"`
	Conversation string    `json:"conversation,omitempty"`
	Tool         string    `json:"tool"`
	Source       Source    `json:"source"`
	Negative     bool      `json:"negative,omitempty"`
}

// Audit vocabulary the derivation reads (what the stages write).
const (
	stageParse    = "parse"
	stageRoute    = "route"
	stageResolve  = "resolve"
	stageExecute  = "execute"
	stageFeedback = "feedback"
	stageService  = "service"

	decisionDirectCall = "direct_call"
	decisionUnresolved = "unresolved"
	decisionCorrect    = "correct"
	decisionWrong      = "wrong"
	resultSuccess      = "success"

	activateTool = schemas.MetaActivateID
	metaPrefix   = "toolyard/"
)

// Tiers after which the agent's next move is a correction.
var uncertainTiers = map[string]bool{
	schemas.StatusMultiple: true, schemas.StatusWeak: true, schemas.StatusNotFound: true,
}

// Options tune the derivation.
type Options struct {
	// Window is how long after an intent the agent's next move still
	// corrects it (default 10 minutes).
	Window time.Duration
}

// intent is what the audit says about one intent.
type intent struct {
	id, session, text, conv string
	first                   time.Time
	tier                    string
	executed                string // tool that ran with success
	direct                  string // tool of a direct call
	activated               string // tool named by `activate X`
	unresolved              string // tool whose arguments could not be filled
	wrong                   []string
	wrongRan                bool // "wrong" feedback naming no tool: the one that ran
	correct                 string
	order                   int
}

// Derive turns audit records (any order; they are sorted by time) into
// examples, in time order.
func Derive(records []schemas.AuditRecord, opts Options) []Example {
	if opts.Window <= 0 {
		opts.Window = 10 * time.Minute
	}
	recs := slices.Clone(records)
	slices.SortStableFunc(recs, func(a, b schemas.AuditRecord) int { return a.Timestamp.Compare(b.Timestamp) })

	var out []Example
	intents := map[string]*intent{}
	var seq []*intent
	get := func(r schemas.AuditRecord) *intent {
		key := r.SessionID + "\x00" + r.IntentID
		in := intents[key]
		if in == nil {
			in = &intent{id: r.IntentID, session: r.SessionID, first: r.Timestamp, order: len(seq)}
			intents[key] = in
			seq = append(seq, in)
		}
		if in.text == "" && r.IntentExpressed != "" && r.Stage != stageFeedback {
			in.text = IntentText(r.IntentExpressed)
			in.conv = r.ConversationContext
		}
		return in
	}
	for _, r := range recs {
		switch {
		case r.Stage == "" && r.IntentID == "":
			// Imported history: the contract's seven fields.
			if r.Result == resultSuccess && r.ToolID != "" && !strings.HasPrefix(r.ToolID, metaPrefix) {
				if t := IntentText(r.IntentExpressed); t != "" {
					out = append(out, Example{Time: r.Timestamp, Session: r.SessionID, Text: t,
						Conversation: r.ConversationContext, Tool: r.ToolID, Source: SourceHistory})
				}
			}
			continue
		case r.IntentID == "":
			continue
		}
		in := get(r)
		switch r.Stage {
		case stageParse:
			if r.Decision == decisionDirectCall && r.ToolID != "" {
				in.direct = r.ToolID
			}
		case stageRoute:
			in.tier = r.Decision
		case stageService:
			// The micro service routes and runs in one step.
			in.tier = r.Decision
			if r.Result == schemas.StatusExecuted && r.ToolID != "" && !strings.HasPrefix(r.ToolID, metaPrefix) {
				in.executed = r.ToolID
			}
		case stageResolve:
			if r.Decision == decisionUnresolved && r.ToolID != "" {
				in.unresolved = r.ToolID
			}
		case stageExecute:
			if r.Result != resultSuccess {
				continue
			}
			if r.ToolID == activateTool {
				if id, _ := r.Parameters["id"].(string); id != "" {
					in.activated = id
				} else if id, _ := r.Parameters["item_id"].(string); id != "" {
					in.activated = id
				}
			} else if !strings.HasPrefix(r.ToolID, metaPrefix) {
				in.executed = r.ToolID
			}
		case stageFeedback:
			switch r.Decision {
			case decisionCorrect:
				in.correct = r.ToolID
			case decisionWrong:
				if r.ToolID == "" {
					in.wrongRan = true
				} else {
					in.wrong = append(in.wrong, r.ToolID)
				}
			}
		}
	}
	out = append(out, fromIntents(seq, opts.Window)...)
	slices.SortStableFunc(out, func(a, b Example) int { return a.Time.Compare(b.Time) })
	return out
}

// named is the tool an intent's own move names: a direct call or an
// activation (not discovery's guess).
func (in *intent) named() string { return cmp.Or(in.direct, in.activated) }

func fromIntents(seq []*intent, window time.Duration) []Example {
	bySession := map[string][]*intent{}
	for _, in := range seq {
		bySession[in.session] = append(bySession[in.session], in)
	}
	var out []Example
	ex := func(in *intent, tool string, src Source, neg bool) {
		if in.text == "" || tool == "" || strings.HasPrefix(tool, metaPrefix) {
			return
		}
		out = append(out, Example{Time: in.first, Session: in.session, IntentID: in.id, Text: in.text,
			Conversation: in.conv, Tool: tool, Source: src, Negative: neg})
	}
	for _, ins := range bySession {
		slices.SortStableFunc(ins, func(a, b *intent) int {
			return cmp.Or(a.first.Compare(b.first), cmp.Compare(a.order, b.order))
		})
		for i, in := range ins {
			if in.wrongRan && in.executed != "" && !slices.Contains(in.wrong, in.executed) {
				in.wrong = append(in.wrong, in.executed)
			}
			for _, w := range in.wrong {
				ex(in, w, SourceFeedback, true)
			}
			if in.unresolved != "" {
				ex(in, in.unresolved, SourceSuccess, true)
			}
			if in.correct != "" {
				ex(in, in.correct, SourceFeedback, false)
				continue
			}
			// The agent's next move within the window, if it named or ran
			// a tool, is its answer to this intent.
			var next *intent
			if i+1 < len(ins) && ins[i+1].first.Sub(in.first) <= window {
				next = ins[i+1]
			}
			nextTool := ""
			if next != nil {
				nextTool = cmp.Or(next.named(), next.executed)
			}
			switch {
			case in.named() != "":
				// A move (activate X, a direct call), not a request in
				// words: its tool labels the intent it answers, above.
			case uncertainTiers[in.tier] || (in.tier == "" && in.executed == ""):
				if nextTool != "" && next.named() != "" || nextTool != "" && next.executed != "" && isRephrase(in, next) {
					ex(in, nextTool, SourceCorrection, false)
				}
			case in.executed != "":
				corrected := next != nil && next.named() != "" && next.named() != in.executed && isRephrase(in, next)
				switch {
				case slices.Contains(in.wrong, in.executed):
				case corrected:
					ex(in, next.named(), SourceCorrection, false)
					ex(in, in.executed, SourceCorrection, true)
				default:
					ex(in, in.executed, SourceSuccess, false)
				}
			}
		}
	}
	return out
}

// isRephrase says whether next is the agent trying again for what in asked
// rather than moving on: a direct call or activation right after an
// uncertain answer is, and so is an intent sharing a content word with it.
func isRephrase(in, next *intent) bool {
	if next.named() != "" && next.text == "" {
		return true
	}
	a, b := contentWords(in.text), contentWords(next.text)
	if next.named() != "" && len(b) == 0 {
		return true // "activate X", "<tool_call name=X>": no words of its own
	}
	for w := range a {
		if b[w] {
			return true
		}
	}
	return next.named() != "" && isBareMove(next.text)
}

// isBareMove is an intent that is only a tool move: "activate X" or a call.
func isBareMove(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	return strings.HasPrefix(t, "activate ") || strings.HasPrefix(t, "<tool_call")
}

func contentWords(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(w) > 3 && !stop[w] {
			out[w] = true
		}
	}
	return out
}

var stop = map[string]bool{"that": true, "this": true, "with": true, "from": true, "what": true, "have": true,
	"please": true, "could": true, "would": true, "about": true, "there": true, "their": true, "want": true,
	"need": true, "some": true, "tool": true, "help": true, "find": true, "show": true, "give": true}

// IntentText is the request an intent expresses: a `[TOOL: …]` marker's
// inside, or the text as it is.
func IntentText(s string) string {
	t := strings.TrimSpace(s)
	if len(t) > 7 && strings.EqualFold(t[:6], "[TOOL:") && strings.HasSuffix(t, "]") {
		t = strings.TrimSpace(t[6 : len(t)-1])
	}
	return t
}
