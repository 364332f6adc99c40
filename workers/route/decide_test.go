package route

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// candidates builds a ranked list whose top confidence is top and whose
// others decrease from there.
func candidates(text string, top float64, n int) schemas.Candidates {
	cs := make([]schemas.Candidate, n)
	for i := range cs {
		c := top
		if i > 0 {
			c = 0.2 / float64(i+1)
		}
		cs[i] = schemas.Candidate{ToolID: fmt.Sprintf("tools/t%d", i), Name: fmt.Sprintf("t%d", i), Confidence: c, MatchType: schemas.MatchKeyword}
	}
	return schemas.Candidates{Intent: schemas.Intent{ID: "i", Text: text}, Candidates: cs}
}

func TestDecideTiers(t *testing.T) {
	tests := []struct {
		name    string
		top     float64
		n       int
		tier    string
		matches int
	}{
		{"exactly activate", 0.85, 10, schemas.TierActivated, 3},
		{"certain", 1, 10, schemas.TierActivated, 3},
		{"just below activate", 0.8499, 10, schemas.TierMultiple, 3},
		{"exactly multiple", 0.5, 10, schemas.TierMultiple, 3},
		{"just below multiple", 0.4999, 10, schemas.TierWeak, 5},
		{"exactly weak", 0.3, 10, schemas.TierWeak, 5},
		{"just below weak", 0.2999, 10, schemas.TierNotFound, 0},
		{"zero", 0, 10, schemas.TierNotFound, 0},
		{"NaN counts as zero", math.NaN(), 1, schemas.TierNotFound, 0},
		{"above 1 is clamped", 7, 2, schemas.TierActivated, 2},
		{"negative is clamped", -1, 1, schemas.TierNotFound, 0},
		{"no candidates", 0.99, 0, schemas.TierNotFound, 0},
		{"activated, fewer than 3", 0.9, 2, schemas.TierActivated, 2},
		{"weak, fewer than 5", 0.4, 4, schemas.TierWeak, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(candidates("check disk usage", tt.top, tt.n), DefaultThresholds())
			if d.Tier != tt.tier || len(d.Matches) != tt.matches {
				t.Fatalf("tier %s with %d matches, want %s with %d", d.Tier, len(d.Matches), tt.tier, tt.matches)
			}
			if tt.matches > 0 && d.Matches[0].ToolID != "tools/t0" {
				t.Errorf("first match %s, want tools/t0", d.Matches[0].ToolID)
			}
			for _, m := range d.Matches {
				if !(m.Confidence >= 0 && m.Confidence <= 1) {
					t.Errorf("match %s confidence %v not sanitised", m.ToolID, m.Confidence)
				}
			}
			if d.Message == "" {
				t.Error("empty message")
			}
			if _, err := json.Marshal(d.Matches); err != nil {
				t.Errorf("matches do not encode: %v", err)
			}
		})
	}
}

func TestDecideCustomAndInvalidThresholds(t *testing.T) {
	c := candidates("x", 0.86, 3)
	if d := Decide(c, Thresholds{Activate: 0.9, Multiple: 0.6, Weak: 0.2}); d.Tier != schemas.TierMultiple {
		t.Errorf("0.86 under activate 0.9: %s", d.Tier)
	}
	// Invalid thresholds fall back to the defaults rather than activating
	// whatever their bounds happen to allow.
	if d := Decide(candidates("x", 0.4, 3), Thresholds{Activate: 0.2, Multiple: 0.9, Weak: 0.1}); d.Tier != schemas.TierWeak {
		t.Errorf("invalid thresholds: tier %s, want the default tiering (weak)", d.Tier)
	}
}

func TestDecideTakesTheMostConfident(t *testing.T) {
	c := schemas.Candidates{Intent: schemas.Intent{Text: "q"}, Candidates: []schemas.Candidate{
		{ToolID: "a", Confidence: math.NaN()},
		{ToolID: "b", Confidence: 0.7},
		{ToolID: "c", Confidence: 0.9},
		{ToolID: "d", Confidence: 0.7},
	}}
	d := Decide(c, DefaultThresholds())
	got := []string{}
	for _, m := range d.Matches {
		got = append(got, m.ToolID)
	}
	if d.Tier != schemas.TierActivated || !reflect.DeepEqual(got, []string{"c", "b", "d"}) {
		t.Errorf("tier %s, matches %v; want activated c, b, d", d.Tier, got)
	}
	if !math.IsNaN(c.Candidates[0].Confidence) {
		t.Error("Decide modified its input")
	}
}

