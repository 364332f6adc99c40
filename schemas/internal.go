package schemas

import (
	"errors"
	"fmt"
	"slices"
)

// internalChecker is implemented by the messages stages exchange: the
// identity checks DecodeInternal still makes once the schema pass is
// skipped, so a message that names no session or intent is refused, not
// answered into the void.
type internalChecker interface{ checkInternal() error }

func checkIdentity(session, intent string) error {
	switch {
	case !ValidSessionID(session):
		return fmt.Errorf("session_id %q is not a session id", session)
	case intent == "":
		return errors.New("no intent id")
	}
	return nil
}

func (in Intent) checkInternal() error { return checkIdentity(in.SessionID, in.ID) }

func (c Candidates) checkInternal() error { return c.Intent.checkInternal() }

func (r Routed) checkInternal() error {
	if err := r.Intent.checkInternal(); err != nil {
		return err
	}
	if !slices.Contains([]string{TierActivated, TierMultiple, TierWeak, TierNotFound}, r.Tier) {
		return fmt.Errorf("tier %q is not a tier", r.Tier)
	}
	return nil
}

func (c ToolCall) checkInternal() error { return checkIdentity(c.SessionID, c.IntentID) }

func (r Result) checkInternal() error {
	if !ValidSessionID(r.SessionID) {
		return fmt.Errorf("session_id %q is not a session id", r.SessionID)
	}
	if r.Status == "" {
		return errors.New("no status")
	}
	return nil
}
