package bind

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// sessionSubjects are the subject families that end in a session, with the
// number of tokens before it. A subject of another shape names no session.
var sessionSubjects = []struct {
	prefix string
	skip   int // tokens after the prefix and before the session
}{
	{schemas.AgentOutputPrefix, 0},
	{schemas.AgentStreamPrefix, 0},
	{schemas.AgentEndPrefix, 0},
	{schemas.ResultPrefix, 0},
	{PipePrefix, 1}, // pipe.<stage>.<session>
}

// SubjectSession is the session a pipe, agent or result subject names,
// checked: the subject must be its family's prefix, then exactly one valid
// session token (schemas.ValidateSessionID). "agent.output.a.b" names no
// session at all, rather than "b", so no result of one session can be sent
// to another by publishing to a longer subject.
func SubjectSession(subject string) (string, error) {
	for _, f := range sessionSubjects {
		rest, ok := strings.CutPrefix(subject, f.prefix)
		if !ok {
			continue
		}
		for range f.skip {
			i := strings.IndexByte(rest, '.')
			if i <= 0 {
				return "", fmt.Errorf("subject %s: %w", clip(subject, 200), errNoSession)
			}
			rest = rest[i+1:]
		}
		if err := schemas.ValidateSessionID(rest); err != nil {
			return "", fmt.Errorf("subject %s does not end in one session token: %w", clip(subject, 200), err)
		}
		return rest, nil
	}
	return "", fmt.Errorf("subject %s: %w", clip(subject, 200), errNoSession)
}

var errNoSession = errors.New("not a subject that names a session (agent.output.S, agent.stream.S, agent.end.S, result.S, pipe.STAGE.S)")

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
