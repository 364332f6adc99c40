package main

import (
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/llmresolve"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

// llmFlags configure the LLM resolver and the medium-tier disambiguation.
// The API key is read from the environment only (OPENAI_API_KEY).
type llmFlags struct {
	cfg           llmresolve.Config
	timeout       time.Duration
	minConfidence float64
	disambiguate  bool
	jsonMode      bool
	reg           atomic.Pointer[registry.Registry]
}

func (f *llmFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.cfg.Provider, "llm", llmresolve.ProviderNone,
		"resolve activated intents with a chat model in front of the deterministic resolver: ollama, openai (any OpenAI-compatible endpoint; key from $OPENAI_API_KEY), or none")
	fl.StringVar(&f.cfg.Model, "llm-model", "",
		"chat model for --llm (default functiongemma for ollama, gpt-4o-mini for openai)")
	fl.StringVar(&f.cfg.URL, "llm-url", "",
		"chat endpoint for --llm: Ollama's root (default http://127.0.0.1:11434) or an OpenAI-compatible base URL with /v1 (default https://api.openai.com/v1)")
	fl.DurationVar(&f.timeout, "llm-timeout", llmresolve.DefaultTimeout,
		"longest the model may take for one intent (both phases and a corrective retry); past it the deterministic resolver answers")
	fl.Float64Var(&f.minConfidence, "llm-min-confidence", llmresolve.DefaultMinConfidence,
		"model confidence below which no tool is run: the agent is offered the candidates instead")
	fl.BoolVar(&f.jsonMode, "llm-json", false,
		"have the server constrain the model's answers to JSON (Ollama format json, OpenAI json_object): steadier answers from small models")
	fl.BoolVar(&f.disambiguate, "llm-disambiguate", false,
		"also let the model pick among a medium-confidence intent's alternatives, reading the conversation, instead of answering them to the agent (needs --llm)")
}

// resolver builds the LLM resolver, or nil when --llm is none.
func (f *llmFlags) resolver(log *slog.Logger) (*llmresolve.Resolver, error) {
	if !f.cfg.Enabled() {
		if f.disambiguate {
			return nil, fmt.Errorf("--llm-disambiguate needs a model: set --llm ollama or --llm openai")
		}
		return nil, nil
	}
	model, err := llmresolve.NewModel(f.cfg)
	if err != nil {
		return nil, err
	}
	r, err := llmresolve.New(model, llmresolve.WithTimeout(f.timeout),
		llmresolve.WithMinConfidence(f.minConfidence), llmresolve.WithJSONMode(f.jsonMode), llmresolve.WithLogger(log))
	if err != nil {
		return nil, err
	}
	log.Info("llm resolver configured", "provider", f.cfg.Provider, "model", f.cfg.ModelName(),
		"url", f.cfg.URL, "timeout", f.timeout, "disambiguate", f.disambiguate)
	return r, nil
}

// stageParts are the resolver and, with --llm-disambiguate, the medium
// tier's disambiguator for stages.Config; untyped nils when not configured.
// The disambiguator describes the candidates from the registry given to
// follow, once the stages run.
func (f *llmFlags) stageParts(log *slog.Logger) (resolve.Resolver, route.Disambiguator, error) {
	r, err := f.resolver(log)
	if err != nil || r == nil {
		return nil, nil, err
	}
	if !f.disambiguate {
		return r, nil, nil
	}
	return r, r.Chooser(f.lookup), nil
}

// follow makes reg the registry the prompts describe tools from.
func (f *llmFlags) follow(reg *registry.Registry) { f.reg.Store(reg) }

func (f *llmFlags) lookup(id string) (schemas.Manifest, bool) {
	reg := f.reg.Load()
	if reg == nil {
		return schemas.Manifest{}, false
	}
	return reg.Get(id)
}
