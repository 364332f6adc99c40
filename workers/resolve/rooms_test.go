package resolve

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

var (
	roomLights = manifest("r/lights", "Set lights", `{"type":"object","required":["room"],"properties":{
		"room":{"type":"string","description":"Room or zone, e.g. kitchen, bedroom, all"},
		"on":{"type":"boolean","description":"true to switch on, false to switch off"},
		"brightness":{"type":"integer","description":"Brightness in percent","minimum":0,"maximum":100}}}`)
	roomHeat = manifest("r/heating", "Heating", `{"type":"object","required":["zone","temperature"],"properties":{
		"zone":{"type":"string","description":"Heating zone"},"temperature":{"type":"number","description":"Target temperature"}}}`)
	roomPlaces = manifest("r/weather", "Weather", `{"type":"object","required":["city"],"properties":{
		"city":{"type":"string","description":"City name"}}}`)
)

// resolvedWithUnmapped is what a request fills, found or asked for, and
// what it reports.
func resolvedWithUnmapped(t *testing.T, m schemas.Manifest, text string) (map[string]any, []schemas.Unmapped) {
	t.Helper()
	call, err := Resolve(context.Background(), routed(text), m)
	var miss *MissingError
	switch {
	case err == nil:
		return call.Parameters, call.Unmapped
	case errors.As(err, &miss):
		return miss.Found, nil
	}
	t.Fatalf("Resolve(%q): %v", text, err)
	return nil, nil
}

// TestRoomNouns: a room written right before the tool's own noun fills
// the room or zone parameter, and is not reported besides.
func TestRoomNouns(t *testing.T) {
	tests := []guessCase{
		{"room word", roomLights, "shut off the garage lights", M{"room": "garage", "on": false}},
		{"room word", roomLights, "switch on the hallway light please", M{"room": "hallway", "on": true}},
		{"room word", roomLights, "put the nursery light at 20 percent", M{"room": "nursery", "brightness": int64(20)}},
		{"room word", roomLights, "turn the attic lights on", M{"room": "attic", "on": true}},
		{"listed word", roomLights, "turn off the kitchen lights", M{"room": "kitchen", "on": false}},
		{"listed word", roomLights, "switch off all lights", M{"room": "all", "on": false}},
		{"compound", roomLights, "dim the guest room lamp", M{"room": "guest room"}},
		{"zone", roomHeat, "set the upstairs heating to 20", M{"zone": "upstairs", "temperature": float64(20)}},
		// Negatives: no room word, or no tool noun after it, or no room
		// parameter.
		{"negative: no room", roomLights, "turn off the lights", M{"on": false}},
		{"negative: adjective", roomLights, "turn on the bright lights", M{"on": true}},
		{"negative: other noun", roomLights, "turn on the garage fan", M{"on": true}},
		{"negative: in the room", roomLights, "lights off in the study", M{"room": "study", "on": false}},
		{"negative: city", roomPlaces, "the kitchen weather", M{}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.text, func(t *testing.T) {
			got, un := resolvedWithUnmapped(t, tt.m, tt.text)
			if !reflect.DeepEqual(got, map[string]any(tt.want)) {
				t.Errorf("%q: got %#v, want %#v", tt.text, got, tt.want)
			}
			for _, u := range un {
				if v, ok := got["room"].(string); ok && u.Text == v {
					t.Errorf("%q: %q filled room and is reported too", tt.text, v)
				}
			}
		})
	}
}
