package replay

import (
	"slices"
	"strconv"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/labels"
)

// TierUnknown is the tier of a recorded intent whose audit says no tier.
const TierUnknown = "unknown"

// Tiers are the routing tiers in report order, most confident first.
var Tiers = []string{schemas.TierActivated, schemas.TierMultiple, schemas.TierWeak, schemas.TierNotFound}

// Intent is one recorded intent to replay.
type Intent struct {
	// Key identifies the intent across the audit and the labels.
	Key      string    `json:"-"`
	Session  string    `json:"session"`
	IntentID string    `json:"intent_id,omitempty"`
	Time     time.Time `json:"time"`
	// Expressed is the text as recorded: a [TOOL: …] marker (imported
	// history) or the parsed intent text (pipeline records).
	Expressed    string `json:"-"`
	Text         string `json:"text"`
	Conversation string `json:"-"`
	// Recorded is what the audit says was decided; Recorded.Confidence is
	// nil when the audit gives none (imported history).
	Recorded Outcome `json:"-"`
}

// Outcome is one side's decision about an intent.
type Outcome struct {
	Tier string `json:"tier"`
	// Tool is the tool handed on (the first match); empty for not_found.
	Tool string `json:"tool,omitempty"`
	// Top is discovery's most confident candidate, whatever the tier: what
	// the confidence is about.
	Top string `json:"top,omitempty"`
	// Confidence is the top candidate's; nil when not known.
	Confidence *float64 `json:"confidence,omitempty"`
	// Ran says the tool would run: activated and its arguments resolved.
	Ran bool `json:"ran"`
	// Unresolved is why an activated intent's arguments could not be filled.
	Unresolved string   `json:"unresolved,omitempty"`
	Candidates []string `json:"candidates,omitempty"`
	// LatencyMS is the time the side took (recorded: the discover stage's).
	LatencyMS *float64 `json:"latency_ms,omitempty"`
}

// Skipped counts recorded intents that cannot be replayed, by reason.
type Skipped map[string]int

// Extract groups audit records into the intents to replay, in time order:
// an imported history record (no stage) is one intent; pipeline records
// are grouped by session and intent id, and an intent is replayed when
// discovery saw it (a discover, route or service record). Direct calls and
// records of nothing discovery decided are counted in Skipped.
func Extract(records []schemas.AuditRecord) ([]Intent, Skipped) {
	skipped := Skipped{}
	var out []Intent
	type acc struct {
		in         Intent
		discovered bool
		direct     bool
		executed   string
	}
	byKey := map[string]*acc{}
	var order []*acc
	for _, r := range records {
		switch {
		case r.Stage == "" && r.IntentID == "":
			text := labels.IntentText(r.IntentExpressed)
			if text == "" {
				skipped["no intent text"]++
				continue
			}
			rec := Outcome{Tier: schemas.TierNotFound}
			if r.ToolID != "" {
				// A history record names the tool that ran for the intent.
				rec = Outcome{Tier: schemas.TierActivated, Tool: r.ToolID, Top: r.ToolID, Ran: r.Result == "success"}
			}
			out = append(out, Intent{Key: HistoryKey(r.SessionID, r.Timestamp, text), Session: r.SessionID, Time: r.Timestamp,
				Expressed: r.IntentExpressed, Text: text, Conversation: r.ConversationContext, Recorded: rec})
			continue
		case r.IntentID == "":
			continue
		}
		key := IntentKey(r.SessionID, r.IntentID)
		a := byKey[key]
		if a == nil {
			a = &acc{in: Intent{Key: key, Session: r.SessionID, IntentID: r.IntentID, Time: r.Timestamp}}
			byKey[key] = a
			order = append(order, a)
		}
		if r.Timestamp.Before(a.in.Time) {
			a.in.Time = r.Timestamp
		}
		if a.in.Text == "" && r.IntentExpressed != "" && r.Stage != "feedback" {
			a.in.Expressed, a.in.Text, a.in.Conversation = r.IntentExpressed, labels.IntentText(r.IntentExpressed), r.ConversationContext
		}
		rec := &a.in.Recorded
		switch r.Stage {
		case "parse":
			a.direct = a.direct || r.Decision == "direct_call"
		case "discover":
			a.discovered = true
			if r.DurationMS > 0 {
				rec.LatencyMS = ptr(r.DurationMS)
			}
			if len(r.Candidates) > 0 {
				rec.Top = r.Candidates[0]
				if rec.Confidence == nil {
					rec.Confidence = ptr(r.Confidence)
				}
			}
		case "route", "service":
			a.discovered = true
			rec.Tier = r.Decision
			rec.Tool = r.ToolID
			rec.Candidates = r.Candidates
			if r.ToolID != "" || r.Decision == schemas.TierNotFound {
				rec.Confidence = ptr(r.Confidence)
			}
			if r.Stage == "service" && r.Result == schemas.StatusExecuted {
				a.executed = r.ToolID
			}
		case "resolve":
			if r.Decision == "unresolved" {
				rec.Unresolved = r.Error
			}
		case "execute":
			// The call ran (well or not): the tool was decided.
			if r.ToolID != "" {
				a.executed = r.ToolID
			}
		}
	}
	for _, a := range order {
		switch {
		case a.direct:
			skipped["direct call (no discovery)"]++
			continue
		case !a.discovered:
			skipped["no discovery recorded"]++
			continue
		case a.in.Text == "":
			skipped["no intent text"]++
			continue
		}
		rec := &a.in.Recorded
		if rec.Tier == "" {
			rec.Tier = TierUnknown
		}
		if rec.Tier != schemas.TierNotFound && rec.Tool == "" && len(rec.Candidates) > 0 {
			rec.Tool = rec.Candidates[0]
		}
		// What ran is what was decided, whatever the route record said
		// (the medium tier's chooser may have picked another).
		if a.executed != "" {
			rec.Tool, rec.Ran = a.executed, true
		}
		if rec.Top == "" {
			rec.Top = rec.Tool
		}
		out = append(out, a.in)
	}
	slices.SortStableFunc(out, func(a, b Intent) int { return a.Time.Compare(b.Time) })
	return out, skipped
}

// IntentKey is the key of a pipeline intent.
func IntentKey(session, intentID string) string { return session + "\x00" + intentID }

// HistoryKey is the key of an imported history record: it has no intent id.
func HistoryKey(session string, at time.Time, text string) string {
	return session + "\x00@" + strconv.FormatInt(at.UnixNano(), 10) + "\x00" + text
}

func ptr[T any](v T) *T { return &v }
