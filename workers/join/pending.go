package join

import (
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// States of a pending record.
const (
	StateWaiting = "waiting"
	StateDone    = "done"
)

// Pending is an outer intent waiting for the results of the intents nested
// in it: the value of its record in the pending bucket.
type Pending struct {
	// Intent is the outer intent as parsed: DependsOn lists its inputs and
	// Nested where each stands in its text.
	Intent schemas.Intent `json:"intent"`
	// Inputs are the inputs that arrived, by inner intent id.
	Inputs    map[string]Input `json:"inputs,omitempty"`
	CreatedAt time.Time        `json:"created_at"`
	State     string           `json:"state"`
	// Outcome is set, in the same write that makes the record done, to what
	// is to be published; republishing it is harmless.
	Outcome *Outcome  `json:"outcome,omitempty"`
	DoneAt  time.Time `json:"done_at,omitzero"`
}

// Input is what one inner intent ended as.
type Input struct {
	// Status is the inner result's status (executed, error, not_found, …).
	Status string `json:"status"`
	// Text is the rendering of an executed intent's output, substituted into
	// the outer intent.
	Text string `json:"text,omitempty"`
	// ToolID is the tool that ran or was offered, if any.
	ToolID string `json:"tool_id,omitempty"`
	// Reason is what the inner result said, for a failed input.
	Reason string `json:"reason,omitempty"`
	// Code is the inner result's error code, for a failed input.
	Code string `json:"code,omitempty"`
}

// OK reports whether the input can be used: the inner intent executed.
func (in Input) OK() bool { return in.Status == schemas.StatusExecuted }

// Outcome is what a done record publishes: the outer intent for discovery,
// or the error result that says why it was not run.
type Outcome struct {
	Intent *schemas.Intent `json:"intent,omitempty"`
	Result *schemas.Result `json:"result,omitempty"`
}

// NewPending starts the record of an outer intent.
func NewPending(in schemas.Intent, now time.Time) Pending {
	return Pending{Intent: in, CreatedAt: now.UTC(), State: StateWaiting}
}

// Missing lists the inputs that have not arrived, in DependsOn order.
func (p *Pending) Missing() []string {
	var out []string
	for _, id := range p.Intent.DependsOn {
		if _, ok := p.Inputs[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// Waits reports whether id is an input of this record.
func (p *Pending) Waits(id string) bool {
	for _, d := range p.Intent.DependsOn {
		if d == id {
			return true
		}
	}
	return false
}

// innerText is the text the inner intent id had in the outer one.
func (p *Pending) innerText(id string) string {
	for _, n := range p.Intent.Nested {
		if n.ID == id && 0 <= n.Start && n.Start <= n.End && n.End <= len(p.Intent.Text) {
			return p.Intent.Text[n.Start:n.End]
		}
	}
	return ""
}
