package session

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/parse"
)

// Defaults of the seeding options: the best 8 tools whose confidence is at
// least 0.3 (the weak-match floor of routing).
const (
	DefaultSeedK       = 8
	DefaultSeedMinConf = 0.3
	maxSeedK           = 64
)

// SearchFunc finds up to k tools for a plain-language text within scope
// (tool ids or server names; empty admits all), most confident first. It
// must fail rather than degrade: a search that could not use all its
// evidence (an embedder down) returns an error.
type SearchFunc func(ctx context.Context, text string, k int, scope []string) ([]schemas.Candidate, error)

// Seeder seeds sessions' sets from their first output.
type Seeder struct {
	store   *Store
	search  SearchFunc
	k       int
	minConf float64
	exclude func(id string) bool
	log     *slog.Logger
}

// SeedOption configures a Seeder.
type SeedOption func(*Seeder)

// WithSeedK sets how many tools a seed holds at most (DefaultSeedK).
func WithSeedK(k int) SeedOption { return func(s *Seeder) { s.k = k } }

// WithSeedMinConfidence sets the confidence a tool needs to be seeded
// (DefaultSeedMinConf).
func WithSeedMinConfidence(c float64) SeedOption { return func(s *Seeder) { s.minConf = c } }

// WithExclude leaves out tools that are always available anyway (the
// meta-tools).
func WithExclude(f func(id string) bool) SeedOption { return func(s *Seeder) { s.exclude = f } }

// WithSeedLogger sets the logger (slog.Default()).
func WithSeedLogger(l *slog.Logger) SeedOption { return func(s *Seeder) { s.log = l } }

// NewSeeder seeds sets in store with search.
func NewSeeder(store *Store, search SearchFunc, opts ...SeedOption) (*Seeder, error) {
	s := &Seeder{store: store, search: search, k: DefaultSeedK, minConf: DefaultSeedMinConf, log: slog.Default()}
	for _, o := range opts {
		o(s)
	}
	if s.k < 1 || s.k > maxSeedK {
		return nil, fmt.Errorf("seed K must be 1–%d, got %d", maxSeedK, s.k)
	}
	if !(s.minConf >= 0 && s.minConf <= 1) {
		return nil, fmt.Errorf("seed confidence floor must be in [0,1], got %v", s.minConf)
	}
	if store == nil || search == nil {
		return nil, fmt.Errorf("seeder needs a store and a search")
	}
	return s, nil
}

// Store is the seeder's store.
func (s *Seeder) Store() *Store { return s.store }

// MinConfidence is the confidence floor of seeded tools.
func (s *Seeder) MinConfidence() float64 { return s.minConf }

// Seed seeds the output's session from the output's text if the session is
// not seeded yet, else renews its TTL. When the search fails the set is
// seeded empty with the reason (fail-safe); only a done ctx is returned as
// an error, and store failures.
func (s *Seeder) Seed(ctx context.Context, out schemas.AgentOutput) (set schemas.ToolSet, seeded bool, err error) {
	current, err := s.store.Get(ctx, out.SessionID)
	if err != nil {
		return schemas.ToolSet{}, false, err
	}
	if current.Seeded {
		if err := s.store.Touch(ctx, out.SessionID); err != nil {
			s.log.Warn("session TTL not renewed", "session", out.SessionID, "error", err)
		}
		return current, false, nil
	}
	tools, degraded, err := s.pick(ctx, queries(out), out.Scope)
	if err != nil {
		return schemas.ToolSet{}, false, err
	}
	if degraded != "" {
		s.log.Warn("session seeded empty: discovery failed", "session", out.SessionID, "reason", degraded)
	}
	return s.store.Seed(ctx, out.SessionID, out.MessageID, tools, degraded)
}

// pick searches each query and keeps the best K tools at or above the
// floor, in scope, each at the highest confidence any query gave it. A
// failed search yields no tools at all and the reason: a seed made of the
// queries that happened to work would be as arbitrary as a degraded one.
func (s *Seeder) pick(ctx context.Context, qs []string, scope []string) ([]schemas.ActiveTool, string, error) {
	best := map[string]schemas.Candidate{}
	for _, q := range qs {
		cands, err := s.search(ctx, q, s.k, scope)
		if err != nil {
			if ctx.Err() != nil {
				return nil, "", ctx.Err()
			}
			return nil, err.Error(), nil
		}
		for _, c := range cands {
			if old, ok := best[c.ToolID]; !ok || c.Confidence > old.Confidence {
				best[c.ToolID] = c
			}
		}
	}
	merged := make([]schemas.Candidate, 0, len(best))
	for _, c := range best {
		merged = append(merged, c)
	}
	slices.SortFunc(merged, func(a, b schemas.Candidate) int {
		if c := cmp.Compare(b.Confidence, a.Confidence); c != 0 {
			return c
		}
		return strings.Compare(a.ToolID, b.ToolID)
	})
	return Admit(merged, s.k, s.minConf, scope, s.exclude, schemas.SourceSeed), "", nil
}

// maxSeedQueries bounds the searches one output costs.
const maxSeedQueries = 16

// queries are what an output is searched by: the text of each of its
// [TOOL: …] intents, which say what the agent wants far more precisely
// than the prose around them; an output without intents is searched by
// its whole text.
func queries(out schemas.AgentOutput) []string {
	probe := out
	if probe.MessageID == "" {
		probe.MessageID = "seed"
	}
	parsed, err := parse.New().Parse(probe)
	if err != nil || len(parsed.Intents) == 0 {
		return []string{out.Text}
	}
	qs := make([]string, 0, len(parsed.Intents))
	for _, in := range parsed.Intents {
		if len(qs) == maxSeedQueries {
			break
		}
		qs = append(qs, in.Text)
	}
	return qs
}

// Admit turns candidates into active tools: at most k, each at or above
// minConf and inside scope (ids or servers; empty admits all), none that
// exclude names and none that says it does another kind of thing than the
// request asks (a near miss: schemas.Candidate.Mismatch). Discovery
// already applies the scope; checking again here keeps a set inside its
// scope whatever search was used.
func Admit(cands []schemas.Candidate, k int, minConf float64, scope []string, exclude func(string) bool, source string) []schemas.ActiveTool {
	var out []schemas.ActiveTool
	for _, c := range cands {
		if len(out) == k {
			break
		}
		if !(c.Confidence >= minConf) || !InScope(c.ToolID, c.Server, scope) || (exclude != nil && exclude(c.ToolID)) || c.Mismatch != nil {
			continue
		}
		out = append(out, ActiveFrom(c, source))
	}
	return out
}

// ActiveFrom is a candidate as an active tool.
func ActiveFrom(c schemas.Candidate, source string) schemas.ActiveTool {
	return schemas.ActiveTool{ID: c.ToolID, Name: c.Name, Description: c.Description, Keywords: slices.Clone(c.Keywords),
		Server: c.Server, Confidence: c.Confidence, Source: source}
}

// InScope reports whether a tool is admitted by scope (its id or its
// server listed); an empty scope admits every tool.
func InScope(id, server string, scope []string) bool {
	return len(scope) == 0 || slices.Contains(scope, id) || (server != "" && slices.Contains(scope, server))
}
