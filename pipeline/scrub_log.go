package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
)

// inFlight holds the scrubbers of the messages being handled in this
// process. Logs do not say which message they are about (a tool's executor
// logs with its own logger), so every log line is scrubbed of the secrets
// of every message in flight: a secret is kept out of the log whoever logs
// it while it is in use.
var inFlight = struct {
	sync.RWMutex
	set map[*Scrubber]int
}{set: map[*Scrubber]int{}}

// HoldSecrets scrubs s's secrets (and those added to it later) from every
// log line written through RedactLogs until release: for handlers that run
// outside the stage runner, such as request/reply endpoints.
func HoldSecrets(s *Scrubber) (release func()) { return holdSecrets(s) }

// holdSecrets scrubs s's secrets from every log line until release.
func holdSecrets(s *Scrubber) (release func()) {
	inFlight.Lock()
	inFlight.set[s]++
	inFlight.Unlock()
	return func() {
		inFlight.Lock()
		if inFlight.set[s]--; inFlight.set[s] <= 0 {
			delete(inFlight.set, s)
		}
		inFlight.Unlock()
	}
}

// active lists the non-empty scrubbers in flight.
func active() []*Scrubber {
	inFlight.RLock()
	defer inFlight.RUnlock()
	var out []*Scrubber
	for s := range inFlight.set {
		if !s.Empty() {
			out = append(out, s)
		}
	}
	return out
}

// RedactLogs wraps a log handler so that no line it writes holds a secret
// of a message this process is handling: the message and every attribute
// (strings, errors, groups, values printed with %v) are scrubbed first.
// Wrapping twice is harmless.
func RedactLogs(h slog.Handler) slog.Handler {
	if _, ok := h.(redactingHandler); ok {
		return h
	}
	return redactingHandler{h: h}
}

type redactingHandler struct{ h slog.Handler }

func (r redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return r.h.Enabled(ctx, l)
}

func (r redactingHandler) Handle(ctx context.Context, rec slog.Record) error {
	scs := active()
	if len(scs) == 0 {
		return r.h.Handle(ctx, rec)
	}
	out := slog.NewRecord(rec.Time, rec.Level, scrubText(scs, rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(scrubAttr(scs, a))
		return true
	})
	return r.h.Handle(ctx, out)
}

// WithAttrs scrubs attributes with the secrets in flight now; attributes
// given to With are about the logger's owner (a stage, a subject), rarely
// a secret, and a logger made while handling a message is used for it.
func (r redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if scs := active(); len(scs) > 0 {
		c := make([]slog.Attr, len(attrs))
		for i, a := range attrs {
			c[i] = scrubAttr(scs, a)
		}
		attrs = c
	}
	return redactingHandler{h: r.h.WithAttrs(attrs)}
}

func (r redactingHandler) WithGroup(name string) slog.Handler {
	return redactingHandler{h: r.h.WithGroup(name)}
}

func scrubText(scs []*Scrubber, s string) string {
	for _, sc := range scs {
		s = sc.String(s)
	}
	return s
}

func scrubAttr(scs []*Scrubber, a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, scrubText(scs, v.String()))
	case slog.KindGroup:
		g := v.Group()
		c := make([]slog.Attr, len(g))
		for i, e := range g {
			c[i] = scrubAttr(scs, e)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(c...)}
	case slog.KindAny:
		var text string
		if err, ok := v.Any().(error); ok {
			text = err.Error()
		} else {
			text = fmt.Sprint(v.Any())
		}
		if c := scrubText(scs, text); c != text {
			return slog.String(a.Key, c)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
