package discover

import (
	"context"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Stage binds the engine to intents: pipe.discover.<session> in, ranked
// candidates to routing out.
func Stage(e *Engine) pipeline.Stage {
	return pipeline.Stage{
		Name:     bind.StageDiscover,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageDiscover)},
		Reject:   bind.Rejecter(bind.StageDiscover),
		Handler: func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			in, err := schemas.DecodeInternal[schemas.Intent](schemas.KindIntent, m.Data)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			start := time.Now()
			cands, err := e.Discover(ctx, in)
			if err != nil {
				return nil, err
			}
			next, err := bind.Next(bind.StageRoute, in.SessionID, in.ID, cands)
			if err != nil {
				return nil, err
			}
			audit := bind.WithCandidates(bind.IntentAudit(bind.StageDiscover, in), cands.Candidates)
			audit.Decision, audit.Result, audit.DurationMS = "candidates", "discovered", bind.Millis(time.Since(start))
			return []pipeline.Out{next, bind.Audit(audit)}, nil
		},
	}
}
