package discover

import (
	"context"
	"fmt"
	"math"
)

// assistantAbilities describe, as tool descriptions would, what the agent
// does by itself without any tool. A request close to one of them and far
// from every tool is one the agent should answer itself: the need model's
// self_serve feature is the encoder's best cosine of the request to them.
// They were written from what instruction-following models are asked to
// do, not from any benchmark's queries, and are kept general on purpose: a
// registry that does hold such a tool (a summarizer) is close to the
// request as well, and encoder_best says so.
var assistantAbilities = []string{
	"Write creative text such as poems, stories, jokes, bios or scripts.",
	"Explain, reason about or give an opinion on a question.",
	"Answer a question from general knowledge.",
	"Give advice or recommendations from your own knowledge.",
	"Summarize, rewrite, classify or translate a given text.",
	"Solve a math or logic problem.",
	"Write or explain code.",
}

// encodeAbilities encodes assistantAbilities with the sentence encoder.
func encodeAbilities(ctx context.Context, v *vectors) ([][]float32, error) {
	vecs, err := v.emb.EmbedDocuments(ctx, assistantAbilities)
	if err != nil {
		return nil, fmt.Errorf("encode the assistant's abilities with %s: %w", v.emb.ID(), err)
	}
	return vecs, nil
}

// selfServe is the best cosine of the whole request (the first encoder
// query vector) to the assistant's abilities, 0 without an encoder.
func selfServe(abilities [][]float32, qe [][]float32) float64 {
	if len(qe) == 0 || len(abilities) == 0 {
		return 0
	}
	best := math.Inf(-1)
	for _, a := range abilities {
		best = math.Max(best, float64(dot(a, qe[0])))
	}
	return best
}
