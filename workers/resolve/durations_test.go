package resolve

import "testing"

var (
	// durCountdown writes lengths compactly; durNap as words.
	durCountdown = manifest("t/countdown", "Countdown", `{"type":"object","required":["length"],"properties":{
		"length":{"type":"string","description":"How long, e.g. 5m, 2h15m"}}}`)
	durNap = manifest("t/nap", "Nap", `{"type":"object","required":["duration"],"properties":{
		"duration":{"type":"string","description":"How long to nap"}}}`)
)

// TestDurationHalves: a half is read with its length, whole; a half of
// nothing, or of no unit of time, is not.
func TestDurationHalves(t *testing.T) {
	checkGuessesOn(t, durCountdown, []string{"length"}, []textCase{
		{"count down three and a half minutes", M{"length": "3m30s"}},
		{"a countdown of an hour and a half please", M{"length": "1h30m"}},
		{"countdown: half a minute", M{"length": "30s"}},
		{"count down 2.5 hours", M{"length": "2h30m"}},
		// Negatives: half of no unit of time, a half alone.
		{"count down half a dozen laps", M{}},
		{"countdown to half time in 4 minutes", M{"length": "4m"}},
		// Half a second is no whole one: the second alone is read.
		{"count down a second and a half", M{"length": "1s"}},
	})
	checkGuessesOn(t, durNap, []string{"duration"}, []textCase{
		{"nap for half an hour", M{"duration": "half an hour"}},
		{"a nap of two and a half hours", M{"duration": "two and a half hours"}},
	})
}
