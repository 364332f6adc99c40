package execute

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/effects"
)

// Output sizes in results.
const (
	// InlineOutputBytes is the most output a result carries itself; more
	// goes to the outputs object store.
	InlineOutputBytes = 64 << 10
	// PreviewBytes is how much of a stored output its result shows.
	PreviewBytes = 4 << 10
)

// Content types of stored outputs.
const (
	contentText = "text/plain; charset=utf-8"
	contentJSON = "application/json"
)

// spill moves an output too large for a result to the object store,
// leaving a reference and a preview; without a store (or if storing
// fails) the output is cut to the inline limit and marked truncated.
func (s *stage) spill(ctx context.Context, call schemas.ToolCall, out *schemas.ToolOutput) {
	// Most outputs are far below the limit: those need not be encoded here
	// only to be measured (the result encodes them anyway).
	if text, ok := out.Content.(string); ok && len(text) <= InlineOutputBytes || jsonSizeAtMost(out.Content, InlineOutputBytes) {
		return
	}
	data, ctype := outputBytes(out.Content)
	if len(data) <= InlineOutputBytes {
		return
	}
	if s.cfg.outputs != nil {
		id := effects.ID{SessionID: call.SessionID, IntentID: call.IntentID}
		ref, err := s.cfg.outputs.Put(ctx, call.ToolID, id, data, ctype)
		if err == nil {
			out.Content, out.Ref = clipText(data, PreviewBytes), &ref
			return
		}
		s.cfg.log.Warn("large output not stored; the result carries its beginning only",
			"tool", call.ToolID, "intent_id", call.IntentID, "bytes", len(data), "error", err)
	}
	out.Content, out.Truncated = clipText(data, InlineOutputBytes), true
}

// outputBytes is an output's content as stored: text as it is, any other
// value as JSON.
func outputBytes(content any) ([]byte, string) {
	if s, ok := content.(string); ok {
		return []byte(s), contentText
	}
	data, err := json.Marshal(content)
	if err != nil {
		return nil, contentJSON
	}
	return data, contentJSON
}

// clipText is at most n bytes of data as valid UTF-8, not ending inside a
// character.
func clipText(data []byte, n int) string {
	if len(data) > n {
		data = data[:n]
		for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
			if utf8.RuneStart(data[i]) {
				if !utf8.FullRune(data[i:]) {
					data = data[:i]
				}
				break
			}
		}
	}
	return strings.ToValidUTF8(string(data), "\uFFFD")
}
