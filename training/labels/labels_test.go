package labels

import (
	"fmt"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

var t0 = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)

// rec builds an audit record of the pipeline at t0 plus sec seconds.
func rec(sec int, session, intent, stage, decision, result, tool, text string, params map[string]any) schemas.AuditRecord {
	return schemas.AuditRecord{Timestamp: t0.Add(time.Duration(sec) * time.Second), SessionID: session, IntentID: intent,
		Stage: stage, Decision: decision, Result: result, ToolID: tool, IntentExpressed: text, Parameters: params}
}

// asked is an intent that routing answered with tier (and, activated, ran tool).
func asked(sec int, session, intent, text, tier, ran string) []schemas.AuditRecord {
	rs := []schemas.AuditRecord{
		rec(sec, session, intent, "parse", "intent", "parsed", "", text, nil),
		rec(sec, session, intent, "route", tier, tier, "", text, nil),
	}
	if ran != "" {
		rs = append(rs, rec(sec, session, intent, "execute", "executed", "success", ran, text, nil))
	}
	return rs
}

func activate(sec int, session, intent, tool string) []schemas.AuditRecord {
	text := "activate " + tool
	return []schemas.AuditRecord{
		rec(sec, session, intent, "parse", "intent", "parsed", "", text, nil),
		rec(sec, session, intent, "execute", "executed", "success", activateTool, text, map[string]any{"id": tool}),
	}
}

func direct(sec int, session, intent, tool string) []schemas.AuditRecord {
	return []schemas.AuditRecord{
		rec(sec, session, intent, "parse", decisionDirectCall, "parsed", tool, "", nil),
		rec(sec, session, intent, "execute", "executed", "success", tool, "", nil),
	}
}

func cat(rss ...[]schemas.AuditRecord) []schemas.AuditRecord {
	var out []schemas.AuditRecord
	for _, rs := range rss {
		out = append(out, rs...)
	}
	return out
}

func TestDerive(t *testing.T) {
	type want struct {
		text, tool string
		src        Source
		neg        bool
	}
	tests := []struct {
		name string
		recs []schemas.AuditRecord
		want []want
	}{
		{"an executed intent nobody corrected", asked(0, "s", "a", "how full is the disk", "activated", "sys/df"),
			[]want{{"how full is the disk", "sys/df", SourceSuccess, false}}},
		{"multiple matches, then activate X", cat(asked(0, "s", "a", "shrink these photos", "multiple_matches", ""), activate(20, "s", "b", "img/resize")),
			[]want{{"shrink these photos", "img/resize", SourceCorrection, false}}},
		{"weak matches, then a direct call", cat(asked(0, "s", "a", "make the pictures smaller", "weak_matches", ""), direct(15, "s", "b", "img/resize")),
			[]want{{"make the pictures smaller", "img/resize", SourceCorrection, false}}},
		{"not found, then a rephrase that ran X", cat(asked(0, "s", "a", "pictures too large to mail", "not_found", ""),
			asked(30, "s", "b", "resize pictures to 800 pixels", "activated", "img/resize")),
			[]want{{"pictures too large to mail", "img/resize", SourceCorrection, false}, {"resize pictures to 800 pixels", "img/resize", SourceSuccess, false}}},
		{"not found, then an unrelated request: no label for the first", cat(asked(0, "s", "a", "pictures too large to mail", "not_found", ""),
			asked(30, "s", "b", "what is the weather in Oslo", "activated", "wx/now")),
			[]want{{"what is the weather in Oslo", "wx/now", SourceSuccess, false}}},
		{"a correction after the window does not count", cat(asked(0, "s", "a", "shrink these photos", "multiple_matches", ""), activate(3600, "s", "b", "img/resize")),
			nil},
		{"a correction in another session does not count", cat(asked(0, "s", "a", "shrink these photos", "multiple_matches", ""), activate(20, "other", "b", "img/resize")),
			nil},
		{"executed the wrong tool, then the agent called the right one", cat(asked(0, "s", "a", "resize the photo", "activated", "img/crop"), direct(10, "s", "b", "img/resize")),
			[]want{{"resize the photo", "img/resize", SourceCorrection, false}, {"resize the photo", "img/crop", SourceCorrection, true}}},
		{"feedback: correct", cat(asked(0, "s", "a", "shrink these photos", "multiple_matches", ""),
			[]schemas.AuditRecord{rec(50, "s", "a", "feedback", decisionCorrect, "feedback", "img/resize", "", nil)}),
			[]want{{"shrink these photos", "img/resize", SourceFeedback, false}}},
		{"feedback: wrong drops the success and is a negative", cat(asked(0, "s", "a", "resize the photo", "activated", "img/crop"),
			[]schemas.AuditRecord{rec(50, "s", "a", "feedback", decisionWrong, "feedback", "img/crop", "", nil)}),
			[]want{{"resize the photo", "img/crop", SourceFeedback, true}}},
		{"feedback: wrong without a tool means the one that ran", cat(asked(0, "s", "a", "resize the photo", "activated", "img/crop"),
			[]schemas.AuditRecord{rec(50, "s", "a", "feedback", decisionWrong, "feedback", "", "", nil)}),
			[]want{{"resize the photo", "img/crop", SourceFeedback, true}}},
		{"the micro service routes and runs in one record", []schemas.AuditRecord{
			rec(0, "s", "a", "service", "activated", "executed", "sys/df", "disk space left", nil)},
			[]want{{"disk space left", "sys/df", SourceSuccess, false}}},
		{"the micro service's uncertain answer, then activate", cat([]schemas.AuditRecord{
			rec(0, "s", "a", "service", "multiple_matches", "multiple_matches", "img/crop", "shrink it", nil)}, activate(20, "s", "b", "img/resize")),
			[]want{{"shrink it", "img/resize", SourceCorrection, false}}},
		{"unfillable arguments are a negative for the tool", []schemas.AuditRecord{
			rec(0, "s", "a", "parse", "intent", "parsed", "", "send it to the team", nil),
			rec(0, "s", "a", "route", "activated", "activated", "mail/send", "send it to the team", nil),
			rec(0, "s", "a", "resolve", decisionUnresolved, "error", "mail/send", "send it to the team", nil)},
			[]want{{"send it to the team", "mail/send", SourceSuccess, true}}},
		{"imported history with success counts; failures and meta-tools do not", []schemas.AuditRecord{
			{Timestamp: t0, SessionID: "h", IntentExpressed: "[TOOL: convert 5 miles to km]", ToolID: "units/convert", Result: "success"},
			{Timestamp: t0, SessionID: "h", IntentExpressed: "[TOOL: convert again]", ToolID: "units/convert", Result: "error"},
			{Timestamp: t0, SessionID: "h", IntentExpressed: "[TOOL: activate units/convert]", ToolID: "toolyard/activate", Result: "success"}},
			[]want{{"convert 5 miles to km", "units/convert", SourceHistory, false}}},
		{"a meta-tool execution is no label", asked(0, "s", "a", "find tools for images", "activated", "toolyard/find_tools"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Derive(tt.recs, Options{})
			if len(got) != len(tt.want) {
				t.Fatalf("got %d examples, want %d:\n%s", len(got), len(tt.want), dump(got))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Text != w.text || g.Tool != w.tool || g.Source != w.src || g.Negative != w.neg {
					t.Errorf("example %d: got %q → %s (%s, negative %v), want %q → %s (%s, negative %v)",
						i, g.Text, g.Tool, g.Source, g.Negative, w.text, w.tool, w.src, w.neg)
				}
			}
		})
	}
}

