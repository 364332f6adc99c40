package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
)

// Redacted replaces a secret value wherever a stage would have written it.
const Redacted = "***"

// MinSecretLen is the shortest value a Scrubber searches for: a shorter one
// would match inside ordinary words and mangle them. Shorter secret
// arguments are still redacted where they are a parameter value (see
// bind.RedactParameters), only not searched for in free text.
const MinSecretLen = 4

// SecretsFunc lists the secret values an input carries or makes a stage
// handle (secret arguments of a call, the environment secrets of the tool
// it runs). The runner removes them from everything the stage writes about
// the input — outputs, rejections, dead letters, logs — except the
// hand-offs marked Out.Secret.
type SecretsFunc func(ctx context.Context, m *Msg) []string

// Scrubber removes a set of secret values from what a stage writes. It
// knows every value in its raw form and as it appears inside a JSON string,
// and edits JSON documents by value, so what it returns stays valid JSON. A
// secret of 8 or more characters is replaced wherever it appears; a shorter
// or all-digit one (a PIN) only where it stands alone, and a JSON number
// only when it is the secret as a whole, so that timestamps, ids and
// durations that happen to contain its digits stay intact.
// Values may be added while a message is handled (a stage that learns a
// secret only as it works); a Scrubber is safe for concurrent use. The zero
// value and nil scrub nothing.
type Scrubber struct {
	mu      sync.RWMutex
	secrets []string // raw values, longest first
	forms   []string // raw values and their JSON-escaped forms, longest first
	repl    *strings.Replacer
	// weak are the forms of short or all-digit secrets (a PIN): replaced
	// only where they stand alone, so that a timestamp, an id or a number
	// that happens to contain their digits is left intact.
	weak []string
}

// strongLen is the length from which a secret that is not all digits is
// replaced wherever it appears, even inside a longer word.
const strongLen = 8

// weakSecret: a value common enough to occur by chance inside other text.
func weakSecret(v string) bool {
	if len(v) < strongLen {
		return true
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// NewScrubber returns a scrubber of the given values.
func NewScrubber(values ...string) *Scrubber {
	s := &Scrubber{}
	s.Add(values...)
	return s
}

// Add adds secret values; empty and short ones (MinSecretLen) are ignored.
func (s *Scrubber) Add(values ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for _, v := range values {
		if len(v) < MinSecretLen || v == Redacted || contains(s.secrets, v) {
			continue
		}
		s.secrets = append(s.secrets, v)
		changed = true
	}
	if !changed {
		return
	}
	// Longest first: a secret that contains another is replaced whole.
	sort.Slice(s.secrets, func(i, j int) bool { return len(s.secrets[i]) > len(s.secrets[j]) })
	// Fresh slices: String reads the old ones without the lock.
	s.forms, s.weak = nil, nil
	var strong []string
	for _, v := range s.secrets {
		for _, f := range append(append([]string{v}, jsonForms(v)...), urlForms(v)...) {
			if contains(s.forms, f) {
				continue
			}
			s.forms = append(s.forms, f)
			if weakSecret(v) {
				s.weak = append(s.weak, f)
			} else {
				strong = append(strong, f)
			}
		}
	}
	// Longest first, so a secret that contains another is replaced whole
	// (strings.Replacer tries its pairs in order at each position).
	for _, l := range [][]string{s.forms, s.weak, strong} {
		sort.SliceStable(l, func(i, j int) bool { return len(l[i]) > len(l[j]) })
	}
	s.repl = nil
	if len(strong) > 0 {
		pairs := make([]string, 0, 2*len(strong))
		for _, f := range strong {
			pairs = append(pairs, f, Redacted)
		}
		s.repl = strings.NewReplacer(pairs...)
	}
}

// Empty reports whether there is nothing to scrub.
func (s *Scrubber) Empty() bool {
	if s == nil {
		return true
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.secrets) == 0
}

// String returns text with every secret replaced by Redacted.
func (s *Scrubber) String(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	repl, weak := s.repl, s.weak
	s.mu.RUnlock()
	if repl != nil {
		text = repl.Replace(text)
	}
	for _, w := range weak {
		text = replaceAlone(text, w)
	}
	return text
}

// replaceAlone replaces the occurrences of w in text that no letter or
// digit touches on either side.
func replaceAlone(text, w string) string {
	var b strings.Builder
	last := 0 // text[:last] is written to b
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], w)
		if i < 0 {
			break
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isWordByte(text[i-1])) && (end == len(text) || !isWordByte(text[end])) {
			b.WriteString(text[last:i])
			b.WriteString(Redacted)
			last, from = end, end
			continue
		}
		from = i + 1
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// isWordByte: a letter, a digit, or part of a non-ASCII character.
func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// Bytes returns data with every secret replaced, and whether anything was.
// A JSON document is edited value by value (a secret that is a whole JSON
// number becomes the string Redacted) and re-encoded; anything else is
// edited as text.
func (s *Scrubber) Bytes(data []byte) ([]byte, bool) {
	if s == nil || !s.found(data) {
		return data, false
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&doc) == nil && !dec.More() {
		v, changed := s.value(doc)
		if !changed {
			return data, false // a secret appears only as an object key
		}
		if out, err := json.Marshal(v); err == nil {
			return out, true
		}
	}
	out := s.String(string(data))
	return []byte(out), out != string(data)
}

// Header returns h with the secrets scrubbed from its values (a copy when
// anything changed).
func (s *Scrubber) Header(h nats.Header) nats.Header {
	if s.Empty() || h == nil {
		return h
	}
	var out nats.Header
	for k, vs := range h {
		for i, v := range vs {
			if c := s.String(v); c != v {
				if out == nil {
					out = cloneHeader(h)
				}
				out[k][i] = c
			}
		}
	}
	if out == nil {
		return h
	}
	return out
}

// Outs scrubs the payloads and headers of outputs, leaving alone those
// marked Secret that go to another stage's work queue: they carry the
// secret to where it is needed.
func (s *Scrubber) Outs(outs []Out) []Out {
	if s.Empty() {
		return outs
	}
	res := make([]Out, len(outs))
	for i, o := range outs {
		if !(o.Secret && strings.HasPrefix(o.Subject, pipeSubjectPrefix)) {
			var changed bool
			if o.Data, changed = s.Bytes(o.Data); changed {
				o.Value = nil // no longer what Data says
			}
			o.Header = s.Header(o.Header)
		}
		res[i] = o
	}
	return res
}

// pipeSubjectPrefix is the root of work-queue subjects (PipeSubjects).
const pipeSubjectPrefix = "pipe."

// whole reports whether v is a secret.
func (s *Scrubber) whole(v string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return contains(s.secrets, v)
}

// found reports whether data holds any secret in any form.
func (s *Scrubber) found(data []byte) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, f := range s.forms {
		if bytes.Contains(data, []byte(f)) {
			return true
		}
	}
	return false
}

