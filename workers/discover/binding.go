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
			in, err := schemas.Decode[schemas.Intent](schemas.KindIntent, m.Data)
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
			audit := schemas.AuditRecord{
				SessionID: in.SessionID, ConversationContext: in.ContextBefore, IntentExpressed: in.Text,
				Stage: bind.StageDiscover, IntentID: in.ID, MessageID: in.MessageID,
				Decision: "candidates", Result: "discovered", DurationMS: ms(time.Since(start)),
			}
			for _, c := range cands.Candidates {
				audit.Candidates = append(audit.Candidates, c.ToolID)
			}
			if len(cands.Candidates) > 0 {
				audit.ToolID, audit.Confidence = cands.Candidates[0].ToolID, cands.Candidates[0].Confidence
			}
			return []pipeline.Out{next, bind.Audit(audit)}, nil
		},
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