func dump(es []Example) string {
	s := ""
	for _, e := range es {
		s += fmt.Sprintf("  %q → %s (%s, negative %v)\n", e.Text, e.Tool, e.Source, e.Negative)
	}
	return s
}

func TestGuard(t *testing.T) {
	var es []Example
	// One session floods tool A; tool B has one session only; tool C has
	// three sessions with one example each.
	for i := range 50 {
		es = append(es, Example{Session: "flood", Tool: "A", Text: fmt.Sprint("flood ", i)})
	}
	es = append(es, Example{Session: "other", Tool: "A", Text: "honest use of A"})
	es = append(es, Example{Session: "solo", Tool: "B", Text: "b once"}, Example{Session: "solo", Tool: "B", Text: "b twice"})
	for _, s := range []string{"x", "y", "z"} {
		es = append(es, Example{Session: s, Tool: "C", Text: "c from " + s})
	}
	es = append(es, Example{Session: "solo", Tool: "B", Text: "not b", Negative: true})

	got, st := Guard{PerSession: 3, MinSessions: 2}.Apply(es)
	per := map[string]int{}
	for _, e := range got {
		if !e.Negative {
			per[e.Tool]++
		}
	}
	if per["A"] != 4 || per["B"] != 0 || per["C"] != 3 {
		t.Errorf("kept per tool %v, want A 4 (3 of the flood + 1), B 0 (one session), C 3", per)
	}
	if st.CappedPerSession != 47 || st.TooFewSessions != 2 {
		t.Errorf("stats %+v, want 47 capped and 2 from too few sessions", st)
	}
	if got[len(got)-1].Tool != "B" || !got[len(got)-1].Negative {
		t.Errorf("the negative should pass unguarded, last kept: %+v", got[len(got)-1])
	}
}

func TestIntentText(t *testing.T) {
	for in, want := range map[string]string{
		"[TOOL: resize the photo]": "resize the photo",
		"[tool:resize]":            "resize",
		"resize the photo":         "resize the photo",
		"  [TOOL: a [b] c]  ":      "a [b] c",
	} {
		if got := IntentText(in); got != want {
			t.Errorf("IntentText(%q) = %q, want %q", in, got, want)
		}
	}
}
