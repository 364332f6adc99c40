package execute

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/effects"
	"github.com/toolyard/toolyard/workers/internal/sessionlimit"
	"github.com/toolyard/toolyard/workers/resolve"
)

// CodeUnavailable: the tool kept failing temporarily for the whole retry
// budget; the agent may try again later.
const CodeUnavailable = "tool_unavailable"

// stage is the execute stage's binding.
type stage struct {
	e   *Executor
	cfg stageConfig
}

func newStage(e *Executor, opts []StageOption) *stage {
	cfg := stageConfig{log: slog.Default(), slots: sessionlimit.NewSlots(DefaultSessionExecutions)}
	for _, o := range opts {
		o(&cfg)
	}
	return &stage{e: e, cfg: cfg}
}

// setup opens what WithEffects asked for, before the stage consumes.
func (s *stage) setup(ctx context.Context, js jetstream.JetStream) error {
	o := s.cfg.open
	opts := append([]effects.Option{effects.WithLogger(s.cfg.log)}, o.opts...)
	x, err := effects.OpenExecutions(ctx, js, opts...)
	if err != nil {
		return err
	}
	out, err := effects.OpenOutputs(ctx, js, effects.KeepOutputs(o.keep), effects.OutputsWith(opts...))
	if err != nil {
		return err
	}
	s.cfg.executions, s.cfg.outputs = x, out
	return nil
}

func (s *stage) handle(ctx context.Context, m *pipeline.Msg) ([]pipeline.Out, error) {
	call, err := bind.Input[schemas.ToolCall](schemas.KindToolCall, m)
	if err != nil {
		return nil, pipeline.Permanent(err)
	}
	release, ok := s.cfg.slots.Acquire(call.SessionID)
	if !ok {
		return nil, pipeline.Permanent(errTooManyExecutions(call.SessionID, s.cfg.slots.Limit()))
	}
	defer release()
	if s.cfg.executions == nil {
		return s.answer(ctx, call)
	}
	return s.once(ctx, call)
}

// answer runs the call and builds what it publishes: the result for the
// agent and the audit record. A transient failure is returned as an error
// (the message is redelivered); any other failure is answered.
func (s *stage) answer(ctx context.Context, call schemas.ToolCall) ([]pipeline.Out, error) {
	start := time.Now()
	var out schemas.ToolOutput
	var args map[string]any
	err := s.checkRedacted(ctx, call)
	if err == nil {
		out, args, err = s.e.ExecuteForResult(ctx, call)
	} else {
		args = s.e.ResultArguments(ctx, call)
	}
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
		ToolID: call.ToolID, Stage: bind.StageExecute, Unmapped: call.Unmapped,
		Arguments: args, Hint: call.Hint, Outer: call.Outer,
	}
	if err != nil {
		var te *ToolError
		if errors.As(err, &te) {
			o := te.Output
			res.Output = &o
		}
		code := errorCode(err)
		var exhausted *RetriesExhaustedError
		if errors.As(err, &exhausted) && te == nil {
			code = CodeUnavailable
		}
		res = withError(res, code, err)
		audit.Decision, audit.Result, audit.Error = "failed", "error", err.Error()
		s.e.observeCall(call.ToolID, code)
	} else {
		res.Status, res.Output = schemas.StatusExecuted, &out
		res.Message = UnmappedNote(call, args)
		audit.Decision, audit.Result = "executed", "success"
		s.e.observeCall(call.ToolID, "")
	}
	// The output leaves the executor here: what the tool printed of its
	// secrets goes no further, not even to the object store.
	sc := pipeline.ScrubberFrom(ctx)
	if res.Output != nil {
		scrubOutput(sc, res.Output)
		s.spill(ctx, call, res.Output)
	}
	audit = bind.RedactAudit(audit, s.e.toolSchemas(ctx, call.ToolID)...)
	// Scrubbed before once() keeps them in the execution record.
	return sc.Outs(append(bind.Result(res), bind.Audit(audit))), nil
}

