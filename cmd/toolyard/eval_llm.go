package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/training/eval"
	"github.com/toolyard/toolyard/workers/resolve"
)

// evalResolver is the resolver 'eval resolve' measures: the deterministic
// one, or with --llm the LLM resolver (falling back to it as in the
// pipeline). The eval scores the tool routing chose, so the model is shown
// the routed candidates with that tool first; a model that picks another
// one, or is unsure, counts as an error for the query.
func evalResolver(name string, lf *llmFlags, tools map[string]schemas.Manifest, log *slog.Logger) (eval.ResolveFunc, string, error) {
	if lf.disambiguate {
		return nil, "", fmt.Errorf("--llm-disambiguate does not apply to 'eval resolve'")
	}
	if !lf.cfg.Enabled() {
		if name != "deterministic" {
			return nil, "", fmt.Errorf("--resolver %q: deterministic, or llm with --llm ollama|openai", name)
		}
		return resolve.Resolve, name, nil
	}
	if name != "deterministic" && name != "llm" {
		return nil, "", fmt.Errorf("--resolver %q: deterministic, or llm with --llm ollama|openai", name)
	}
	r, err := lf.resolver(log)
	if err != nil {
		return nil, "", err
	}
	lookup := func(id string) (schemas.Manifest, bool) { m, ok := tools[id]; return m, ok }
	label := fmt.Sprintf("llm %s:%s", lf.cfg.Provider, lf.cfg.ModelName())
	return func(ctx context.Context, routed schemas.Routed, m schemas.Manifest) (schemas.ToolCall, error) {
		cands := []schemas.Candidate{{ToolID: m.ID, Name: m.Name, Confidence: 1}}
		for _, c := range routed.Candidates {
			if c.ToolID == m.ID {
				cands[0] = c
			} else {
				cands = append(cands, c)
			}
		}
		routed.Candidates = cands
		out, err := r.ResolveRouted(ctx, routed, lookup)
		switch {
		case err != nil:
			return schemas.ToolCall{}, err
		case out.Call == nil:
			return schemas.ToolCall{}, fmt.Errorf("%s: %s", out.Decision, out.Message)
		case out.Call.ToolID != m.ID:
			return schemas.ToolCall{}, fmt.Errorf("the model chose %s instead of %s", out.Call.ToolID, m.ID)
		}
		return *out.Call, nil
	}, label, nil
}
