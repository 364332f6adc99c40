package resolve

import (
	"context"
	"fmt"

	"github.com/toolyard/toolyard/schemas"
)

// ActionRun is the action of every call this resolver makes.
const ActionRun = "run"

// Resolve turns a routed intent and its chosen tool's manifest into a
// validated call. A *MissingError or *InvalidError means the intent cannot
// become a call as written (retrying will not help; the agent must rephrase);
// any other error is a manifest whose parameter schema does not compile, or
// a done context.
func Resolve(ctx context.Context, r schemas.Routed, m schemas.Manifest) (schemas.ToolCall, error) {
	if err := ctx.Err(); err != nil {
		return schemas.ToolCall{}, err
	}
	e, err := cached(m)
	if err != nil {
		return schemas.ToolCall{}, fmt.Errorf("resolve intent %s: %w", r.Intent.ID, err)
	}
	args, unmapped, err := fill(r.Intent, e.schema, e.words, m.ID, rules, otherToolNames(r.Candidates, m.ID))
	if err != nil {
		return schemas.ToolCall{}, err
	}
	return schemas.ToolCall{
		V:          schemas.Version,
		IntentID:   r.Intent.ID,
		SessionID:  r.Intent.SessionID,
		MessageID:  r.Intent.MessageID,
		MetaTool:   MetaTool(m),
		ItemType:   itemType(m),
		Action:     ActionRun,
		ToolID:     m.ID,
		Parameters: args,
		Confidence: confidence(r, m.ID),
		Intent:     r.Intent.Text,
		Scope:      r.Intent.Scope,
		Unmapped:   unmapped,
	}, nil
}

// fill runs the slot-filling rules rs on the intent text, reads required
// parameters it lacks from the intent's context, then validates the result.
// It also returns the values the intent text states that no argument took.
func fill(in schemas.Intent, s *toolSchema, toolWords map[string]bool, toolID string, rs []rule, others map[string]string) (map[string]any, []schemas.Unmapped, error) {
	f := newFiller(in.Text, s, toolWords)
	f.others, f.toolID, f.nested = others, toolID, in.Nested
	if in.TimeZone != "" {
		// Checked by parse; an intent from elsewhere with a bad zone is
		// read in the worker's, as one without a zone is.
		f.zone, _ = schemas.TimeZone(in.TimeZone)
	}
	free := f.freetextTarget()
	f.run(rs, free, true)
	for _, text := range contextTexts(in) {
		if !f.lacksRequired() {
			break
		}
		g := newFiller(text, s, toolWords)
		g.seed(f)
		g.run(rs, nil, false)
		f.adoptRequired(g)
	}
	unmapped := f.unmapped()
	f.dropBlank()
	f.applyDefaults()

	var missing []Param
	for _, p := range s.props {
		if p.required && f.missing(p) {
			if _, hasDefault := f.args[p.name]; !hasDefault {
				missing = append(missing, paramOf(p))
			}
		}
	}
	if len(f.problems) > 0 {
		problems := f.problems
		for _, p := range missing {
			problems = append(problems, fmt.Sprintf("%s: required but not given (expected %s)", p.Name, expectation(s.prop(p.Name))))
		}
		return nil, nil, &InvalidError{ToolID: toolID, Problems: problems, Args: f.args}
	}
	if len(missing) > 0 {
		found := make(map[string]any, len(f.given))
		var order []string
		for _, p := range s.props {
			if f.given[p.name] {
				found[p.name] = f.args[p.name]
				order = append(order, p.name)
			}
		}
		var held []schemas.Unmapped
		for _, u := range f.moments {
			for _, p := range missing {
				if u.Parameter == p.Name {
					held = append(held, u)
				}
			}
		}
		return nil, nil, &MissingError{ToolID: toolID, Missing: missing, Found: found, Unmapped: held, order: order}
	}
	if err := s.check.Validate(f.args); err != nil {
		return nil, nil, &InvalidError{ToolID: toolID, Problems: schemaProblems(s, err), Args: f.args}
	}
	return f.args, unmapped, nil
}

// MetaTool is the meta-tool a call of m goes through: a builtin meta-tool
// (search, load, help) is its own; every other tool is run by "execute".
func MetaTool(m schemas.Manifest) string {
	if e := m.Executor; e != nil && e.Kind == schemas.ExecBuiltin {
		switch e.Builtin {
		case schemas.MetaSearch, schemas.MetaLoad, schemas.MetaHelp:
			return e.Builtin
		}
	}
	return schemas.MetaExecute
}

func itemType(m schemas.Manifest) string {
	if m.Type == "" {
		return "tool"
	}
	return m.Type
}

// confidence is the routed confidence of the chosen tool: the top
// candidate's, unless the chosen tool appears further down the list.
func confidence(r schemas.Routed, toolID string) float64 {
	for _, c := range r.Candidates {
		if c.ToolID == toolID {
			return c.Confidence
		}
	}
	if len(r.Candidates) > 0 {
		return r.Candidates[0].Confidence
	}
	return 0
}
