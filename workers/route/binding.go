package route

import (
	"context"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Stage binds the tier decision to candidates: pipe.route.<session> in; an
// activated intent goes on to resolution, any other tier is answered to the
// agent with its matches.
func Stage(th *Live) pipeline.Stage {
	return pipeline.Stage{
		Name:     bind.StageRoute,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageRoute)},
		Reject:   bind.Rejecter(bind.StageRoute),
		Handler: func(_ context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			c, err := schemas.Decode[schemas.Candidates](schemas.KindCandidates, m.Data)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			in := c.Intent
			d := Decide(c, th.Load())
			audit := bind.WithCandidates(bind.IntentAudit(bind.StageRoute, in), d.Matches)
			audit.Decision, audit.Result = d.Tier, d.Tier
			if d.Tier == schemas.TierActivated {
				next, err := bind.Next(bind.StageResolve, in.SessionID, in.ID, schemas.Routed{V: schemas.Version, Intent: in, Tier: d.Tier, Candidates: d.Matches})
				if err != nil {
					return nil, err
				}
				return []pipeline.Out{next, bind.Audit(audit)}, nil
			}
			res := schemas.Result{
				SessionID: in.SessionID, MessageID: in.MessageID, IntentID: in.ID, Intent: in.Text,
				Status: d.Tier, Stage: bind.StageRoute, Matches: d.Matches, Message: d.Message,
			}
			return []pipeline.Out{bind.Result(res), bind.Audit(audit)}, nil
		},
	}
}
