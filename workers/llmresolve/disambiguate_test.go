package llmresolve_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/llmresolve"
	"github.com/toolyard/toolyard/workers/llmresolve/llmtest"
)

func mediumIntent() (schemas.Intent, []schemas.Candidate) {
	in := schemas.Intent{ID: "m2.0", SessionID: "s1", MessageID: "m2", Text: "look that place up",
		Conversation: []schemas.Message{
			{Role: "user", Content: "Where exactly is 1 Main St, Springfield? I need its coordinates."},
			{Role: "assistant", Content: "Let me find out."},
		}}
	cs := candidates()
	cs[0].Confidence, cs[1].Confidence = 0.61, 0.58
	return in, cs
}

// TestProtocolDisambiguate drives the medium-tier disambiguation through
// the fake server, over both protocols.
func TestProtocolDisambiguate(t *testing.T) {
	tests := []struct {
		name     string
		timeout  time.Duration
		replies  []llmtest.Reply
		wantOK   bool
		wantTool string
		wantConf float64
		wantErr  string
	}{
		{
			name:    "picks with the conversation",
			replies: []llmtest.Reply{text(`{"use_tool": true, "server": "maps", "tool": "maps/geocode", "confidence": 0.9, "reasoning": "the user wants coordinates"}`)},
			wantOK:  true, wantTool: "maps/geocode", wantConf: 0.9,
		},
		{
			name:    "xml pick",
			replies: []llmtest.Reply{text(`<tool_call><item_id>maps/geocode</item_id><confidence>0.85</confidence></tool_call>`)},
			wantOK:  true, wantTool: "maps/geocode", wantConf: 0.85,
		},
		{
			name:     "unsure pick is not acted on",
			replies:  []llmtest.Reply{text(`{"use_tool": true, "tool": "maps/geocode", "confidence": 0.5}`)},
			wantTool: "maps/geocode", wantConf: 0.5,
		},
		{
			name:     "without a stated confidence, routing's counts",
			replies:  []llmtest.Reply{text(`{"use_tool": true, "tool": "maps/geocode"}`)},
			wantTool: "maps/geocode", wantConf: 0.58,
		},
		{
			name:    "none fits",
			replies: []llmtest.Reply{text(`{"use_tool": false, "reasoning": "unclear"}`)},
		},
		{
			name:    "declined",
			replies: []llmtest.Reply{text(`<error>cannot tell</error>`)},
		},
		{
			name:    "not a candidate twice",
			replies: []llmtest.Reply{text(`{"use_tool": true, "tool": "system/uptime"}`), text(`{"use_tool": true, "tool": "uptime"}`)},
			wantErr: "not one of the candidates",
		},
		{
			name: "timeout", timeout: 200 * time.Millisecond,
			replies: []llmtest.Reply{{Text: `{"use_tool": true, "tool": "maps/geocode", "confidence": 0.9}`, Delay: 3 * time.Second}},
			wantErr: "did not answer within 200ms",
		},
	}
	for _, provider := range providers {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				var opts []llmresolve.Option
				if tt.timeout > 0 {
					opts = append(opts, llmresolve.WithTimeout(tt.timeout))
				}
				r, srv := newResolver(t, provider, tt.replies, opts...)
				in, cs := mediumIntent()
				c, ok, err := r.Disambiguate(context.Background(), in, cs, lookup)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) || ok {
						t.Fatalf("got %+v %v %v, want an error with %q", c, ok, err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if ok != tt.wantOK || c.Candidate.ToolID != tt.wantTool || c.Confidence != tt.wantConf {
					t.Errorf("got %s %.2f ok=%v, want %s %.2f ok=%v", c.Candidate.ToolID, c.Confidence, ok, tt.wantTool, tt.wantConf, tt.wantOK)
				}
				prompt := srv.Requests()[0].Last()
				for _, want := range []string{"1 Main St, Springfield", "- assistant: Let me find out.", "address (string, required)"} {
					if !strings.Contains(prompt, want) {
						t.Errorf("prompt lacks %q:\n%s", want, prompt)
					}
				}

			})
		}
	}
}
