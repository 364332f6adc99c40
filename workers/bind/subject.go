package bind

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// sessionSubjects are the subject families that end in a session, with how
// many tokens may stand between the prefix and the session. A subject of
// another shape names no session.
var sessionSubjects = []struct {
	prefix             string
	minInner, maxInner int
}{
	{schemas.AgentOutputPrefix, 0, 0},
	{schemas.AgentStreamPrefix, 0, 0},
	{schemas.AgentEndPrefix, 0, 0},
	{schemas.ResultPrefix, 0, 0},
	{PipePrefix, 1, 2}, // pipe.<stage>.<session>, pipe.answer.<tier>.<session>
}

// SubjectSession is the session a pipe, agent or result subject names,
// checked: the subject must be its family's prefix and inner tokens, then
// exactly one valid session token (schemas.ValidateSessionID).
// "agent.output.a.b" names no session at all, rather than "b", so no result
// of one session can be sent to another by publishing to a longer subject.
func SubjectSession(subject string) (string, error) {
	for _, f := range sessionSubjects {
		rest, ok := strings.CutPrefix(subject, f.prefix)
		if !ok {
			continue
		}
		inner := strings.Count(rest, ".")
		if inner < f.minInner || inner > f.maxInner {
			return "", fmt.Errorf("subject %s does not end in one session token: %w", clip(subject, 200), errNoSession)
		}
		i := strings.LastIndexByte(rest, '.')
		if i >= 0 && strings.Contains("."+rest[:i]+".", "..") {
			return "", fmt.Errorf("subject %s has an empty token: %w", clip(subject, 200), errNoSession)
		}
		session := rest[i+1:]
		if err := schemas.ValidateSessionID(session); err != nil {
			return "", fmt.Errorf("subject %s does not end in one session token: %w", clip(subject, 200), err)
		}
		return session, nil
	}
	return "", fmt.Errorf("subject %s: %w", clip(subject, 200), errNoSession)
}

var errNoSession = errors.New("not a subject that names a session (agent.output.S, agent.stream.S, agent.end.S, result.S, pipe.STAGE[.TIER].S)")

// CodedError is an error that names the code its error result carries
// (parse.Error, the limits' errors).
type CodedError interface {
	error
	ErrorCode() string
}

// CodeOf is the code of the first CodedError in err's chain, or def.
func CodeOf(err error, def string) string {
	var c CodedError
	if errors.As(err, &c) && c.ErrorCode() != "" {
		return c.ErrorCode()
	}
	return def
}
