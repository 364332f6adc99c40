package execute

import (
	"context"
	"errors"
	"time"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Stage binds the executor to calls: pipe.execute.<session> in, the result
// to the agent's session out. A transient failure is retried by redelivery; a
// tool's own failure is answered, not retried.
func Stage(e *Executor) pipeline.Stage {
	return pipeline.Stage{
		Name:     bind.StageExecute,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageExecute)},
		Reject:   bind.Rejecter(bind.StageExecute),
		Handler: func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			call, err := schemas.Decode[schemas.ToolCall](schemas.KindToolCall, m.Data)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			start := time.Now()
			out, err := e.Execute(ctx, call)
			if err != nil && IsTransient(err) {
				return nil, err
			}
			audit := schemas.AuditRecord{
				SessionID: call.SessionID, IntentExpressed: call.Intent, ToolID: call.ToolID, Parameters: call.Parameters,
				Stage: bind.StageExecute, IntentID: call.IntentID, MessageID: call.MessageID,
				Confidence: call.Confidence, DurationMS: bind.Millis(time.Since(start)),
			}
			res := schemas.Result{
				SessionID: call.SessionID, MessageID: call.MessageID, IntentID: call.IntentID, Intent: call.Intent,
				ToolID: call.ToolID, Stage: bind.StageExecute,
			}
			if err != nil {
				var te *ToolError
				if errors.As(err, &te) {
					o := te.Output
					res.Output = &o
				}
				res = withError(res, errorCode(err), err)
				audit.Decision, audit.Result, audit.Error = "failed", "error", err.Error()
			} else {
				res.Status, res.Output = schemas.StatusExecuted, &out
				audit.Decision, audit.Result = "executed", "success"
			}
			return []pipeline.Out{bind.Result(res), bind.Audit(audit)}, nil
		},
	}
}

func withError(r schemas.Result, code string, err error) schemas.Result {
	e := bind.ErrorResult(r.Stage, r.SessionID, r.MessageID, r.IntentID, r.Intent, code, err)
	e.ToolID, e.Output = r.ToolID, r.Output
	return e
}

// errorCode names the failure for the agent.
func errorCode(err error) string {
	if code := guardCode(err); code != "" {
		return code
	}
	var te *ToolError
	switch {
	case errors.As(err, &te):
		return bind.CodeToolFailed
	case errors.Is(err, ErrUnknownTool):
		return bind.CodeUnknownTool
	case errors.Is(err, ErrInvalidParameters):
		return bind.CodeInvalidArgs
	case errors.Is(err, ErrNoExecutor), errors.Is(err, ErrUnsupported):
		return bind.CodeNotRunnable
	}
	return bind.CodeInvalidInput
}
