package parse

import (
	"fmt"

	"github.com/toolyard/toolyard/workers/internal/sessionlimit"
)

// Defaults of the stage options.
const (
	// DefaultSessionRate is how many outputs a second one session may have
	// parsed by one parse worker, on average.
	DefaultSessionRate = 20.0
	// DefaultSessionBurst is how many outputs one session may publish at once.
	DefaultSessionBurst = 40
)

// StageOption configures the parse stage's binding.
type StageOption func(*stageConfig)

type stageConfig struct {
	rate *sessionlimit.Rate
}

// WithSessionRate limits each session to perSecond outputs a second on
// average, burst at once (a token bucket per session, per parse worker). An
// output over the limit is answered with a rate_limited error result and
// kept in the DLQ. perSecond <= 0 turns the limit off.
func WithSessionRate(perSecond float64, burst int) StageOption {
	return func(c *stageConfig) { c.rate = sessionlimit.NewRate(perSecond, burst) }
}

func newStageConfig(opts []StageOption) stageConfig {
	c := stageConfig{rate: sessionlimit.NewRate(DefaultSessionRate, DefaultSessionBurst)}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

func errRateLimited(session string, r *sessionlimit.Rate) *Error {
	return &Error{Code: CodeRateLimited, Message: fmt.Sprintf(
		"session %s published outputs faster than %g a second (bursts of %d), the limit per session of this parse worker; nothing of this output ran and it is kept in the dead-letter queue ('toolyard dlq replay' puts it back); publish more slowly, or raise the limit with --session-rate and --session-burst on toolyard up / worker",
		session, r.PerSecond(), r.Burst())}
}
