package auth

import (
	"fmt"

	"github.com/nats-io/jwt/v2"
)

// AgentsAccountName is the display name of the account agents connect to.
const AgentsAccountName = "AGENTS"

// A Share is a subject of the TOOLYARD account that agents, connected to
// an account of their own, may use. TOOLYARD exports it and AGENTS
// imports it; an agent's credential still says which of AGENTS' subjects
// it may publish to or subscribe to.
//
// Why an account of their own: a client names the reply subject of what
// it publishes, and no NATS permission covers reply subjects. In the
// TOOLYARD account an agent could so have JetStream write its answers (a
// publish acknowledgement, an API response) into any stream or bucket
// there. A request that crosses an import gets a reply subject the server
// makes up (_R_.…), routed back to the requester's account, so whatever
// reply subject an agent names, the answer lands in AGENTS, where nothing
// is stored.
type Share struct {
	// Subject is the subject in TOOLYARD, with wildcards.
	Subject string
	// Local is what agents publish to in AGENTS when it differs from
	// Subject (the same wildcards, in the same order): a request is then
	// renamed on its way in.
	Local string
	// Replies says that a request gets a stream of replies (a pull
	// request's messages) rather than one.
	Replies bool
	// Feed makes Subject a stream export instead: what is published on it
	// in TOOLYARD reaches AGENTS' subscribers, and nothing goes the other
	// way.
	Feed bool
	// Why says what agents need it for.
	Why string
}

func (s Share) export() *jwt.Export {
	if s.Feed {
		return &jwt.Export{Name: s.Why, Subject: jwt.Subject(s.Subject), Type: jwt.Stream}
	}
	rt := jwt.ResponseType(jwt.ResponseTypeSingleton)
	if s.Replies {
		rt = jwt.ResponseTypeStream
	}
	return &jwt.Export{Name: s.Why, Subject: jwt.Subject(s.Subject), Type: jwt.Service, ResponseType: rt}
}

func (s Share) imp(from string) *jwt.Import {
	i := &jwt.Import{Name: s.Why, Subject: jwt.Subject(s.Subject), Account: from, Type: jwt.Service}
	if s.Feed {
		i.Type = jwt.Stream
	}
	if s.Local != "" {
		i.LocalSubject = jwt.RenamingSubject(s.Local)
	}
	return i
}

// agentsAccount is the AGENTS account's claims: no JetStream of its own,
// the shares imported from the TOOLYARD account app.
func agentsAccount(app *jwt.AccountClaims, pub string, shares []Share) (*jwt.AccountClaims, error) {
	agents := jwt.NewAccountClaims(pub)
	agents.Name = AgentsAccountName
	for _, s := range shares {
		app.Exports.Add(s.export())
		agents.Imports.Add(s.imp(app.Subject))
	}
	var vr jwt.ValidationResults
	app.Validate(&vr)
	agents.Validate(&vr)
	if errs := vr.Errors(); len(errs) > 0 {
		return nil, fmt.Errorf("the subjects shared with agents: %w", errs[0])
	}
	return agents, nil
}
