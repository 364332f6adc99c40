package resolve

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

var (
	// listedStats lists its measures in the tool's description; listedUnits
	// is a pair whose lists say a kind, not an end; listedPets lists in a
	// parameter's own description.
	listedStats = schemas.Manifest{ID: "t/stats", Name: "Stats",
		Description: "Reads a product measure or statistic (e.g. wau, mau, churn_rate) over time.",
		Parameters: json.RawMessage(`{"type":"object","required":["measure"],"properties":{
			"measure":{"type":"string","description":"Measure name"},
			"bucket":{"type":"string","enum":["day","week","month"]}}}`)}
	listedUnits = manifest("t/units", "Units", `{"type":"object","required":["qty","from_unit","to_unit"],"properties":{
		"qty":{"type":"number"},
		"from_unit":{"type":"string","description":"Unit converted from, e.g. lb"},
		"to_unit":{"type":"string","description":"Unit converted to, e.g. kg"}}}`)
	listedPets = manifest("t/pets", "Pets", `{"type":"object","required":["species"],"properties":{
		"species":{"type":"string","description":"Animal kind, e.g. cat, dog or rabbit"},
		"owner":{"type":"string","description":"Owner name"}}}`)
)

// TestListedValues: a lower-case word a description lists as a value
// fills its parameter; capitalised words, two listed words, and either end
// of a pair do not.
func TestListedValues(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"", listedStats, "churn_rate since spring", M{"measure": "churn_rate"}},
		{"", listedStats, "how did mau move per month", M{"measure": "mau", "bucket": "month"}},
		{"", listedPets, "find a rabbit near me", M{"species": "rabbit"}},
		// Negatives.
		{"", listedStats, "compare wau and mau", M{}},
		{"", listedPets, "find a hamster", M{}},
		// Neither end said: the units rule places none, and the lists
		// say a kind, not an end ("3 kg in lb" is the units rule's).
		{"", listedUnits, "is lb or kg heavier", M{}},
	})
	if got := listedIn("Reads a measure (e.g. wau, mau) or a table such as orders", []string{"measure"}); !reflect.DeepEqual(got, []string{"wau", "mau"}) {
		t.Errorf("listedIn with a noun: %v", got)
	}
}

// codesTV shows codes, and is itself named by one ("TV 2").
var codesTV = manifest("t/tv", "TV", `{"type":"object","properties":{
	"input":{"type":"string","description":"Input such as HDMI 2"},
	"screen":{"type":"string","description":"Which TV, e.g. kitchen"}}}`)

// TestListedCodes: a code the description shows with a number takes its
// number with it, and so does another code of its shape; a number alone,
// or the code alone, is left to the other rules.
func TestListedCodes(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"code and number", codesProjector, "put HDMI 4 on", M{"input": "HDMI 4"}},
		{"number alone stays a volume", codesProjector, "projector volume 40", M{"volume": int64(40)}},
		{"code alone is no input", codesProjector, "is HDMI working", M{}},
		{"a code of the shown shape is an input", codesProjector, "switch to VGA 1", M{"input": "VGA 1"}},
		{"the first code of the shape", codesProjector, "switch to DP 2 not VGA 1", M{"input": "DP 2"}},
		{"the tool's own noun is no code", codesTV, "switch TV 2 to VGA 1", M{"input": "VGA 1"}},
		{"a name goes on after the number", codesProjector, "show USB 2 Stick Left on the projector", M{"input": "USB 2 Stick Left"}},
	})
}
