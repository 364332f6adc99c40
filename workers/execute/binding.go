package execute

import (
	"errors"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// Stage binds the executor to calls: pipe.execute.<session> in, the result
// to the agent's session out. A transient failure is retried within the
// executor's budget, then by redelivery; a tool's own failure is answered,
// not retried. With WithExecutions (or WithEffects) a call takes effect once
// however often it is delivered; with WithOutputs large outputs go to the
// object store.
func Stage(e *Executor, opts ...StageOption) pipeline.Stage {
	s := newStage(e, opts)
	st := pipeline.Stage{
		Name:     bind.StageExecute,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageExecute)},
		Reject:   bind.Rejecter(bind.StageExecute),
		// A call over the session's limit is answered too_many_executions:
		// the agent tries again; a flood of them must not hold the stage
		// once the DLQ's share is full.
		Expendable: overLimit,
		Handler:    s.handle,
		Secrets:    s.stageSecrets,
	}
	if s.cfg.open != nil {
		st.Setup = s.setup
	}
	return st
}

// withError turns r into the error result of code: what r already says of
// the call (its tool, the arguments it was tried with, redacted; the values
// no argument took, the hint, the output of a failed run) stays, since the
// agent fixes the call from them.
func withError(r schemas.Result, code string, err error) schemas.Result {
	e := bind.ErrorResult(r.Stage, r.SessionID, r.MessageID, r.IntentID, r.Intent, code, err)
	r.Status, r.Message, r.Error = e.Status, e.Message, e.Error
	return r
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
