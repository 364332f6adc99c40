package discover

import (
	"fmt"
	"strings"
)

// UsageClassifier is a linear model of which tool a request is for, over
// the request's analysed terms and pairs of adjacent terms: P(tool |
// request) by softmax over the tools with history. training/learn fits it
// (naive Bayes) on the labelled history; kNN and BM25 over learned intents
// see each past intent alone, while the classifier pools every intent of a
// tool and weighs each word by how much likelier it is for that tool.
type UsageClassifier struct {
	Tools []string  `json:"tools"`
	Bias  []float64 `json:"bias"`
	// PerTerm is added to a tool's score for each term of the request
	// (optional): a naive Bayes model's log probability of an unseen term.
	PerTerm []float64               `json:"per_term,omitempty"`
	Terms   map[string][]TermWeight `json:"terms"`
}

// TermWeight is one term's weight for one tool (by index into Tools).
type TermWeight struct {
	Tool int     `json:"t"`
	W    float64 `json:"w"`
}

// ClassifierTerms are the features UsageClassifier reads from a request:
// its distinct analysed terms and adjacent pairs ("a b"), as the engine
// analyses tool text. Training and search must both use this.
func (e *Engine) ClassifierTerms(text string) []string {
	toks := e.text.Analyze([]byte(clipUTF8(text, maxQueryBytes)))
	seen := make(map[string]bool, 2*len(toks))
	out := make([]string, 0, 2*len(toks))
	prev := ""
	for _, tok := range toks {
		t := string(tok.Term)
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
		if prev != "" {
			if p := prev + " " + t; !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		prev = t
	}
	return out
}

// probabilities is P(tool | terms) for every tool of the classifier.
func (c *UsageClassifier) probabilities(terms []string) map[string]float64 {
	if c == nil || len(c.Tools) == 0 {
		return nil
	}
	z := make([]float64, len(c.Tools))
	copy(z, c.Bias)
	for i, p := range c.PerTerm {
		z[i] += p * float64(len(terms))
	}
	for _, t := range terms {
		for _, tw := range c.Terms[t] {
			if tw.Tool >= 0 && tw.Tool < len(z) {
				z[tw.Tool] += tw.W
			}
		}
	}
	SoftmaxInPlace(z)
	out := make(map[string]float64, len(z))
	for i, v := range z {
		out[c.Tools[i]] = v
	}
	return out
}

func (c *UsageClassifier) check() error {
	if c == nil {
		return nil
	}
	if len(c.Bias) != len(c.Tools) || c.PerTerm != nil && len(c.PerTerm) != len(c.Tools) {
		return fmt.Errorf("classifier: %d tools but %d biases and %d per-term weights", len(c.Tools), len(c.Bias), len(c.PerTerm))
	}
	for t, ws := range c.Terms {
		for _, tw := range ws {
			if tw.Tool < 0 || tw.Tool >= len(c.Tools) || !finite(tw.W) {
				return fmt.Errorf("classifier: term %q has a bad weight %+v", strings.TrimSpace(t), tw)
			}
		}
	}
	return nil
}
