package discover

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolyard/toolyard/workers/discover/embed"
)

// usageSide is the embedder of a usage model's learned intents, which
// embeds the request the same way for usage_near and usage_vote. It is
// one of the engine's own sides (the word vectors, or the sentence
// encoder the registry is searched with), or, when the model asks for a
// sentence encoder the engine does not search the registry with, one of
// its own: the encoder then serves the usage signals only, at the cost of
// one encoding of every request (docs/benchmarks.md, "Learning from use").
type usageSide struct {
	v *vectors
	// kind says which request vector the side reads.
	kind usageSideKind
}

type usageSideKind int

const (
	sideWords   usageSideKind = iota // the engine's word vectors (qv)
	sideEncoder                      // the engine's sentence encoder (qe[0])
	sideOwn                          // an encoder of the usage model's own
)

// UsageEncoder is the id of the embedder a usage model trained on this
// engine has its learned intents embedded by, unless training names
// another (Usage.Encoder): the sentence encoder when the engine has one,
// else the word vectors; "" for a keyword-only engine.
func (e *Engine) UsageEncoder() string {
	switch {
	case e.enc != nil:
		return e.enc.emb.ID()
	case e.vec != nil:
		return e.vec.emb.ID()
	}
	return ""
}

// usageSideFor finds the embedder whose id a usage model names ("": the
// sentence encoder when the engine has one, else the word vectors).
func (e *Engine) usageSideFor(id string) (usageSide, error) {
	switch {
	case id == "" && e.enc != nil, e.enc != nil && id == e.enc.emb.ID():
		return usageSide{v: e.enc, kind: sideEncoder}, nil
	case id == "", e.vec != nil && id == e.vec.emb.ID():
		return usageSide{v: e.vec, kind: sideWords}, nil
	case e.vec == nil:
		// Keyword-only: no request is embedded, so no usage vector
		// signal is computed whatever the model's embedder.
		return usageSide{}, nil
	}
	// The build's own word vectors can always embed: a model trained on
	// them serves an engine whose registry side is another embedder (a
	// remote one) with its usage side as trained.
	if local, err := embed.NewLocal(); err == nil && local.ID() == id {
		return usageSide{v: newVectorSide(local, e.cfg), kind: sideOwn}, nil
	}
	var known []string
	for _, name := range embed.Encoders {
		enc, err := embed.NewEncoder(name)
		if err != nil || enc == nil {
			continue
		}
		if enc.ID() == id {
			return usageSide{v: newVectorSide(enc, e.cfg), kind: sideOwn}, nil
		}
		known = append(known, enc.ID())
	}
	return usageSide{}, fmt.Errorf("learned intents embedded by %q, which this engine cannot embed with (word vectors %q, sentence encoder %q, encoders of this build: %s): train the model again here",
		id, e.vec.emb.ID(), e.encoderID(), strings.Join(known, ", "))
}

func (e *Engine) encoderID() string {
	if e.enc == nil {
		return "none"
	}
	return e.enc.emb.ID()
}

// usageQuery is the request's vector on the usage model's side: nil
// without a model or a vector (keyword-only, or nothing to embed). A side
// of the model's own embeds the request here, before the engine's lock is
// taken; when it fails the search goes on without the usage vector
// signals, as it goes on without the encoder's.
func (e *Engine) usageQuery(ctx context.Context, m *usageModel, text string, qv []float32, qe [][]float32) ([]float32, error) {
	if m == nil {
		return nil, nil
	}
	switch m.side.kind {
	case sideEncoder:
		if len(qe) == 0 {
			return nil, nil
		}
		return qe[0], nil
	case sideOwn:
		if !e.hasHistory(m) {
			// No tool of the registry has history: every usage signal
			// is 0 whatever the request's vector, so it is not encoded.
			return nil, nil
		}
		uq, err := m.side.v.query(ctx, text)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if isStrict(ctx) {
				return nil, fmt.Errorf("%w: %w", ErrEmbedderFailed, err)
			}
			m.side.v.degraded(e.cfg.log, "searching without the usage model's nearest intents", err)
			return nil, nil
		}
		return uq, nil
	}
	return qv, nil
}

// UsageEmbedderID is the id of the embedder a name stands for, for
// training: "" the engine's default (UsageEncoder), "words" or "none" its
// word vectors, else a sentence encoder of embed.Encoders. The id is what
// a model records as Usage.Encoder.
func (e *Engine) UsageEmbedderID(name string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "":
		return e.UsageEncoder(), nil
	case "words", "none":
		if e.vec == nil {
			return "", fmt.Errorf("usage encoder %q: the engine has no word vectors (keyword-only)", name)
		}
		return e.vec.emb.ID(), nil
	}
	enc, err := embed.NewEncoder(name)
	if err != nil {
		return "", fmt.Errorf("usage encoder %q: %w", name, err)
	}
	return enc.ID(), nil
}

// hasHistory reports whether some tool of the registry has learned intents
// in m.
func (e *Engine) hasHistory(m *usageModel) bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	for tool := range m.byTool {
		if e.tools[tool] != nil {
			return true
		}
	}
	return false
}
