package stages

import (
	"context"
	"fmt"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/discover"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/session"
)

// SessionConfig turns on session tool sets: the session stage seeds and
// ends them, find_tools and activate grow them.
type SessionConfig struct {
	Store *session.Store
	// Seed are the seeding options (K, confidence floor).
	Seed []session.SeedOption
	// RequireVectors makes session sets fail safe (stay empty) when
	// discovery runs keyword-only because the configured embedder was
	// unavailable at start: an operator who set up a remote embedder did
	// not ask for tool sets chosen by half the evidence.
	RequireVectors bool
}

// StrictSearch searches the set's index and fails, rather than going
// keyword-only, when the embedder fails: what session sets are built from.
func (s *Set) StrictSearch(ctx context.Context, text string, k int, scope []string) ([]schemas.Candidate, error) {
	e := s.Engine()
	if s.cfg.Sessions != nil && s.cfg.Sessions.RequireVectors && e.Mode() == discover.ModeKeyword {
		return nil, fmt.Errorf("%w: the configured embedder was unavailable at start, so discovery is keyword-only", discover.ErrEmbedderFailed)
	}
	return e.Search(discover.Strict(ctx), text, k, scope)
}

// sessionOptions are the executor options that back find_tools and activate.
func (s *Set) sessionOptions() []execute.Option {
	if s.cfg.Sessions == nil || s.cfg.Sessions.Store == nil {
		return nil
	}
	sd, _ := session.NewSeeder(s.cfg.Sessions.Store, s.StrictSearch, s.seedOptions()...)
	floor := session.DefaultSeedMinConf
	if sd != nil {
		floor = sd.MinConfidence()
	}
	return []execute.Option{execute.WithSessions(execute.Sessions{
		Store: s.cfg.Sessions.Store, Search: s.StrictSearch, MinConfidence: floor,
	})}
}

func (s *Set) seedOptions() []session.SeedOption {
	return append([]session.SeedOption{
		session.WithExclude(func(id string) bool { return s.builtin[id] }),
		session.WithSeedLogger(s.cfg.Log),
	}, s.cfg.Sessions.Seed...)
}

// Seeder is the session seeder, or an error saying sessions are off.
func (s *Set) Seeder() (*session.Seeder, error) {
	if s.cfg.Sessions == nil || s.cfg.Sessions.Store == nil {
		return nil, fmt.Errorf("session tool sets are off in this process (no session store configured)")
	}
	return session.NewSeeder(s.cfg.Sessions.Store, s.StrictSearch, s.seedOptions()...)
}

// Sessions is the session store, nil when sessions are off.
func (s *Set) Sessions() *session.Store {
	if s.cfg.Sessions == nil {
		return nil
	}
	return s.cfg.Sessions.Store
}

func (s *Set) sessionStage() (pipeline.Stage, error) {
	sd, err := s.Seeder()
	if err != nil {
		return pipeline.Stage{}, err
	}
	st := session.Stage(sd)
	// The session stage reads the same agent outputs as parse, so it keeps
	// the same secrets (direct calls' secret arguments) out of its audit
	// record, which quotes the output.
	st.Secrets = s.parser().Secrets
	return st, nil
}

// Executor is the set's executor.
func (s *Set) Executor() *execute.Executor { return s.executor }

// Resolver is the configured resolver, nil for the deterministic rules.
func (s *Set) Resolver() resolve.Resolver { return s.cfg.Resolver }

// Thresholds are the routing thresholds in force.
func (s *Set) Thresholds() route.Thresholds { return s.thresholds.Load() }

// Catalog is what routing knows of the registry (unmatched words, servers).
func (s *Set) Catalog() route.Catalog { return s.catalog }

// routeOptions configure the routing stages.
func (s *Set) routeOptions() []route.Option {
	opts := []route.Option{route.WithCatalog(s.catalog)}
	if s.cfg.Disambiguator != nil {
		opts = append(opts, route.WithDisambiguator(s.cfg.Disambiguator, s.cfg.ChooseTimeout))
	}
	return opts
}

// RouteOptions are the routing options of this set: its catalog and, when
// configured, its disambiguator.
func (s *Set) RouteOptions() []route.Option { return s.routeOptions() }
