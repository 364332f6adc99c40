package llmresolve

import (
	"fmt"
	"log/slog"
	"time"
)

// Defaults of the options.
const (
	DefaultTimeout       = 20 * time.Second
	DefaultMinConfidence = 0.7
	// DefaultContextTurns is how many conversation turns disambiguation
	// shows; resolution shows fewer, since the request usually says it all.
	DefaultContextTurns = 6
)

// Option configures a Resolver.
type Option func(*config)

type config struct {
	timeout         time.Duration
	minConfidence   float64
	turns           int
	log             *slog.Logger
	breakerFailures int
	breakerCooldown time.Duration
	jsonMode        bool
}

func newConfig(opts []Option) (config, error) {
	c := config{timeout: DefaultTimeout, minConfidence: DefaultMinConfidence, turns: DefaultContextTurns, log: slog.Default(),
		breakerFailures: DefaultBreakerFailures, breakerCooldown: DefaultBreakerCooldown}
	for _, o := range opts {
		o(&c)
	}
	if c.timeout <= 0 {
		return c, fmt.Errorf("llm: timeout must be positive, got %s", c.timeout)
	}
	if c.breakerFailures > 0 && c.breakerCooldown <= 0 {
		return c, fmt.Errorf("llm: breaker cooldown must be positive, got %s", c.breakerCooldown)
	}
	if c.minConfidence < 0 || c.minConfidence > 1 {
		return c, fmt.Errorf("llm: minimum confidence must be between 0 and 1, got %v", c.minConfidence)
	}
	return c, nil
}

// WithTimeout bounds the model's part of one resolution (both phases and
// their retries); past it, the deterministic resolver answers.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithMinConfidence is the confidence below which the model's choice is
// not acted on: the agent is offered the candidates instead.
func WithMinConfidence(f float64) Option { return func(c *config) { c.minConfidence = f } }

// WithContextTurns is how many of the last conversation turns
// disambiguation shows the model.
func WithContextTurns(n int) Option { return func(c *config) { c.turns = n } }

// WithLogger sets the logger for fallbacks and failures.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.log = l
		}
	}
}

// WithBreaker skips the model for cooldown after failures requests in a
// row got no answer (errors, timeouts), so that a model that is down does
// not cost every intent the timeout; the deterministic resolver answers
// meanwhile. failures 0 turns the breaker off.
func WithBreaker(failures int, cooldown time.Duration) Option {
	return func(c *config) { c.breakerFailures, c.breakerCooldown = failures, cooldown }
}

// WithJSONMode asks the server to constrain answers to JSON (Ollama's
// format "json", OpenAI's json_object response format): small models then
// cannot ramble, at the price of the <tool_call> and <error> forms; a
// decline is then {"error": "…"}.
func WithJSONMode(on bool) Option { return func(c *config) { c.jsonMode = on } }