// ResultArguments are the arguments of call as its result shows them: as
// the tool ran with them (types converted, defaults filled in) when they
// are valid, as given when not, the secret ones (in the tool's schema or
// those it delegates to) redacted.
func (e *Executor) ResultArguments(ctx context.Context, call schemas.ToolCall) map[string]any {
	return e.shownArguments(ctx, call, nil)
}

// shownArguments is ResultArguments given ran, the arguments as a run
// already prepared them with the schema of the tool the call names (see
// shownBy); with nil they are prepared here.
func (e *Executor) shownArguments(ctx context.Context, call schemas.ToolCall, ran map[string]any) map[string]any {
	params := ran
	if params == nil {
		params = call.Parameters
		if m, ok := e.manifest(call.ToolID); ok {
			if p, _, err := e.prepare(m, params); err == nil {
				params = p
			}
		}
	}
	return bind.ResultArguments(params, e.toolSchemas(ctx, call.ToolID)...)
}

// shownBy reports whether arguments prepared with m are what
// ResultArguments would prepare for a call naming id: m is the manifest id
// names (a registry tool may stand in for a meta-tool's builtin).
func (e *Executor) shownBy(m schemas.Manifest, id string) bool {
	named, ok := e.manifest(id)
	return ok && named.ID == m.ID && bytes.Equal(named.Parameters, m.Parameters)
}

// UnmappedNote tells the agent which stated values the call did not use,
// with shown, the arguments as its result shows them; empty when there
// are none: values the tool has no parameter for, another tool's name (a
// second request) and a second value for a parameter that takes one.
func UnmappedNote(call schemas.ToolCall, shown map[string]any) string {
	var words, tools, again []string
	var held string // the parameter of the first value asked for again
	for _, u := range call.Unmapped {
		switch {
		case u.Tool == call.ToolID && u.Parameter != "":
			if held == "" {
				held = u.Parameter
			}
			again = append(again, fmt.Sprintf("%q would go to %s too, which takes one value: ask for it in an intent of its own, %s.",
				u.Text, u.Parameter, resolve.AgainExample(call.ToolID, shown, u.Parameter, u.Text)))
		case u.Tool != "":
			tools = append(tools, fmt.Sprintf("%q names another tool, %s: ask for it in an intent of its own ([TOOL: %s]).", u.Text, u.Tool, u.Text))
		default:
			words = append(words, strconv.Quote(u.Text))
		}
	}
	var notes []string
	if len(words) > 0 {
		notes = append(notes, fmt.Sprintf("Ran %s without %s: it has no parameter for %s. If they matter, find a tool that takes them.",
			call.ToolID, strings.Join(words, ", "), pronoun(len(words))))
	}
	if len(tools)+len(again) > 0 {
		ran := call.ToolID
		if len(again) == 1 && len(tools) == 0 {
			if v, ok := shown[held]; ok && v != pipeline.Redacted {
				ran = fmt.Sprintf("%s with %s=%v", call.ToolID, held, v)
			}
		}
		notes = append(notes, fmt.Sprintf("Ran %s only.", ran))
		notes = append(notes, again...)
		notes = append(notes, tools...)
	}
	return strings.Join(notes, " ")
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// toolSchemas are the parameter schemas of the tool a call names and of
// the tools it delegates to: a parameter secret in any of them is secret.
func (e *Executor) toolSchemas(ctx context.Context, id string) []json.RawMessage {
	if id == "" {
		return nil
	}
	chain, err := e.chain(ctx, id)
	if err != nil {
		if m, ok := e.manifest(id); ok {
			return []json.RawMessage{m.Parameters}
		}
		return nil
	}
	out := make([]json.RawMessage, 0, len(chain))
	for _, m := range chain {
		out = append(out, m.Parameters)
	}
	return out
}
