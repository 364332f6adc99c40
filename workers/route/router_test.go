package route_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/ops/sample"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/stages"
)

// sampleSet is the stage set over the sample registry, keyword discovery.
func sampleSet(t *testing.T) *stages.Set {
	t.Helper()
	ms, err := sample.Tools()
	if err != nil {
		t.Fatal(err)
	}
	set, err := stages.New(stages.Config{Tools: ms})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func routeText(t *testing.T, set *stages.Set, text string, scope ...string) route.Decision {
	t.Helper()
	in := schemas.Intent{ID: "m.0", SessionID: "s", MessageID: "m", Text: text, End: len(text), Scope: scope}
	c, err := set.Engine().Discover(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return route.Route(c, route.DefaultThresholds(), set.Catalog())
}

func TestNotFoundNamesUnknownWordsAndServers(t *testing.T) {
	set := sampleSet(t)
	d := routeText(t, set, "compose a sonnet about zyxglorp")
	if d.Tier != schemas.TierNotFound {
		t.Fatalf("tier %s: %s", d.Tier, d.Message)
	}
	if !slices.Contains(d.Unmatched, "zyxglorp") || !slices.Contains(d.Unmatched, "sonnet") {
		t.Errorf("unmatched %v, want sonnet and zyxglorp", d.Unmatched)
	}
	if d.Available == nil || d.Available.Tools != 27 || len(d.Available.Servers) == 0 {
		t.Fatalf("available %+v", d.Available)
	}
	if d.Available.Servers[0].Server != "system" || d.Available.Servers[0].Tools != 9 {
		t.Errorf("largest server %+v, want system (9)", d.Available.Servers[0])
	}
	for _, s := range d.Available.Servers {
		if s.Server == "toolyard" {
			t.Error("the always-there meta-tools are counted as a server")
		}
	}
	for _, w := range []string{`"zyxglorp"`, "27 tools on", "system (9)", "[TOOL: find_tools"} {
		if !strings.Contains(d.Message, w) {
			t.Errorf("message lacks %q: %s", w, d.Message)
		}
	}
}

func TestNotFoundSummaryKeepsToScope(t *testing.T) {
	set := sampleSet(t)
	d := routeText(t, set, "compose a sonnet", "files", "system/uptime", "system")
	if d.Tier != schemas.TierNotFound {
		t.Fatalf("tier %s", d.Tier)
	}
	// system/uptime is inside system already: counted once.
	if d.Available.Tools != 9+7 || len(d.Available.Servers) != 2 {
		t.Fatalf("scoped summary %+v", d.Available)
	}
	d = routeText(t, set, "compose a sonnet", "files/checksum", "weather/forecast")
	if d.Available.Tools != 2 {
		t.Fatalf("tool-scoped summary %+v", d.Available)
	}
	// A scope that holds no tool: the message says the scope is why, not
	// the words.
	d = routeText(t, set, "how long has the system been up", "nonexistent", "no/such")
	if d.Tier != schemas.TierNotFound || d.Available.Tools != 0 || len(d.Unmatched) != 0 ||
		!strings.Contains(d.Message, "scope (nonexistent, no/such) holds no tool") || strings.Contains(d.Message, "Rephrase") {
		t.Fatalf("empty scope: tier %s, available %+v, unmatched %v, message %q", d.Tier, d.Available, d.Unmatched, d.Message)
	}
}

func TestCommandsRouteToTheSessionMetaTools(t *testing.T) {
	set := sampleSet(t)
	tests := []struct {
		text, want string
	}{
		{"activate system/uptime", route.ActivateID},
		{"Activate the tool files/checksum", route.ActivateID},
		{"find_tools resize images", route.FindToolsID},
		{"find tools for sending email", route.FindToolsID},
		{"show the manifest of files/checksum", route.LoadID},
		{"load the tool system/uptime", route.LoadID},
		{"help with files/checksum", route.HelpID},
	}
	for _, tt := range tests {
		d := routeText(t, set, tt.text)
		if d.Tier != schemas.TierActivated || d.Matches[0].ToolID != tt.want || d.Matches[0].Confidence != 1 {
			t.Errorf("%q: %s %v", tt.text, d.Tier, d.Matches)
		}
		if _, ok := set.Registry().Get(tt.want); !ok {
			t.Errorf("%s is not a registered builtin", tt.want)
		}
	}
	// Not commands: discovery decides.
	for _, text := range []string{"activate", "how do I activate a license key for windows", "help me write a letter", "load the dishwasher"} {
		if d := routeText(t, set, text); len(d.Matches) > 0 && d.Matches[0].Confidence == 1 && strings.HasPrefix(d.Matches[0].ToolID, "toolyard/") {
			t.Errorf("%q taken for a command", text)
		}
	}
}

func TestTierSubjects(t *testing.T) {
	tests := []struct{ tier, want string }{
		{schemas.TierActivated, "pipe.resolve.s1"},
		{schemas.TierMultiple, "pipe.choose.s1"},
		{schemas.TierWeak, "pipe.answer.weak_matches.s1"},
		{schemas.TierNotFound, "pipe.answer.not_found.s1"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		got := route.TierSubject(tt.tier, "s1")
		if got != tt.want || seen[got] {
			t.Errorf("%s: %s, want %s (each tier its own)", tt.tier, got, tt.want)
		}
		seen[got] = true
		if bind.SessionOf(got) != "s1" || !strings.HasPrefix(got, bind.PipePrefix) {
			t.Errorf("%s: not a PIPE subject ending in the session", got)
		}
	}
}

// scriptedLLM is a fake LLM disambiguator: it answers from a script.
type scriptedLLM struct {
	choice route.Choice
	err    error
	seen   []string
}

func (s *scriptedLLM) Choose(_ context.Context, in schemas.Intent, ms []schemas.Candidate) (route.Choice, error) {
	for _, m := range ms {
		s.seen = append(s.seen, m.ToolID)
	}
	return s.choice, s.err
}

func TestDisambiguateFakeLLM(t *testing.T) {
	medium := schemas.Routed{Intent: schemas.Intent{ID: "m.0", SessionID: "s", Text: "post the report"}, Tier: schemas.TierMultiple,
		Candidates: []schemas.Candidate{{ToolID: "email/send", Confidence: 0.6, MatchType: schemas.MatchHybrid}, {ToolID: "slack/post_message", Confidence: 0.55, MatchType: schemas.MatchHybrid}},
		Message:    "Several tools could do it"}
	tests := []struct {
		name   string
		llm    *scriptedLLM
		chosen string // "" when the alternatives are answered
	}{
		{"picks the second", &scriptedLLM{choice: route.Choice{ToolID: "slack/post_message", Confidence: 0.9}}, "slack/post_message"},
		{"unsure", &scriptedLLM{choice: route.Choice{ToolID: "email/send", Confidence: 0.5}}, ""},
		{"none", &scriptedLLM{choice: route.Choice{Reason: "neither fits"}}, ""},
		{"not a match", &scriptedLLM{choice: route.Choice{ToolID: "web/search", Confidence: 0.99}}, ""},
		{"fails", &scriptedLLM{err: errors.New("model timed out")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ok, reason := route.Disambiguate(context.Background(), medium, route.WithDisambiguator(tt.llm, 0))
			if !slices.Equal(tt.llm.seen, []string{"email/send", "slack/post_message"}) {
				t.Errorf("disambiguator saw %v", tt.llm.seen)
			}
			if tt.chosen == "" {
				if ok || reason == "" || out.Tier != schemas.TierMultiple {
					t.Fatalf("ok %v, reason %q, tier %s: want the alternatives answered", ok, reason, out.Tier)
				}
				return
			}
			if !ok || out.Tier != schemas.TierActivated || out.Candidates[0].ToolID != tt.chosen ||
				len(out.Candidates) != 2 || out.DecidedBy != route.DecidedByDisambiguator || out.Message != "" {
				t.Fatalf("ok %v: %+v", ok, out)
			}
			if err := schemas.ValidateValue(schemas.KindRouted, withIntent(out)); err != nil {
				t.Errorf("hand-off breaks the contract: %v", err)
			}
		})
	}
	// Off by default.
	if _, ok, reason := route.Disambiguate(context.Background(), medium); ok || !strings.Contains(reason, "no disambiguator") {
		t.Errorf("without one: ok %v, %q", ok, reason)
	}
}

func withIntent(r schemas.Routed) schemas.Routed {
	r.Intent.SessionID, r.Intent.MessageID, r.Intent.End = "s", "m", 1
	return r
}