// nearMiss marks c's best candidate a near miss: the intent asks to delete,
// the tool says it creates.
func nearMiss(c schemas.Candidates) schemas.Candidates {
	c.Candidates[0].Mismatch = &schemas.EffectMismatch{Asked: []string{"delete"}, Names: []string{"create"}}
	return c
}

func TestMessages(t *testing.T) {
	th := DefaultThresholds()
	mk := func(text string, confs ...float64) schemas.Candidates {
		c := schemas.Candidates{Intent: schemas.Intent{Text: text}}
		for i, x := range confs {
			c.Candidates = append(c.Candidates, schemas.Candidate{ToolID: fmt.Sprintf("srv/tool_%c", 'a'+i), Confidence: x})
		}
		return c
	}
	tests := []struct {
		name string
		in   schemas.Candidates
		want string
	}{
		{"activated", mk("check disk usage of /var", 0.93, 0.04, 0.01, 0.01),
			`Running srv/tool_a (confidence 0.93) for "check disk usage of /var". Also considered: srv/tool_b (0.04), srv/tool_c (0.01).`},
		{"activated alone", mk("check disk usage", 0.99),
			`Running srv/tool_a (confidence 0.99) for "check disk usage".`},
		{"multiple", mk("create an issue", 0.72, 0.61, 0.55, 0.2),
			`Several tools could do "create an issue": srv/tool_a (0.72), srv/tool_b (0.61), srv/tool_c (0.55). ` +
				`To use one, activate it with [TOOL: activate srv/tool_a] (it joins your tools and you get its parameters) ` +
				`or call it directly: <tool_call name="srv/tool_a">{…arguments…}</tool_call> (likewise for the others); otherwise rephrase the request more specifically.`},
		{"weak", mk("do the thing", 0.41, 0.33),
			`Only weak matches for "do the thing": srv/tool_a (0.41), srv/tool_b (0.33). None fits well enough to run. ` +
				`Rephrase the request saying what the tool should do and to what, or if one of these is right, ` +
				`activate it with [TOOL: activate srv/tool_a] (it joins your tools and you get its parameters) or call it directly: <tool_call name="srv/tool_a">{…arguments…}</tool_call>.`},
		{"multiple, one candidate", mk("create an issue", 0.6),
			`The best match for "create an issue" is srv/tool_a (0.60), but not surely. If it is right, ` +
				`activate it with [TOOL: activate srv/tool_a] (it joins your tools and you get its parameters) or call it directly: <tool_call name="srv/tool_a">{…arguments…}</tool_call>; ` +
				`otherwise rephrase the request more specifically.`},
		{"weak, one candidate", mk("do the thing", 0.35),
			`Only a weak match for "do the thing": srv/tool_a (0.35). It does not fit well enough to run. ` +
				`Rephrase the request saying what the tool should do and to what, or if it is right, ` +
				`activate it with [TOOL: activate srv/tool_a] (it joins your tools and you get its parameters) or call it directly: <tool_call name="srv/tool_a">{…arguments…}</tool_call>.`},
		{"not found with nearest", mk("write a poem", 0.21, 0.12, 0.05),
			`No tool matched "write a poem". The nearest, srv/tool_a (0.21), srv/tool_b (0.12), are too far off. ` +
				`Rephrase the request saying what the tool should do and to what, or look for tools with [TOOL: find_tools <what you need>].`},
		{"not found, one near", mk("write a poem", 0.1),
			`No tool matched "write a poem". The nearest, srv/tool_a (0.10), is too far off. ` +
				`Rephrase the request saying what the tool should do and to what, or look for tools with [TOOL: find_tools <what you need>].`},
		{"not found, nothing", mk("\tzzz\n  yyy "),
			`No tool matched "zzz yyy". ` +
				`Rephrase the request saying what the tool should do and to what, or look for tools with [TOOL: find_tools <what you need>].`},
		{"near miss", nearMiss(mk("delete the message", 0.52, 0.06)),
			`No tool here says it can delete as "delete the message" asks: srv/tool_a (0.52) shares its words but says it can create. ` +
				`Other matches: srv/tool_b (0.06). If one of them is right anyway, ` +
				`activate it with [TOOL: activate srv/tool_a] (it joins your tools and you get its parameters) or call it directly: <tool_call name="srv/tool_a">{…arguments…}</tool_call>; ` +
				`otherwise look for a tool that can with [TOOL: find_tools <what you need>].`},
		{"near miss, weak, alone", nearMiss(mk("delete the message", 0.35)),
			`No tool here says it can delete as "delete the message" asks: srv/tool_a (0.35) shares its words but says it can create. ` +
				`If it is right anyway, ` +
				`activate it with [TOOL: activate srv/tool_a] (it joins your tools and you get its parameters) or call it directly: <tool_call name="srv/tool_a">{…arguments…}</tool_call>; ` +
				`otherwise look for a tool that can with [TOOL: find_tools <what you need>].`},
		{"near miss, not found", nearMiss(mk("delete the message", 0.2)),
			`No tool matched "delete the message". The nearest, srv/tool_a (0.20), is too far off. srv/tool_a says it can create, not delete. ` +
				`Rephrase the request saying what the tool should do and to what, or look for tools with [TOOL: find_tools <what you need>].`},
		{"empty intent", mk(""),
			`No tool matched the empty request. ` +
				`Rephrase the request saying what the tool should do and to what, or look for tools with [TOOL: find_tools <what you need>].`},
	}
	for _, tt := range tests {
		d := Decide(tt.in, th)
		if d.Message != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, d.Message, tt.want)
		}
		if again := Decide(tt.in, th); !reflect.DeepEqual(again, d) {
			t.Errorf("%s: Decide is not deterministic", tt.name)
		}
	}
}

