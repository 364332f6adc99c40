package llmresolve_test

import (
	"context"
	"testing"

	"github.com/toolyard/toolyard/workers/llmresolve/llmtest"
	"github.com/toolyard/toolyard/workers/route"
)

// TestProtocolChooser: the resolver as routing's disambiguator passes the
// model's pick and confidence on for routing to judge.
func TestProtocolChooser(t *testing.T) {
	tests := []struct {
		name     string
		reply    string
		want     route.Choice
		wantFail bool
	}{
		{"pick", `{"use_tool": true, "tool": "maps/geocode", "confidence": 0.9, "reasoning": "coordinates"}`,
			route.Choice{ToolID: "maps/geocode", Confidence: 0.9, Reason: "coordinates"}, false},
		{"unsure pick", `{"use_tool": true, "tool": "maps/geocode", "confidence": 0.4}`,
			route.Choice{ToolID: "maps/geocode", Confidence: 0.4}, false},
		{"none", `{"use_tool": false, "reasoning": "unclear"}`, route.Choice{Reason: "unclear"}, false},
		{"declined", `<error>cannot tell</error>`, route.Choice{Reason: "declined: cannot tell"}, false},
		{"garbage twice", `no idea`, route.Choice{}, true},
	}
	for _, provider := range providers {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				r, _ := newResolver(t, provider, []llmtest.Reply{text(tt.reply), text(tt.reply)}[:1+boolInt(tt.wantFail)])
				in, cs := mediumIntent()
				var d route.Disambiguator = r.Chooser(lookup)
				got, err := d.Choose(context.Background(), in, cs)
				if (err != nil) != tt.wantFail {
					t.Fatalf("error %v, want failure %v", err, tt.wantFail)
				}
				if got != tt.want {
					t.Errorf("got %+v, want %+v", got, tt.want)
				}
			})
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
