package llmresolve

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/resolve"
	"github.com/toolyard/toolyard/workers/route"
)

// resolveTurns is how many conversation turns resolution shows: the
// request usually says it all, and each turn costs the small model focus.
const resolveTurns = 2

// Resolver resolves activated intents with a chat model, falling back to
// the deterministic resolver; see the package doc. One Resolver serves any
// number of goroutines.
type Resolver struct {
	model llms.Model
	cfg   config
	br    *breaker
}

var _ resolve.Resolver = (*Resolver)(nil)

// New returns a Resolver that asks model.
func New(model llms.Model, opts ...Option) (*Resolver, error) {
	if model == nil {
		return nil, errors.New("llm: no model")
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	br := &breaker{failures: cfg.breakerFailures, cooldown: cfg.breakerCooldown, now: time.Now}
	return &Resolver{model: model, cfg: cfg, br: br}, nil
}

// ResolveRouted resolves an activated intent: the model's call, the
// candidates when the model is unsure, or the deterministic resolver's
// call when the model fails. Its errors are the deterministic resolver's
// (the intent cannot become a call as written) or ctx's.
func (r *Resolver) ResolveRouted(ctx context.Context, routed schemas.Routed, lookup resolve.Lookup) (resolve.Outcome, error) {
	if len(routed.Candidates) == 0 {
		return resolve.Outcome{}, fmt.Errorf("resolve intent %s: no candidates", routed.Intent.ID)
	}
	top, ok := lookup(routed.Candidates[0].ToolID)
	if !ok {
		return resolve.Outcome{}, fmt.Errorf("resolve intent %s: tool %q is not in the registry", routed.Intent.ID, routed.Candidates[0].ToolID)
	}
	mctx, cancel := context.WithTimeout(ctx, r.cfg.timeout)
	out, err := r.viaModel(mctx, routed, inventory(routed.Candidates, lookup))
	cancel()
	if err == nil {
		return out, nil
	}
	if ctx.Err() != nil {
		return resolve.Outcome{}, ctx.Err()
	}
	reason := err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		reason = fmt.Sprintf("the model did not answer within %s", r.cfg.timeout)
	}
	r.cfg.log.Warn("llm resolver: falling back to the deterministic rules",
		"intent", routed.Intent.ID, "tool", top.ID, "reason", reason)
	call, err := resolve.Resolve(ctx, routed, top)
	if err != nil {
		return resolve.Outcome{}, err
	}
	return resolve.Outcome{Call: &call, Decision: resolve.DecisionFallback, Note: "llm: " + reason}, nil
}

// viaModel runs both phases. An error means: fall back.
func (r *Resolver) viaModel(ctx context.Context, routed schemas.Routed, es []entry) (resolve.Outcome, error) {
	in := routed.Intent
	if routed.DecidedBy == route.DecidedByDisambiguator && len(es) > 0 && es[0].cand.ToolID == routed.Candidates[0].ToolID {
		// The medium tier's disambiguator already chose, with the
		// conversation and at least the minimum confidence: asking again
		// would cost a model call to learn the same.
		return r.call(ctx, in, &es[0], es[0].cand.Confidence, routed)
	}
	a, chosen, err := r.analyse(ctx, in, es, resolveTurns)
	var declined *DeclinedError
	switch {
	case errors.As(err, &declined):
		return r.unsure(routed, nil, "declined: "+oneLine(declined.Reason, 200)), nil
	case err != nil:
		return resolve.Outcome{}, fmt.Errorf("choosing the tool: %w", err)
	case chosen == nil:
		why := "it says none of the candidates fits"
		if a.reasoning != "" {
			why += " (" + oneLine(a.reasoning, 200) + ")"
		}
		return r.unsure(routed, nil, why), nil
	}
	conf := chosen.cand.Confidence
	if a.hasConfidence {
		conf = a.confidence
	}
	if conf < r.cfg.minConfidence {
		return r.unsure(routed, chosen, fmt.Sprintf("its confidence in %s is %s, below %s",
			chosen.tool.ID, fmtConf(conf), fmtConf(r.cfg.minConfidence))), nil
	}
	return r.call(ctx, in, chosen, conf, routed)
}

