package execute

import (
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// TestUnmappedNote: values no parameter took are named as such; another
// tool's name is answered as a request of its own to write; a second value
// for a parameter that took one is the same call to ask for again, with
// the arguments shown but never a redacted one.
func TestUnmappedNote(t *testing.T) {
	tests := []struct {
		unmapped []schemas.Unmapped
		want     []string
		not      []string
	}{
		{nil, nil, []string{"Ran"}},
		{[]schemas.Unmapped{{Text: "Hermes"}}, []string{`Ran system/kernel_info without "Hermes": it has no parameter for it.`}, []string{"another tool"}},
		{[]schemas.Unmapped{{Text: "uptime", Tool: "system/uptime"}},
			[]string{"Ran system/kernel_info only.", `"uptime" names another tool, system/uptime`, "[TOOL: uptime]"}, []string{"without"}},
		{[]schemas.Unmapped{{Text: "5"}, {Text: "whoami", Tool: "system/whoami"}},
			[]string{`without "5": it has no parameter for it.`, `"whoami" names another tool, system/whoami`}, nil},
		{[]schemas.Unmapped{{Text: "/tmp/b", Parameter: "path", Tool: "system/kernel_info"}},
			[]string{"Ran system/kernel_info with path=/tmp/a only.", `"/tmp/b" would go to path too, which takes one value`,
				"[TOOL: system/kernel_info mode=full path=/tmp/b]"}, []string{"without", "another tool", "token=", "path=/tmp/a]"}},
	}
	shown := map[string]any{"path": "/tmp/a", "mode": "full", "token": "***"}
	for _, tt := range tests {
		got := UnmappedNote(schemas.ToolCall{ToolID: "system/kernel_info", Unmapped: tt.unmapped}, shown)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("UnmappedNote(%+v) = %q, lacks %q", tt.unmapped, got, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("UnmappedNote(%+v) = %q, holds %q", tt.unmapped, got, n)
			}
		}
		if tt.unmapped == nil && got != "" {
			t.Errorf("UnmappedNote(nil) = %q, want empty", got)
		}
	}
}
