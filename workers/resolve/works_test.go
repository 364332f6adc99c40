package resolve

import (
	"context"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

var (
	workTV = manifest("w/tv", "Television", `{"type":"object","properties":{
		"set":{"type":"string","description":"Which television, e.g. lounge, loft"},
		"power":{"type":"boolean","description":"Turn on (true) or off (false)"},
		"channel":{"type":"string","description":"Channel number or name, or input such as HDMI 1"},
		"title":{"type":"string","description":"Film, series or streaming app to open"}}}`)
	workCinema = manifest("w/projector", "Projector", `{"type":"object","properties":{
		"movie":{"type":"string","description":"What to project"},"room":{"type":"string"}}}`)
	workTicket = manifest("w/ticket", "Open ticket", `{"type":"object","properties":{
		"title":{"type":"string","description":"Ticket title"},"queue":{"type":"string","description":"Support queue"}}}`)
)

// TestWorkTitle: a capitalised name that is the object of a verb that puts
// a work on fills the parameter for a work's title.
func TestWorkTitle(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"put X on", workTV, "put Twin Peaks on the television", M{"title": "Twin Peaks"}},
		{"play", workTV, "play The Wire in the loft", M{"title": "The Wire", "set": "loft"}},
		{"watch", workTV, "let's watch Arrival", M{"title": "Arrival"}},
		{"open an app", workTV, "open Hulu", M{"title": "Hulu"}},
		{"put on", workCinema, "put on Paddington in the attic", M{"movie": "Paddington", "room": "attic"}},
		// Negatives: no capitalised name, a channel's name, a title that
		// is no work's.
		{"no name", workTV, "play something funny", M{}},
		{"channel number", workTV, "put on Channel 5", M{"channel": "5"}},
		{"channel in capitals", workTV, "put on ESPN", M{}},
		{"listed input", workTV, "open HDMI", M{}},
		{"issue title is no work", workTicket, "open Checkout Broken", M{}},
	})
}

// TestWorkTitleTaker: a name left over is reported for the work's title
// sooner than for a channel or the set (the first one reported).
func TestWorkTitleTaker(t *testing.T) {
	tests := []struct {
		text string
		want []schemas.Unmapped
	}{
		{"I fancy Twin Peaks tonight", []schemas.Unmapped{{Text: "Twin Peaks", Parameter: "title"}}},
		{"is Arrival worth it", []schemas.Unmapped{{Text: "Arrival", Parameter: "title"}}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			call, err := Resolve(context.Background(), routed(tt.text), workTV)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.text, err)
			}
			if len(call.Unmapped) == 0 || !reflect.DeepEqual(call.Unmapped[:1], tt.want) {
				t.Errorf("%q: unmapped %+v, want %+v (arguments %v)", tt.text, call.Unmapped, tt.want, call.Parameters)
			}
		})
	}
}