// call runs phase 2 for the chosen tool. An error means: fall back.
func (r *Resolver) call(ctx context.Context, in schemas.Intent, chosen *entry, conf float64, routed schemas.Routed) (resolve.Outcome, error) {
	args, err := r.arguments(ctx, in, *chosen)
	if err != nil {
		return resolve.Outcome{}, fmt.Errorf("arguments for %s: %w", chosen.tool.ID, err)
	}
	if args.hasConfidence && args.confidence < r.cfg.minConfidence {
		return r.unsure(routed, chosen, fmt.Sprintf("its confidence in the call of %s is %s, below %s",
			chosen.tool.ID, fmtConf(args.confidence), fmtConf(r.cfg.minConfidence))), nil
	}
	itemType := chosen.tool.Type
	if itemType == "" {
		itemType = "tool"
	}
	call := schemas.ToolCall{
		V: schemas.Version, IntentID: in.ID, SessionID: in.SessionID, MessageID: in.MessageID,
		MetaTool: resolve.MetaTool(chosen.tool), ItemType: itemType, Action: resolve.ActionRun,
		ToolID: chosen.tool.ID, Parameters: args.args, Confidence: conf, Intent: in.Text, Scope: in.Scope,
	}
	return resolve.Outcome{Call: &call, Decision: resolve.DecisionResolvedLLM}, nil
}

// analyse asks phase 1's question, with one corrective retry. chosen is
// nil when the model says no tool fits.
func (r *Resolver) analyse(ctx context.Context, in schemas.Intent, es []entry, turns int) (a analysis, chosen *entry, err error) {
	if len(es) == 0 {
		return a, nil, errors.New("none of the candidates is in the registry")
	}
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, analysisSystem),
		llms.TextParts(llms.ChatMessageTypeHuman, analysisPrompt(in, es, turns)),
	}
	for attempt := 0; ; attempt++ {
		reply, err := r.ask(ctx, msgs)
		if err != nil {
			return a, nil, err
		}
		a, err = parseAnalysis(reply)
		if err == nil {
			if !a.useTool {
				return a, nil, nil
			}
			if chosen, err = pick(es, a); err == nil {
				return a, chosen, nil
			}
		}
		if !isUnusable(err) || attempt == 1 {
			return a, nil, err
		}
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, reply),
			llms.TextParts(llms.ChatMessageTypeHuman, correction(err.Error())))
	}
}

// pick finds the candidate the analysis names: by id, else by name (and
// server, when given), else by the last part of the id.
func pick(es []entry, a analysis) (*entry, error) {
	match := func(ok func(e entry) bool) []int {
		var hits []int
		for i, e := range es {
			if ok(e) {
				hits = append(hits, i)
			}
		}
		return hits
	}
	tool := strings.TrimSpace(a.tool)
	for _, rule := range []func(e entry) bool{
		func(e entry) bool { return strings.EqualFold(e.tool.ID, tool) },
		func(e entry) bool {
			return strings.EqualFold(e.tool.Name, tool) && (a.server == "" || strings.EqualFold(e.tool.ServerName(), a.server))
		},
		func(e entry) bool {
			id := e.tool.ID[strings.LastIndexByte(e.tool.ID, '/')+1:]
			return strings.EqualFold(id, tool) && (a.server == "" || strings.EqualFold(e.tool.ServerName(), a.server))
		},
	} {
		if hits := match(rule); len(hits) == 1 {
			return &es[hits[0]], nil
		}
	}
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.tool.ID
	}
	return nil, unusablef("tool %q is not one of the candidates (%s); name one of them exactly", oneLine(tool, 60), strings.Join(ids, ", "))
}