// value scrubs a decoded JSON value; object keys are left alone (they are
// the message's structure, not data).
func (s *Scrubber) value(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		c := s.String(x)
		return c, c != x
	case json.Number:
		// A number is a secret only as a whole (a PIN given as a number);
		// digits inside another number (a duration) are not.
		if s.whole(x.String()) {
			return Redacted, true
		}
	case map[string]any:
		changed := false
		for k, e := range x {
			var c bool
			if x[k], c = s.value(e); c {
				changed = true
			}
		}
		return x, changed
	case []any:
		changed := false
		for i, e := range x {
			var c bool
			if x[i], c = s.value(e); c {
				changed = true
			}
		}
		return x, changed
	}
	return v, false
}

// jsonForms are the ways v may appear inside an encoded JSON string: Go's
// encoder escapes <, > and & by default, other encoders do not.
func jsonForms(v string) []string {
	var out []string
	if b, err := json.Marshal(v); err == nil {
		out = append(out, string(b[1:len(b)-1]))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) == nil {
		b := bytes.TrimSpace(buf.Bytes())
		out = append(out, string(b[1:len(b)-1]))
	}
	return out
}

// urlForms are v escaped as a URL query value and as a path segment: an
// http tool puts secrets ({env.KEY}) into its URL, and errors that quote
// the URL (Go's *url.Error does, query included) carry them escaped.
func urlForms(v string) []string {
	var out []string
	for _, f := range []string{url.QueryEscape(v), url.PathEscape(v)} {
		if f != v {
			out = append(out, f)
		}
	}
	return out
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func cloneHeader(h nats.Header) nats.Header {
	out := make(nats.Header, len(h))
	for k, vs := range h {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

type scrubberKey struct{}

// WithScrubber returns ctx carrying s, for handlers that keep what they
// produce somewhere besides their outputs (an execution record, an object
// store) and must scrub it the same way.
func WithScrubber(ctx context.Context, s *Scrubber) context.Context {
	return context.WithValue(ctx, scrubberKey{}, s)
}

// ScrubberFrom is the scrubber of the message a handler is working on; a
// handler that learns a secret as it works adds it here. Never nil.
func ScrubberFrom(ctx context.Context) *Scrubber {
	if s, ok := ctx.Value(scrubberKey{}).(*Scrubber); ok && s != nil {
		return s
	}
	return NewScrubber()
}
