package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/execute"
	"github.com/toolyard/toolyard/workers/parse"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
	"github.com/toolyard/toolyard/workers/session"
)

// StageService is the stage name results of the service carry.
const StageService = "service"

// ResolveRequest asks for one intent in plain words to be resolved (and,
// when activated, executed) for a session.
type ResolveRequest struct {
	SessionID    string            `json:"session_id"`
	MessageID    string            `json:"message_id,omitempty"`
	Text         string            `json:"text"`
	Conversation []schemas.Message `json:"conversation,omitempty"`
	Scope        []string          `json:"scope,omitempty"`
	// TimeZone is the person's IANA time zone (schemas.AgentOutput.TimeZone).
	TimeZone string `json:"timezone,omitempty"`
}

// FindRequest asks find_tools for a session.
type FindRequest struct {
	SessionID string   `json:"session_id"`
	Query     string   `json:"query"`
	K         int      `json:"k,omitempty"`
	Scope     []string `json:"scope,omitempty"`
}

// ActivateRequest asks to activate a tool for a session.
type ActivateRequest struct {
	SessionID string   `json:"session_id"`
	ID        string   `json:"id"`
	Scope     []string `json:"scope,omitempty"`
}

// SessionRequest names a session.
type SessionRequest struct {
	SessionID string `json:"session_id"`
}