func TestMessageClipsLongIntent(t *testing.T) {
	long := strings.Repeat("ünïcode words and more ", 40)
	d := Decide(schemas.Candidates{Intent: schemas.Intent{Text: long}}, DefaultThresholds())
	quoted := d.Message[len("No tool matched "):strings.Index(d.Message, "…")]
	if n := len([]rune(quoted)); n > maxIntentRunes+1 {
		t.Errorf("quoted intent is %d runes: %s", n, d.Message)
	}
	if !strings.Contains(d.Message, `…"`) || strings.Contains(d.Message, "\n") {
		t.Errorf("message %q: want the intent clipped with … on one line", d.Message)
	}
}

// The answer to an intent whose best match is a near miss meets the result
// contract, its mismatch with it, as it does the routed one.
func TestNearMissAnswerMeetsTheContract(t *testing.T) {
	in := schemas.Intent{ID: "m.0", SessionID: "s", MessageID: "m", Text: "delete the message", End: 18}
	c := nearMiss(schemas.Candidates{Intent: in, Candidates: []schemas.Candidate{
		{ToolID: "srv/post", Name: "post", Confidence: 0.52, MatchType: schemas.MatchHybrid},
		{ToolID: "srv/other", Name: "other", Confidence: 0.06, MatchType: schemas.MatchKeyword},
	}})
	r := Routed(in, Decide(c, DefaultThresholds()))
	if err := schemas.ValidateValue(schemas.KindRouted, r); err != nil {
		t.Fatal(err)
	}
	res := Answer(r, "answer")
	res.Timestamp = time.Now()
	if err := schemas.ValidateValue(schemas.KindResult, res); err != nil {
		t.Fatal(err)
	}
	if res.Matches[0].Mismatch == nil || !strings.HasPrefix(res.Message, "No tool here says it can delete") {
		t.Errorf("answer %+v", res)
	}
	// A mismatch the contract does not know is refused.
	res.Matches[0].Mismatch = &schemas.EffectMismatch{Asked: []string{"explode"}, Names: []string{"create"}}
	if err := schemas.ValidateValue(schemas.KindResult, res); err == nil {
		t.Error("a mismatch of an unknown kind of effect met the contract")
	}
}
