package vecindex

import "testing"

// A set emptied by a new generation forgets every slot, also when the
// generation wraps around and the marks must really be cleared.
func TestMarksForgetAtEachBegin(t *testing.T) {
	var m Marks[uint16]
	if !m.Begin(10) || m.Len() < 10 {
		t.Fatalf("first Begin: room %d, want ≥ 10 and grown", m.Len())
	}
	for round := range 70000 { // past 65,535: the generation wraps
		if m.Has(3) {
			t.Fatalf("round %d: slot 3 kept from the round before", round)
		}
		if !m.Visit(3) || m.Visit(3) || !m.Has(3) {
			t.Fatalf("round %d: first visit not new, or second visit new", round)
		}
		if m.Begin(10) {
			t.Fatalf("round %d: room grew for the same size", round)
		}
	}
	if !m.Begin(100) || m.Has(3) {
		t.Fatal("a larger size must grow the room, empty")
	}
}
