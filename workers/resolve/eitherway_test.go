package resolve

import (
	"testing"
)

// bills lists bills by state; its state enum is what the guards protect.
var bills = manifest("t/bills", "Bills", `{"type":"object","properties":{
	"state":{"type":"string","enum":["open","settled","late","void"]},
	"vendor":{"type":"string","description":"Vendor name"}}}`)

// TestEitherWay: a value asked for either way, or every value of a
// parameter, fills no enum; one value said plainly still does.
func TestEitherWay(t *testing.T) {
	checkGuessesOn(t, bills, []string{"state"}, []textCase{
		{"list the bills from March, settled or not", M{}},
		{"bills whether settled or unsettled", M{}},
		{"show bills in any state", M{}},
		{"all bills regardless of state", M{}},
		{"every bill, whatever the state", M{}},
		{"bills of all states for March", M{}},
		// Negatives: one value, or a value then "or" and another word.
		{"show the settled bills", M{"state": "settled"}},
		{"list late bills or void ones", M{}}, // two values: not one
		{"bills that are late or not sent", M{}},
		{"only the open bills, or none", M{"state": "open"}},
		{"any bills that are late?", M{"state": "late"}}, // "any" is not before the name
	})
}

// TestEitherWayNeedsMember: "X or not" is asked either way only when X,
// or its contrary, is a value a parameter takes; elsewhere the words are
// prose, for the other rules ("to be or not to be" stays in the text).
func TestEitherWayNeedsMember(t *testing.T) {
	echo := manifest("t/echo", "Echo", `{"type":"object","required":["message"],"properties":{"message":{"type":"string"}}}`)
	checkGuessesOn(t, echo, nil, []textCase{
		{"echo the message: to be or not to be", M{"message": "to be or not to be"}},
		{"echo the message: ready or not here I come", M{"message": "ready or not here I come"}},
	})
	checkGuessesOn(t, bills, []string{"state"}, []textCase{
		{"bills, late or not", M{}},                           // a member: either way
		{"bills, void or not", M{}},                           // a member: either way
		{"show late bills, ready or not", M{"state": "late"}}, // "ready" is none
	})
}
