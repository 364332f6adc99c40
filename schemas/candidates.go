package schemas

import "strings"

// Match types of a candidate: which retrieval side found it.
const (
	MatchHybrid   = "hybrid"
	MatchKeyword  = "keyword"
	MatchSemantic = "semantic"
)

// Candidate is one tool proposed for an intent by discovery.
type Candidate struct {
	ToolID      string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Keywords    []string `json:"keywords,omitempty"`
	Server      string   `json:"server,omitempty"`
	// Score is the raw retrieval score; only its order within one list means anything.
	Score float64 `json:"score"`
	// Confidence is the probability that this candidate is the right tool.
	Confidence float64 `json:"confidence"`
	MatchType  string  `json:"match_type"`
	// Mismatch is set when the intent asks for a kind of effect the tool
	// names none of: a near miss, which shares the intent's words but not
	// what it asks to do ("delete the message" and a tool that posts).
	Mismatch *EffectMismatch `json:"mismatch,omitempty"`
}

// EffectMismatch is what an intent asks to do and what a tool says it does,
// as kinds of effect: read, create, update, delete.
type EffectMismatch struct {
	Asked []string `json:"asked"`
	Names []string `json:"names"`
}

// AskedText is what the intent asks to do, for a message: "delete", "read
// or delete".
func (m EffectMismatch) AskedText() string { return strings.Join(m.Asked, " or ") }

// NamesText is what the tool says it does, for a message: "create", "read,
// create".
func (m EffectMismatch) NamesText() string { return strings.Join(m.Names, ", ") }

// Candidates is discovery's output: the intent with its ranked candidates, best first.
type Candidates struct {
	V          int         `json:"v,omitempty"`
	Intent     Intent      `json:"intent"`
	Candidates []Candidate `json:"candidates"`
}

// Confidence tiers decided by routing.
const (
	TierActivated = "activated"
	TierMultiple  = "multiple_matches"
	TierWeak      = "weak_matches"
	TierNotFound  = "not_found"
)

// Routed is routing's output for an activated intent: the chosen tool and
// the alternatives that were considered.
type Routed struct {
	V          int         `json:"v,omitempty"`
	Intent     Intent      `json:"intent"`
	Tier       string      `json:"tier"`
	Candidates []Candidate `json:"candidates"`
	// Message, Unmatched and Available are routing's answer to the agent
	// when the tier is not activated (see Result).
	Message   string   `json:"message,omitempty"`
	Unmatched []string `json:"unmatched,omitempty"`
	Available *Catalog `json:"available,omitempty"`
	// DecidedBy says what chose the first candidate: "confidence" (the
	// tiers) or "disambiguator" (the medium tier's chooser).
	DecidedBy string `json:"decided_by,omitempty"`
}
