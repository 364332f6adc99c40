package llmresolve_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/workers/llmresolve"
	"github.com/toolyard/toolyard/workers/llmresolve/llmtest"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

const (
	pickScrape = `{"use_tool": true, "server": "maps", "tool": "maps/scrape", "confidence": 0.93, "reasoning": "the request scrapes maps"}`
	argsScrape = `{"query": "tech companies", "limit": 50}`
	intentText = "scrape google maps for tech companies, limit 50"
)

var wantScrape = map[string]any{"query": "tech companies", "limit": int64(50)}

// deterministic stands for the arguments the deterministic resolver finds:
// a fallback must give exactly its call.
var deterministic = map[string]any{"deterministic": true}

// TestProtocolResolve drives the resolver through a fake server speaking
// the Ollama and the OpenAI chat protocols with scripted replies.
func TestProtocolResolve(t *testing.T) {
	tests := []struct {
		name    string
		intent  string
		timeout time.Duration
		replies []llmtest.Reply
		// wantDecision "" means an error is expected (wantErr).
		wantDecision string
		wantTool     string
		wantArgs     map[string]any
		wantMatches  []string
		wantErr      any
		// requests is how many requests the server must have seen.
		requests int
		// jsonMode runs the resolver WithJSONMode(true): every request must ask for JSON.
		jsonMode bool
		// decidedBy, when set, is the routed hand-off's DecidedBy, with
		// maps/geocode put first (as the choose stage does).
		decidedBy string
		check     func(t *testing.T, reqs []llmtest.Request, out resolve.Outcome)
	}{
		{
			name: "json both phases", replies: []llmtest.Reply{text(pickScrape), text(argsScrape)},
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/scrape", wantArgs: wantScrape, requests: 2,
			check: func(t *testing.T, reqs []llmtest.Request, out resolve.Outcome) {
				analysis := reqs[0].Last()
				for _, id := range []string{"maps/scrape", "maps/geocode", "files/checksum", "limit (integer)", "one of: relevance|rating", intentText} {
					if !strings.Contains(analysis, id) {
						t.Errorf("analysis prompt lacks %q:\n%s", id, analysis)
					}
				}
				if strings.Contains(analysis, "system/uptime") {
					t.Errorf("analysis prompt shows a tool that is not a candidate:\n%s", analysis)
				}
				args := reqs[1].Last()
				if !strings.Contains(args, "query (string, required): what to search for") || strings.Contains(args, "maps/geocode") {
					t.Errorf("argument prompt should show the chosen tool only:\n%s", args)
				}
				if out.Call.Confidence != 0.93 {
					t.Errorf("confidence %v, want the model's 0.93", out.Call.Confidence)
				}
			},
		},
		{
			name: "xml both phases",
			replies: []llmtest.Reply{
				text(`<tool_call><meta_tool>execute</meta_tool><item_type>tool</item_type><action>run</action>` +
					`<item_id>maps/scrape</item_id><confidence>0.88</confidence></tool_call>`),
				text("Here you go:\n<tool_call><meta_tool>execute</meta_tool><item_id>maps/scrape</item_id>" +
					"<parameters><query>tech companies</query><limit>50</limit></parameters><confidence>0.9</confidence></tool_call>"),
			},
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/scrape", wantArgs: wantScrape, requests: 2,
		},
		{
			name: "json mode", jsonMode: true, replies: []llmtest.Reply{text(pickScrape), text(argsScrape)},
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/scrape", wantArgs: wantScrape, requests: 2,
			check: func(t *testing.T, reqs []llmtest.Request, _ resolve.Outcome) {
				if !strings.Contains(reqs[1].Last(), `{"error": "<what is missing>"}`) {
					t.Errorf("json mode's argument prompt should ask for a JSON decline:\n%s", reqs[1].Last())
				}
			},
		},
		{
			name: "json mode decline of the arguments, fallback", jsonMode: true,
			replies:      []llmtest.Reply{text(pickScrape), text(`{"error": "the query is missing"}`)},
			wantDecision: resolve.DecisionFallback, wantTool: "maps/scrape", wantArgs: deterministic, requests: 2,
		},
		{
			name: "the disambiguator chose: arguments only", intent: "where is 1 Main St",
			decidedBy: route.DecidedByDisambiguator, replies: []llmtest.Reply{text(`{"address": "1 Main St"}`)},
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/geocode", wantArgs: map[string]any{"address": "1 Main St"}, requests: 1,
			check: func(t *testing.T, reqs []llmtest.Request, out resolve.Outcome) {
				if !strings.Contains(reqs[0].Last(), "Tool: maps/geocode") {
					t.Errorf("the one request should be the argument question:\n%s", reqs[0].Last())
				}
			},
		},
		{
			name: "routing's confidence decided: both phases", intent: "where is 1 Main St",
			decidedBy: route.DecidedByConfidence, replies: []llmtest.Reply{text(`{"tool": "maps/geocode"}`)},
			wantDecision: resolve.DecisionUnsure, wantMatches: []string{"maps/geocode", "maps/scrape", "files/checksum"}, requests: 1,
		},
		{
			name: "functiongemma call syntax both phases",
			replies: []llmtest.Reply{
				text(`<start_function_call>call:maps/scrape{query:<escape>tech companies<escape>}<end_function_call>`),
				text(`call:maps/scrape{query:<escape>tech companies<escape>,limit:50}`),
			},
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/scrape", wantArgs: wantScrape, requests: 2,
			check: func(t *testing.T, _ []llmtest.Request, out resolve.Outcome) {
				if out.Call.Confidence != 0.91 {
					t.Errorf("confidence %v, want routing's 0.91 when the model gives none", out.Call.Confidence)
				}
			},
		},
		{
			name: "fenced json after thinking, tool named by name and server",
			replies: []llmtest.Reply{
				text("<think>maps it is</think>```json\n{\"use_tool\": \"true\", \"server\": \"maps\", \"tool\": \"geocode\", \"confidence\": \"0.8\"}\n```"),
				text(`{"name": "maps/geocode", "arguments": {"address": "1 Main St"}}`),
			},
			intent:       "where is 1 Main St",
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/geocode", wantArgs: map[string]any{"address": "1 Main St"}, requests: 2,
		},
		{
			name:         "invalid arguments, corrective retry, success",
			replies:      []llmtest.Reply{text(pickScrape), text(`{"limit": "fifty", "color": "red"}`), text(`{"query": "tech companies", "limit": 50, "sort": null}`)},
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/scrape", wantArgs: wantScrape, requests: 3,
			check: func(t *testing.T, reqs []llmtest.Request, _ resolve.Outcome) {
				fix := reqs[2]
				if n := len(fix.Messages); n != 4 || fix.Messages[2].Role != "assistant" {
					t.Fatalf("the retry should carry system, prompt, the bad answer and the correction; got %d messages", n)
				}
				if !strings.Contains(fix.Last(), "color") || !strings.Contains(fix.Last(), "query, limit, sort") {
					t.Errorf("correction should name the unknown parameter and the real ones: %s", fix.Last())
				}
			},
		},
		{
			name:         "schema violation is quoted in the retry",
			replies:      []llmtest.Reply{text(pickScrape), text(`{"limit": "fifty"}`), text(argsScrape)},
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/scrape", wantArgs: wantScrape, requests: 3,
			check: func(t *testing.T, reqs []llmtest.Request, _ resolve.Outcome) {
				if l := reqs[2].Last(); !strings.Contains(l, "limit") || !strings.Contains(l, "fifty") {
					t.Errorf("correction should quote the bad value: %s", l)
				}
			},
		},
		{
			name:         "invalid arguments twice, deterministic fallback",
			replies:      []llmtest.Reply{text(pickScrape), text(`{"limit": "fifty"}`), text(`{"limit": 0}`)},
			wantDecision: resolve.DecisionFallback, wantTool: "maps/scrape", wantArgs: deterministic, requests: 3,
			check: func(t *testing.T, _ []llmtest.Request, out resolve.Outcome) {
				if !strings.Contains(out.Note, "schema") {
					t.Errorf("note should say why: %q", out.Note)
				}
			},
		},
		{
			name:         "tool that is not a candidate, corrected",
			replies:      []llmtest.Reply{text(`{"use_tool": true, "tool": "system/uptime", "confidence": 0.9}`), text(pickScrape), text(argsScrape)},
			wantDecision: resolve.DecisionResolvedLLM, wantTool: "maps/scrape", wantArgs: wantScrape, requests: 3,
			check: func(t *testing.T, reqs []llmtest.Request, _ resolve.Outcome) {
				if l := reqs[1].Last(); !strings.Contains(l, "not one of the candidates (maps/scrape, maps/geocode, files/checksum)") {
					t.Errorf("correction should list the candidates: %s", l)
				}
			},
		},
		{
			name:         "unreadable answers twice, fallback",
			replies:      []llmtest.Reply{text("I think the scraper would do."), text("Really, the scraper.")},
			wantDecision: resolve.DecisionFallback, wantTool: "maps/scrape", wantArgs: deterministic, requests: 2,
		},
		{
			name: "timeout, fallback", timeout: 300 * time.Millisecond,
			replies:      []llmtest.Reply{{Text: pickScrape, Delay: 3 * time.Second}},
			wantDecision: resolve.DecisionFallback, wantTool: "maps/scrape", wantArgs: deterministic, requests: 1,
			check: func(t *testing.T, _ []llmtest.Request, out resolve.Outcome) {
				if !strings.Contains(out.Note, "did not answer within 300ms") {
					t.Errorf("note should name the timeout: %q", out.Note)
				}
			},
		},
		{
			name:         "server error, fallback",
			replies:      []llmtest.Reply{{Status: http.StatusInternalServerError}},
			wantDecision: resolve.DecisionFallback, wantTool: "maps/scrape", wantArgs: deterministic, requests: 1,
		},
		{
			name:         "low confidence, multiple matches",
			replies:      []llmtest.Reply{text(`{"use_tool": true, "server": "maps", "tool": "maps/geocode", "confidence": 0.55, "reasoning": "could be"}`)},
			wantDecision: resolve.DecisionUnsure, wantMatches: []string{"maps/geocode", "maps/scrape", "files/checksum"}, requests: 1,
			check: func(t *testing.T, _ []llmtest.Request, out resolve.Outcome) {
				if !strings.Contains(out.Message, "0.55, below 0.70") || !strings.Contains(out.Message, "[TOOL: maps/geocode") {
					t.Errorf("message should say why and what to do: %s", out.Message)
				}
			},
		},
		{
			name:         "low confidence in the xml call, multiple matches",
			replies:      []llmtest.Reply{text(`<tool_call><item_id>maps/scrape</item_id><confidence>0.3</confidence></tool_call>`)},
			wantDecision: resolve.DecisionUnsure, wantMatches: []string{"maps/scrape", "maps/geocode", "files/checksum"}, requests: 1,
		},
		{
			name:         "no tool fits, multiple matches",
			replies:      []llmtest.Reply{text(`{"use_tool": false, "reasoning": "the user wants a joke"}`)},
			wantDecision: resolve.DecisionUnsure, wantMatches: []string{"maps/scrape", "maps/geocode", "files/checksum"}, requests: 1,
			check: func(t *testing.T, _ []llmtest.Request, out resolve.Outcome) {
				if !strings.Contains(out.Message, "the user wants a joke") {
					t.Errorf("message should carry the model's reason: %s", out.Message)
				}
			},
		},
		{
			name:         "error element in the analysis, multiple matches",
			replies:      []llmtest.Reply{text(`<error>none of these tools tells jokes</error>`)},
			wantDecision: resolve.DecisionUnsure, wantMatches: []string{"maps/scrape", "maps/geocode", "files/checksum"}, requests: 1,
			check: func(t *testing.T, _ []llmtest.Request, out resolve.Outcome) {
				if !strings.Contains(out.Message, "declined: none of these tools tells jokes") {
					t.Errorf("message should carry the model's reason: %s", out.Message)
				}
			},
		},
		{
			name:         "error element for the arguments, fallback",
			replies:      []llmtest.Reply{text(pickScrape), text(`<error>the query is missing</error>`)},
			wantDecision: resolve.DecisionFallback, wantTool: "maps/scrape", wantArgs: deterministic, requests: 2,
			check: func(t *testing.T, _ []llmtest.Request, out resolve.Outcome) {
				if !strings.Contains(out.Note, "the query is missing") {
					t.Errorf("note should carry the model's reason: %q", out.Note)
				}
			},
		},
		{
			name:    "fallback that cannot resolve either names what is missing",
			intent:  "scrape maps",
			replies: []llmtest.Reply{text(pickScrape), text(`{}`), text(`{"limit": 5}`)},
			wantErr: new(*resolve.MissingError), requests: 3,
		},
	}
	for _, provider := range providers {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				var opts []llmresolve.Option
				if tt.timeout > 0 {
					opts = append(opts, llmresolve.WithTimeout(tt.timeout))
				}
				opts = append(opts, llmresolve.WithJSONMode(tt.jsonMode))
				r, srv := newResolver(t, provider, tt.replies, opts...)
				in := intentText
				if tt.intent != "" {
					in = tt.intent
				}
				start := time.Now()
				rt := routed(in)
				if tt.decidedBy != "" {
					rt.DecidedBy = tt.decidedBy
					rt.Candidates[0], rt.Candidates[1] = rt.Candidates[1], rt.Candidates[0]
				}
				out, err := r.ResolveRouted(context.Background(), rt, lookup)
				if tt.timeout > 0 && time.Since(start) > tt.timeout+2*time.Second {
					t.Errorf("took %s with a %s timeout", time.Since(start), tt.timeout)
				}
				reqs := srv.Requests()
				if len(reqs) != tt.requests {
					t.Errorf("server saw %d requests, want %d", len(reqs), tt.requests)
				}
				for _, q := range reqs {
					if q.Model != "fake-model" {
						t.Errorf("request for model %q", q.Model)
					}
					if q.JSONMode != tt.jsonMode {
						t.Errorf("request JSON mode %v, want %v", q.JSONMode, tt.jsonMode)
					}
				}
				if tt.wantErr != nil {
					if !errors.As(err, tt.wantErr) {
						t.Fatalf("error %v, want a %T", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if out.Decision != tt.wantDecision {
					t.Fatalf("decision %q, want %q (note %q, message %q)", out.Decision, tt.wantDecision, out.Note, out.Message)
				}
				if tt.wantMatches != nil {
					if out.Call != nil {
						t.Fatalf("a call, want alternatives: %+v", out.Call)
					}
					var ids []string
					for _, m := range out.Matches {
						ids = append(ids, m.ToolID)
					}
					if !reflect.DeepEqual(ids, tt.wantMatches) {
						t.Errorf("matches %v, want %v", ids, tt.wantMatches)
					}
				} else {
					if out.Call == nil {
						t.Fatalf("no call: %+v", out)
					}
					c := out.Call
					if reflect.DeepEqual(tt.wantArgs, deterministic) {
						m, _ := lookup(tt.wantTool)
						want, err := resolve.Resolve(context.Background(), routed(in), m)
						if err != nil {
							t.Fatal(err)
						}
						tt.wantArgs = want.Parameters
					}
					if c.ToolID != tt.wantTool || !reflect.DeepEqual(c.Parameters, tt.wantArgs) {
						t.Errorf("call %s %#v, want %s %#v", c.ToolID, c.Parameters, tt.wantTool, tt.wantArgs)
					}
					if c.IntentID != "m1.0" || c.SessionID != "s1" || c.MetaTool != "execute" || c.Action != "run" || c.ItemType != "tool" {
						t.Errorf("call envelope: %+v", c)
					}
				}
				if tt.check != nil && len(reqs) == tt.requests {
					tt.check(t, reqs, out)
				}
			})
		}
	}
}
