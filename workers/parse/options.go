package parse

// Defaults of the options.
const (
	DefaultContextChars = 500
	DefaultMaxIntents   = 32
	DefaultMaxTextBytes = 256 << 10
	// DefaultMaxConversationBytes bounds the conversation an output may
	// carry (roles and contents, summed).
	DefaultMaxConversationBytes = 1 << 20
	// DefaultIntentConversationBytes bounds the part of the conversation
	// each intent carries on: its last turns, nearest the request, where
	// the resolvers look. Every intent is its own message through four
	// stages, so a whole 6 MB conversation copied into 32 intents cost
	// close to a gigabyte.
	DefaultIntentConversationBytes = 16 << 10
)

// maxProblems caps the problems reported for one output: past that, one
// CodeTooManyProblems problem says how many more there were. An adversarial
// output (100k unclosed openers) must not turn into 100k messages.
const maxProblems = 64

// Option configures a Parser.
type Option func(*config)

type config struct {
	contextChars int
	maxIntents   int
	maxTextBytes int
	maxConvBytes int
	intentConv   int
	codeIntents  bool
	auditSchemas schemaLookup

	// Byte classes that stop the fast loops: what can start something in
	// prose, and inside an open marker. They depend on codeIntents.
	prose *[256]bool
	body  *[256]bool
}

// WithContextChars sets how many characters (runes) of the surrounding text
// each intent carries before and after its marker. Negative means 0.
func WithContextChars(n int) Option {
	return func(c *config) { c.contextChars = max(n, 0) }
}

// WithMaxIntents sets how many intents and direct calls, together, one output
// may hold; one more fails the whole output with CodeTooManyIntents. n < 1
// keeps the default.
func WithMaxIntents(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.maxIntents = n
		}
	}
}

// WithMaxTextBytes sets the largest output accepted, in bytes; a larger one
// fails with CodeTooLarge. n < 1 keeps the default.
func WithMaxTextBytes(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.maxTextBytes = n
		}
	}
}

// WithMaxConversationBytes sets the largest conversation an output may
// carry, in bytes (roles and contents summed); a larger one fails the output
// with CodeConversationTooLarge. n < 1 keeps the default.
func WithMaxConversationBytes(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.maxConvBytes = n
		}
	}
}

// WithIntentConversationBytes sets how much of the conversation each intent
// carries: its last turns up to n bytes, the oldest kept turn cut to its end
// if it does not fit whole. n < 1 keeps the default.
func WithIntentConversationBytes(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.intentConv = n
		}
	}
}

// WithCodeIntents decides whether markers and <tool_call>s inside code
// (fenced blocks and inline code spans) count. By default they do not: an
// agent quoting the syntax in code is documenting it, not calling a tool.
// With true, backticks and fences mean nothing and everything is scanned.
func WithCodeIntents(include bool) Option {
	return func(c *config) { c.codeIntents = include }
}

func newConfig(opts []Option) config {
	c := config{
		contextChars: DefaultContextChars,
		maxIntents:   DefaultMaxIntents,
		maxTextBytes: DefaultMaxTextBytes,
		maxConvBytes: DefaultMaxConversationBytes,
		intentConv:   DefaultIntentConversationBytes,
	}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.codeIntents {
		c.prose, c.body = &proseAll, &bodyAll
	} else {
		c.prose, c.body = &proseCode, &bodyCode
	}
	return c
}

var (
	proseCode = byteSet("[<`~")
	proseAll  = byteSet("[<")
	bodyCode  = byteSet("[]\n<`")
	bodyAll   = byteSet("[]\n<")
)

func byteSet(s string) (t [256]bool) {
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return t
}
