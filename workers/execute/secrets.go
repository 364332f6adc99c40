package execute

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/internal/toolenv"
)

// Secrets lists the secret values a call makes the executor handle: its
// secret arguments (writeOnly, x-secret in the schema of the tool or of a
// tool it delegates to), and the environment and header values the tools
// of its chain are configured with. The stage runner keeps all of them out
// of results, audit records, execution records, stored outputs, dead
// letters and logs; only the tool's own process or request sees them.
func (e *Executor) Secrets(ctx context.Context, call schemas.ToolCall) []string {
	out := bind.SecretValues(call.Parameters, e.toolSchemas(ctx, call.ToolID)...)
	out = append(out, envSecrets(e.cfg.env)...)
	chain, err := e.chain(ctx, call.ToolID)
	if err != nil {
		return out
	}
	for _, m := range chain {
		if x := m.Executor; x != nil {
			out = append(out, envSecrets(x.Env)...)
			out = append(out, headerSecrets(x.Headers)...)
		}
	}
	return out
}

// envSecrets are the values env entries give a tool: every variable but
// the harmless base ones (PATH, HOME, locale, TZ) counts as a secret, as
// a tool's env is where API keys and passwords are passed.
func envSecrets(entries []string) []string {
	var out []string
	for _, e := range entries {
		name, _, _ := strings.Cut(e, "=")
		if name == "" || slices.Contains(toolenv.Base, name) {
			continue
		}
		if v, _, ok := toolenv.Value(name, entries); ok && v != "" {
			out = append(out, v)
		}
	}
	return out
}

// plainHeaders name headers whose fixed values are not secrets.
var plainHeaders = []string{"accept", "content-type", "user-agent", "accept-language", "accept-encoding"}

// headerSecrets are the fixed parts of an http tool's header templates
// (an "Authorization: Bearer xyz" written into the manifest); templates
// that fill in parameters or {env.NAME} are covered by those.
func headerSecrets(headers map[string]string) []string {
	var out []string
	for name, v := range headers {
		if slices.Contains(plainHeaders, strings.ToLower(name)) || strings.Contains(v, "{") {
			continue
		}
		out = append(out, v)
		if _, tok, ok := strings.Cut(v, " "); ok {
			out = append(out, tok) // the credential of "Bearer xyz"
		}
	}
	return out
}

// stageSecrets is the stage's pipeline.SecretsFunc: the secrets of the
// call an input carries.
func (s *stage) stageSecrets(ctx context.Context, m *pipeline.Msg) []string {
	call, err := bind.Input[schemas.ToolCall](schemas.KindToolCall, m)
	if err != nil {
		return nil
	}
	// The runner asks for the secrets just before it runs the handler on
	// the same message: the handler takes the call decoded here instead of
	// decoding it again (bind.Input).
	if m.Value == nil {
		m.Value = call
	}
	return s.e.Secrets(ctx, call)
}

// errRedactedArgs: a call whose secret arguments hold the redaction mark
// was recorded with its secrets removed (a dead letter, an audit record)
// and sent again; running it would pass "***" as a password.
var errRedactedArgs = errors.New("secret arguments redacted")

// checkRedacted refuses a call that would run with redacted secrets.
func (s *stage) checkRedacted(ctx context.Context, call schemas.ToolCall) error {
	names := bind.RedactedSecrets(call.Parameters, s.e.toolSchemas(ctx, call.ToolID)...)
	if len(names) == 0 {
		return nil
	}
	return badCall(ErrInvalidParameters, "tool %s: %w: %s hold %q, the mark left where a secret was removed when this call was recorded (a replayed dead letter?); send the call again with the secret values",
		call.ToolID, errRedactedArgs, strings.Join(names, ", "), bind.Redacted)
}

// scrubOutput removes the call's secrets from a tool's output before it is
// stored anywhere (the outputs object store, the execution record, the
// result): a tool that echoes its token or password gives away nothing.
func scrubOutput(sc *pipeline.Scrubber, out *schemas.ToolOutput) {
	if sc.Empty() || out == nil {
		return
	}
	out.Stderr = sc.String(out.Stderr)
	switch c := out.Content.(type) {
	case nil:
	case string:
		out.Content = sc.String(c)
	default:
		if v, err := scrubJSON(sc, c); err == nil {
			out.Content = v
		}
	}
}

// scrubJSON scrubs a JSON-shaped value by way of its encoding.
func scrubJSON(sc *pipeline.Scrubber, v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode output: %w", err)
	}
	data, changed := sc.Bytes(data)
	if !changed {
		return v, nil
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decode scrubbed output: %w", err)
	}
	return out, nil
}