// EndReply says a session's set was cleared.
type EndReply struct {
	SessionID string `json:"session_id"`
	Ended     bool   `json:"ended"`
	Cleared   int    `json:"cleared"`
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

func checkSession(id string) error {
	if err := session.CheckID(id); err != nil {
		return badRequest("session_id: %v", err)
	}
	return nil
}

func (s *Service) resolveIntent(ctx context.Context, data []byte) (any, error) {
	var req ResolveRequest
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	if err := checkSession(req.SessionID); err != nil {
		return nil, err
	}
	req.Text = strings.TrimSpace(req.Text)
	if req.Text == "" {
		return nil, badRequest("text is empty: say what the tool should do, e.g. {\"session_id\": \"s1\", \"text\": \"show disk usage of /tmp\"}")
	}
	if req.MessageID == "" {
		req.MessageID = "svc-" + nuid.Next()
	}
	if req.TimeZone != "" {
		if _, err := schemas.TimeZone(req.TimeZone); err != nil {
			return nil, badRequest("timezone: %v", err)
		}
	}
	text, err := oneIntent(req.SessionID, req.MessageID, req.Text)
	if err != nil {
		return nil, err
	}
	req.Text = text
	// The request's boundary: the secrets the resolution reads and the
	// executor uses stay out of the reply, the audit record and the log.
	sc := pipeline.NewScrubber()
	defer pipeline.HoldSecrets(sc)()
	ctx = pipeline.WithScrubber(ctx, sc)
	in := schemas.Intent{V: schemas.Version, ID: req.MessageID + ".0", SessionID: req.SessionID, MessageID: req.MessageID,
		Text: req.Text, End: len(req.Text), Conversation: req.Conversation, Scope: req.Scope, TimeZone: req.TimeZone}
	if err := schemas.ValidateValue(schemas.KindIntent, in); err != nil {
		return nil, badRequest("%v", err)
	}
	if sd, err := s.set.Seeder(); err == nil {
		// The first request of a session seeds its set, as a first output does.
		if _, _, err := sd.Seed(ctx, schemas.AgentOutput{SessionID: req.SessionID, MessageID: req.MessageID, Text: req.Text, Scope: req.Scope}); err != nil {
			s.log.Warn("session not seeded", "session", req.SessionID, "error", err)
		}
	}
	cands, err := s.set.Engine().Discover(ctx, in)
	if err != nil {
		return nil, &requestError{code: codeUnavail, err: fmt.Errorf("discovery failed: %w", err)}
	}
	r := route.Routed(in, route.Route(cands, s.set.Thresholds(), s.set.Catalog()))
	if r.Tier == schemas.TierMultiple {
		if picked, ok, _ := route.Disambiguate(ctx, r, s.set.RouteOptions()...); ok {
			r = picked
		}
	}
	var res schemas.Result
	var params map[string]any
	if r.Tier != schemas.TierActivated {
		res = stamp(route.Answer(r, StageService))
	} else {
		res, params = s.resolveAndRun(ctx, r)
	}
	res.Hint = s.set.Hint(in.Text)
	s.audit(sc, r, res, params)
	return scrubResult(sc, res), nil
}

// scrubResult is res without the request's secrets.
func scrubResult(sc *pipeline.Scrubber, res schemas.Result) schemas.Result {
	if sc.Empty() {
		return res
	}
	data, err := json.Marshal(res)
	if err != nil {
		return res
	}
	data, changed := sc.Bytes(data)
	var out schemas.Result
	if !changed || json.Unmarshal(data, &out) != nil {
		return res
	}
	return out
}

// oneIntent is the words of the one intent text holds: text itself, or
// the words of its one [TOOL: …] marker. Text with more than one marker,
// or a <tool_call>, is refused: this endpoint answers one intent, and the
// rest would be dropped without a word (they were searched as part of the
// first one's words, and only that one ran).
func oneIntent(session, messageID, text string) (string, error) {
	if !strings.Contains(text, "[") && !strings.Contains(text, "<") {
		return text, nil
	}
	pd, err := intentParser.Parse(schemas.AgentOutput{SessionID: session, MessageID: messageID, Text: text})
	if err != nil {
		return "", badRequest("%v", err)
	}
	n := len(pd.Intents) + len(pd.Calls) + len(pd.Problems)
	switch {
	case n > 1 || len(pd.Calls) > 0 || len(pd.Problems) > 0:
		return "", badRequest("text holds %d [TOOL: …] markers or <tool_call>s (%d intent(s), %d direct call(s), %d that cannot be used); resolve_intent answers one intent in plain words: send them one at a time, or publish the whole output to %s, which answers each",
			n, len(pd.Intents), len(pd.Calls), len(pd.Problems), schemas.AgentOutputSubject(session))
	case len(pd.Intents) == 1:
		return pd.Intents[0].Text, nil
	}
	return text, nil
}

// intentParser finds the markers of a resolve_intent request's text, with
// the parse stage's rules and limits.
var intentParser = parse.New()

// audit records the request's decision on audit.service.<session>, as the
// stages record theirs, so the training job sees service traffic too. A
// record that cannot be published is logged, not fatal to the answer.
func (s *Service) audit(sc *pipeline.Scrubber, r schemas.Routed, res schemas.Result, params map[string]any) {
	a := bind.WithCandidates(bind.IntentAudit(StageService, r.Intent), r.Candidates)
	a.Decision, a.Result, a.Parameters = r.Tier, res.Status, params
	if res.ToolID != "" {
		a.ToolID = res.ToolID
	}
	if res.Error != nil {
		a.Error = res.Error.Message
	}
	if m, ok := s.set.Registry().Get(a.ToolID); ok {
		a = bind.RedactAudit(a, m.Parameters)
	}
	out := sc.Outs([]pipeline.Out{bind.Audit(a)})[0]
	m := nats.NewMsg(out.Subject)
	m.Data = out.Data
	m.Header.Set(jetstream.MsgIDHeader, out.ID)
	if err := s.nc.PublishMsg(m); err != nil {
		s.log.Warn("service audit record not published", "intent_id", r.Intent.ID, "error", err)
	}
}

// resolveAndRun resolves an activated intent and executes the call,
// answering failures as error results, as the pipeline does.
func (s *Service) resolveAndRun(ctx context.Context, r schemas.Routed) (res schemas.Result, params map[string]any) {
	res, call := s.resolveAndRunCall(ctx, r)
	if call != nil {
		params = call.Parameters
	}
	return res, params
}

func (s *Service) resolveAndRunCall(ctx context.Context, r schemas.Routed) (schemas.Result, *schemas.ToolCall) {
	in := r.Intent
	fail := func(code, toolID string, err error) schemas.Result {
		res := bind.ErrorResult(StageService, in.SessionID, in.MessageID, in.ID, in.Text, code, err)
		res.ToolID = toolID
		return stamp(res)
	}
	toolID := r.Candidates[0].ToolID
	m, ok := s.set.Registry().Get(toolID)
	if !ok {
		return fail(bind.CodeUnknownTool, toolID, fmt.Errorf("tool %q is no longer in the registry; search again", toolID)), nil
	}
	var out resolve.Outcome
	var err error
	if rv := s.set.Resolver(); rv != nil {
		out, err = rv.ResolveRouted(ctx, r, s.set.Registry().Get)
	} else {
		var call schemas.ToolCall
		if call, err = resolve.Resolve(ctx, r, m); err == nil {
			out = resolve.Outcome{Call: &call}
		}
	}
	sc := pipeline.ScrubberFrom(ctx)
	sc.Add(s.set.Executor().Secrets(ctx, schemas.ToolCall{ToolID: toolID, Parameters: resolve.ErrorArgs(err)})...)
	var missing *resolve.MissingError
	var invalid *resolve.InvalidError
	switch {
	case errors.As(err, &missing) || errors.As(err, &invalid):
		return fail(bind.CodeInvalidArgs, toolID, err), nil
	case err != nil:
		return fail(bind.CodeGaveUp, toolID, err), nil
	case out.Call == nil:
		return stamp(schemas.Result{SessionID: in.SessionID, MessageID: in.MessageID, IntentID: in.ID, Intent: in.Text,
			Status: schemas.StatusMultiple, Stage: StageService, Matches: out.Matches, Message: out.Message}), nil
	}
	call := *out.Call
	sc.Add(s.set.Executor().Secrets(ctx, call)...)
	if len(resolve.Unplaced(call)) > 0 {
		called, _ := s.set.Registry().Get(call.ToolID)
		return stamp(resolve.UnmappedResult(StageService, call, called, s.set.Executor().ResultArguments(ctx, call))), &call
	}
	output, args, err := s.set.Executor().ExecuteForResult(ctx, call)
	res := schemas.Result{SessionID: in.SessionID, MessageID: in.MessageID, IntentID: in.ID, Intent: in.Text,
		ToolID: call.ToolID, Stage: StageService, Arguments: args, Unmapped: call.Unmapped}
	if err != nil {
		var te *execute.ToolError
		if errors.As(err, &te) {
			o := te.Output
			res.Output = &o
		}
		e := fail(execCode(err), call.ToolID, err)
		e.Output, e.Arguments, e.Unmapped = res.Output, res.Arguments, res.Unmapped
		return e, &call
	}
	res.Status, res.Output = schemas.StatusExecuted, &output
	res.Message = execute.UnmappedNote(call, res.Arguments)
	return stamp(res), &call
}

func execCode(err error) string {
	var te *execute.ToolError
	switch {
	case errors.As(err, &te):
		return bind.CodeToolFailed
	case errors.Is(err, execute.ErrUnknownTool):
		return bind.CodeUnknownTool
	case errors.Is(err, execute.ErrInvalidParameters):
		return bind.CodeInvalidArgs
	case errors.Is(err, execute.ErrNoExecutor), errors.Is(err, execute.ErrUnsupported):
		return bind.CodeNotRunnable
	case execute.IsTransient(err):
		return bind.CodeGaveUp
	}
	return bind.CodeInvalidInput
}

// stamp gives a result its version and time, as bind.Result does.
func stamp(r schemas.Result) schemas.Result {
	return withTime(r)
}

func (s *Service) sessions() (*session.Store, error) {
	st := s.set.Sessions()
	if st == nil {
		return nil, &requestError{code: codeUnavail, err: errors.New("session tool sets are off in this process")}
	}
	return st, nil
}

// meta runs a session meta-tool through the executor, as an agent's call would.
func (s *Service) meta(ctx context.Context, session, toolID string, params map[string]any, scope []string) (any, error) {
	if _, err := s.sessions(); err != nil {
		return nil, err
	}
	call := schemas.ToolCall{V: schemas.Version, IntentID: "svc-" + nuid.Next(), SessionID: session,
		MetaTool: schemas.MetaExecute, ToolID: toolID, Parameters: params, Direct: true, Scope: scope}
	out, err := s.set.Executor().Execute(ctx, call)
	switch {
	case err == nil:
		return out.Content, nil
	case errors.Is(err, execute.ErrUnknownTool):
		return nil, &requestError{code: codeNotFound, err: err}
	case errors.Is(err, execute.ErrBadCall), errors.Is(err, execute.ErrInvalidParameters):
		return nil, &requestError{code: codeBadRequest, err: err}
	case execute.IsTransient(err):
		return nil, &requestError{code: codeUnavail, err: err}
	}
	return nil, err
}

func (s *Service) findTools(ctx context.Context, data []byte) (any, error) {
	var req FindRequest
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	if err := checkSession(req.SessionID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Query) == "" {
		return nil, badRequest("query is empty: say what the tools should do, e.g. {\"session_id\": \"s1\", \"query\": \"resize images\"}")
	}
	params := map[string]any{"query": req.Query}
	if req.K != 0 {
		if req.K < 1 || req.K > execute.MaxSearchK {
			return nil, badRequest("k must be 1–%d, got %d", execute.MaxSearchK, req.K)
		}
		params["k"] = req.K
	}
	return s.meta(ctx, req.SessionID, execute.FindToolsID, params, req.Scope)
}

func (s *Service) activate(ctx context.Context, data []byte) (any, error) {
	var req ActivateRequest
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	if err := checkSession(req.SessionID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.ID) == "" {
		return nil, badRequest("id is empty: name the tool to activate, e.g. {\"session_id\": \"s1\", \"id\": \"files/checksum\"}")
	}
	return s.meta(ctx, req.SessionID, execute.ActivateID, map[string]any{"item_id": strings.TrimSpace(req.ID)}, req.Scope)
}

func (s *Service) toolsList(ctx context.Context, data []byte) (any, error) {
	req, st, err := s.sessionRequest(data)
	if err != nil {
		return nil, err
	}
	return st.Get(ctx, req.SessionID)
}

func (s *Service) sessionEnd(ctx context.Context, data []byte) (any, error) {
	req, st, err := s.sessionRequest(data)
	if err != nil {
		return nil, err
	}
	n, err := st.End(ctx, req.SessionID)
	if err != nil {
		return nil, err
	}
	return EndReply{SessionID: req.SessionID, Ended: true, Cleared: n}, nil
}

// sessionRequest decodes a request that names only a session, and the store
// that answers it.
func (s *Service) sessionRequest(data []byte) (SessionRequest, *session.Store, error) {
	var req SessionRequest
	if err := decode(data, &req); err != nil {
		return req, nil, err
	}
	if err := checkSession(req.SessionID); err != nil {
		return req, nil, err
	}
	st, err := s.sessions()
	return req, st, err
}

// GetRequest asks for one tool's manifest.
type GetRequest struct {
	SessionID string `json:"session_id"`
	ID        string `json:"id"`
}

// toolsGet answers a tool's manifest, so clients limited to their own
// sessions (agents, the MCP gateway) read schemas without access to the
// registry bucket.
func (s *Service) toolsGet(_ context.Context, data []byte) (any, error) {
	var req GetRequest
	if err := decode(data, &req); err != nil {
		return nil, err
	}
	if err := checkSession(req.SessionID); err != nil {
		return nil, err
	}
	m, ok := s.set.Registry().Get(strings.TrimSpace(req.ID))
	if !ok {
		return nil, &requestError{code: codeNotFound, err: fmt.Errorf("no tool %q in the registry", req.ID)}
	}
	return m, nil
}
