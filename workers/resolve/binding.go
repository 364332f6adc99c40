package resolve

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/registry"
)

// Stage binds resolution to activated intents: pipe.resolve.<session> in, a
// validated call to execution out, or an error result that says which
// arguments are missing or wrong. WithResolver puts another resolver (an
// LLM) in front of the deterministic rules; it may also answer with
// alternatives for the agent to choose from.
func Stage(reg *registry.Registry, opts ...StageOption) pipeline.Stage {
	var cfg stageConfig
	for _, o := range opts {
		o(&cfg)
	}
	return pipeline.Stage{
		Name:     bind.StageResolve,
		Stream:   pipeline.StreamPipe,
		Subjects: []string{bind.PipeFilter(bind.StageResolve)},
		Reject:   bind.Rejecter(bind.StageResolve),
		// It runs no tool: a stage of the same process may hand it work directly.
		Chainable: true,
		Handler: func(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
			r, err := bind.Input[schemas.Routed](schemas.KindRouted, m)
			if err != nil {
				return nil, pipeline.Permanent(err)
			}
			in := r.Intent
			audit := bind.IntentAudit(bind.StageResolve, in)
			audit.ToolID, audit.Confidence = r.Candidates[0].ToolID, r.Candidates[0].Confidence
			fail := func(code string, err error) []pipeline.Out {
				audit.Decision, audit.Result, audit.Error = "unresolved", "error", err.Error()
				res := bind.ErrorResult(bind.StageResolve, in.SessionID, in.MessageID, in.ID, in.Text, code, err)
				res.ToolID, res.Hint, res.Outer = audit.ToolID, in.Hint, in.Outer
				return append(bind.Result(res), bind.Audit(audit))
			}
			tool, ok := reg.Get(audit.ToolID)
			if !ok {
				observe(OutcomeUnknownTool, 0, 0, 0)
				return fail(bind.CodeUnknownTool, fmt.Errorf("tool %q is no longer in the registry; search again", audit.ToolID)), nil
			}
			out, err := cfg.resolve(ctx, r, tool, reg.Get)
			// What the intent said of a secret argument is known from here
			// on; the runner scrubs it from everything but the call.
			sc := pipeline.ScrubberFrom(ctx)
			sc.Add(bind.SecretValues(errArgs(err), auditSchemas(reg, tool, tool.ID)...)...)
			var missing *MissingError
			var invalid *InvalidError
			switch {
			case errors.As(err, &missing):
				observe(OutcomeMissing, len(missing.Found), len(missing.Missing), 0)
				return fail(bind.CodeInvalidArgs, err), nil
			case errors.As(err, &invalid):
				observe(OutcomeInvalid, 0, 0, 0)
				return fail(bind.CodeInvalidArgs, err), nil
			case err != nil:
				return nil, err
			}
			if out.Call == nil {
				observe(OutcomeAlternatives, 0, 0, 0)
				audit = bind.WithCandidates(audit, out.Matches)
				audit.Decision, audit.Result, audit.Error = out.Decision, schemas.StatusMultiple, out.Note
				res := schemas.Result{
					SessionID: in.SessionID, MessageID: in.MessageID, IntentID: in.ID, Intent: in.Text,
					Status: schemas.StatusMultiple, Stage: bind.StageResolve, Matches: out.Matches, Message: out.Message,
					Hint: in.Hint, Outer: in.Outer,
				}
				return append(bind.Result(res), bind.Audit(audit)), nil
			}
			call := *out.Call
			call.Hint, call.Outer = in.Hint, in.Outer
			audit.ToolID, audit.Confidence = call.ToolID, call.Confidence
			audit.Decision, audit.Result, audit.Parameters, audit.Error = out.Decision, "resolved", call.Parameters, out.Note
			sc.Add(bind.SecretValues(call.Parameters, auditSchemas(reg, tool, call.ToolID)...)...)
			if len(Unplaced(call)) > 0 {
				observe(OutcomeUnplaced, len(call.Parameters), 0, len(call.Unmapped))
				// A value the intent states would go unused although the
				// tool takes it: the agent says how it is meant instead.
				called, _ := reg.Get(call.ToolID)
				res := UnmappedResult(bind.StageResolve, call, called, bind.ResultArguments(call.Parameters, auditSchemas(reg, tool, call.ToolID)...))
				audit.Decision, audit.Result, audit.Error = DecisionUnmapped, schemas.StatusMissingArguments, res.Message
				audit = bind.RedactAudit(audit, auditSchemas(reg, tool, call.ToolID)...)
				return append(bind.Result(res), bind.Audit(audit)), nil
			}
			audit = bind.RedactAudit(audit, auditSchemas(reg, tool, call.ToolID)...)
			next := bind.Next(bind.StageExecute, in.SessionID, in.ID, call)
			observe(OutcomeResolved, len(call.Parameters), 0, len(call.Unmapped))
			return []pipeline.Out{next, bind.Audit(audit)}, nil
		},
	}
}