// arguments asks phase 2's question, with one corrective retry, and
// returns arguments that meet the tool's schema.
func (r *Resolver) arguments(ctx context.Context, in schemas.Intent, e entry) (arguments, error) {
	sch, err := schemas.CompileParams(e.tool.ID, e.tool.Parameters)
	if err != nil {
		return arguments{}, err
	}
	names := paramNames(e.params)
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, argumentsSystem),
		llms.TextParts(llms.ChatMessageTypeHuman, argumentsPrompt(in, e, r.cfg.jsonMode)),
	}
	for attempt := 0; ; attempt++ {
		reply, err := r.ask(ctx, msgs)
		if err != nil {
			return arguments{}, err
		}
		a, err := parseArguments(reply, names)
		if err == nil {
			a.args, err = check(e, sch, a)
		}
		if err == nil {
			return a, nil
		}
		if !isUnusable(err) || attempt == 1 {
			return a, err
		}
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, reply),
			llms.TextParts(llms.ChatMessageTypeHuman, correction(err.Error())))
	}
}

// check normalises the model's arguments and validates them: nulls for
// optional parameters are dropped, strings coerced to the declared types;
// undeclared parameters and schema violations are problems for the
// corrective retry.
func check(e entry, sch *schemas.ParamSchema, a arguments) (map[string]any, error) {
	if a.tool != "" && !strings.EqualFold(a.tool, e.tool.ID) && !strings.EqualFold(a.tool, e.tool.Name) {
		return nil, unusablef("the answer names tool %q, but the tool is %s", oneLine(a.tool, 60), e.tool.ID)
	}
	args := maps.Clone(a.args)
	if args == nil {
		args = map[string]any{}
	}
	required := map[string]bool{}
	for _, p := range e.params {
		required[p.name] = p.required
	}
	var unknown []string
	for k, v := range args {
		if v == nil && !required[k] {
			delete(args, k)
			continue
		}
		if _, ok := required[k]; !ok && len(e.params) > 0 {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, unusablef("%s has no parameter %s (its parameters: %s)", e.tool.ID,
			strings.Join(unknown, ", "), strings.Join(paramNames(e.params), ", "))
	}
	args, err := resolve.Coerce(e.tool, args)
	if err != nil {
		return nil, &unusable{err.Error()}
	}
	if err := sch.Validate(args); err != nil {
		return nil, unusablef("the arguments do not meet %s's schema: %v", e.tool.ID, err)
	}
	return args, nil
}

// ask sends the conversation and returns the reply's text.
func (r *Resolver) ask(ctx context.Context, msgs []llms.MessageContent) (string, error) {
	if err := r.br.allow(); err != nil {
		return "", err
	}
	opts := []llms.CallOption{llms.WithTemperature(0)}
	if r.cfg.jsonMode {
		opts = append(opts, llms.WithJSONMode())
	}
	resp, err := r.model.GenerateContent(ctx, msgs, opts...)
	switch {
	case err == nil:
		r.br.done(true)
	case errors.Is(ctx.Err(), context.Canceled):
		r.br.abort()
		return "", ctx.Err()
	case ctx.Err() != nil:
		r.br.done(false)
		return "", ctx.Err()
	default:
		r.br.done(false)
		return "", fmt.Errorf("the model failed: %w", err)
	}
	if resp == nil || len(resp.Choices) == 0 {
		return "", errors.New("the model returned no choices")
	}
	return resp.Choices[0].Content, nil
}

// unsure is the answer when the model will not vouch for a tool: the
// candidates, its pick first, for the agent to choose from.
func (r *Resolver) unsure(routed schemas.Routed, chosen *entry, why string) resolve.Outcome {
	var ms []schemas.Candidate
	if chosen != nil {
		ms = append(ms, chosen.cand)
	}
	for _, c := range routed.Candidates {
		if chosen == nil || c.ToolID != chosen.cand.ToolID {
			ms = append(ms, c)
		}
	}
	ms = ms[:min(len(ms), 3)]
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.ToolID + " (" + fmtConf(m.Confidence) + ")"
	}
	msg := fmt.Sprintf("Not sure enough to run a tool for %s: the model %s. Candidates: %s. "+
		"Re-issue the request naming the one you mean, e.g. [TOOL: %s key=value …], or rephrase it more specifically.",
		strconv.Quote(oneLine(routed.Intent.Text, 120)), why, strings.Join(parts, ", "), ms[0].ToolID)
	return resolve.Outcome{Matches: ms, Message: msg, Decision: resolve.DecisionUnsure, Note: "llm: " + why}
}

func fmtConf(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }
