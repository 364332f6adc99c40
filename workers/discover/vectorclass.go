package discover

import (
	"fmt"
)

// VectorClassifier gives usage_vector_class: P(tool | request) by a
// softmax regression over the request's unit vector as the usage side
// embeds it (usageside.go). training/learn fits it on the learned intents'
// vectors. The nearest-intent vote sees the ten closest past intents; the
// regression weighs every intent of every tool and learns which directions
// of the embedding tell one tool from its neighbours (on the MetaTool learn
// history's latest tenth, alone: hit@1 0.742 / recall@5 0.917 against the
// vote's 0.677 / 0.868 with the sentence encoder; training/README.md).
type VectorClassifier struct {
	Tools []string `json:"tools"`
	// Dim is the dimension of the vectors it reads: the usage side's.
	Dim int `json:"dim"`
	// W holds, per tool, Dim weights and then a bias.
	W [][]float32 `json:"w"`
}

// check reports a classifier whose shape does not hold together.
func (c *VectorClassifier) check() error {
	if c == nil {
		return nil
	}
	if c.Dim <= 0 || len(c.W) != len(c.Tools) {
		return fmt.Errorf("vector classifier: %d tools, %d weight rows, dimension %d", len(c.Tools), len(c.W), c.Dim)
	}
	for i, w := range c.W {
		if len(w) != c.Dim+1 {
			return fmt.Errorf("vector classifier: tool %q has %d weights, want %d", c.Tools[i], len(w), c.Dim+1)
		}
		for _, v := range w {
			if !finite(float64(v)) {
				return fmt.Errorf("vector classifier: tool %q has a weight that is not a finite number", c.Tools[i])
			}
		}
	}
	return nil
}

// probabilities is P(tool | request) for every tool of the classifier,
// given the request's unit vector uq; nil without a classifier or when uq
// is not of its dimension.
func (c *VectorClassifier) probabilities(uq []float32) []float64 {
	if c == nil || len(uq) != c.Dim {
		return nil
	}
	return Softmax(c.W, uq, nil)
}

// Softmax is the softmax over the rows of w (Dim weights then a bias each)
// of their scores for x, into out when it has room.
func Softmax(w [][]float32, x []float32, out []float64) []float64 {
	if cap(out) < len(w) {
		out = make([]float64, len(w))
	}
	out = out[:len(w)]
	for k, row := range w {
		out[k] = float64(row[len(x)]) + float64(dot(row[:len(x)], x))
	}
	SoftmaxInPlace(out)
	return out
}
