package execute

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
)

// WithNATS lets the executor run nats tools (NATS micro services) as
// requests on nc. Without it, nats tools are refused as not runnable here.
func WithNATS(nc *nats.Conn) Option {
	return func(c *config) { c.remote.nc = nc }
}

// runNATS sends the parameters as a JSON request to m's subject and returns
// the reply. No responders, a timeout or a lost connection are transient; a
// service error (the micro Nats-Service-Error headers) is a *ToolError.
func (e *Executor) runNATS(ctx context.Context, m schemas.Manifest, call schemas.ToolCall, params map[string]any, info *paramInfo) (schemas.ToolOutput, error) {
	nc := e.cfg.remote.nc
	if nc == nil {
		return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s is a NATS service and this worker has no NATS connection for tools", m.ID)
	}
	x := m.Executor
	subject, err := natsSubject(templater{id: m.ID, params: params, info: info}, x.Subject)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	data, err := json.Marshal(params)
	if err != nil {
		return schemas.ToolOutput{}, badCall(ErrInvalidParameters, "tool %s: %w", m.ID, err)
	}
	timeout := time.Duration(x.Timeout)
	if timeout <= 0 {
		timeout = e.cfg.timeout
	}
	maxOut := x.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = e.cfg.maxOutput
	}
	msg := nats.NewMsg(subject)
	msg.Data = data
	msg.Header.Set("Content-Type", "application/json")
	if k := IdempotencyKey(ctx, call); k != "" {
		msg.Header.Set(IdempotencyHeader, k)
	}
	// The tool joins the call's trace (W3C trace context in the headers).
	msg.Header = pipeline.InjectTrace(ctx, msg.Header)
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	reply, err := nc.RequestMsgWithContext(rctx, msg)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return schemas.ToolOutput{}, transient(ctx.Err())
		case errors.Is(err, nats.ErrNoResponders):
			return schemas.ToolOutput{}, transient(fmt.Errorf("tool %s: no service answers on %s: %w", m.ID, subject, err))
		case errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
			return schemas.ToolOutput{}, transient(fmt.Errorf("tool %s: no reply on %s within %s: %w", m.ID, subject, timeout, err))
		case errors.Is(err, nats.ErrConnectionClosed), errors.Is(err, nats.ErrConnectionDraining), errors.Is(err, nats.ErrConnectionReconnecting):
			return schemas.ToolOutput{}, transient(fmt.Errorf("tool %s: %w", m.ID, err))
		}
		return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: request on %s: %w", m.ID, subject, err)
	}
	body := &headBuffer{max: maxOut}
	_, _ = body.Write(reply.Data)
	out := schemas.ToolOutput{Content: replyContent(body), Truncated: body.truncated,
		DurationMS: float64(time.Since(start).Microseconds()) / 1000}
	if desc := reply.Header.Get(micro.ErrorHeader); desc != "" || reply.Header.Get(micro.ErrorCodeHeader) != "" {
		code := reply.Header.Get(micro.ErrorCodeHeader)
		return out, &ToolError{ToolID: m.ID, Output: out,
			Message: fmt.Sprintf("tool %s: service on %s answered error %s: %s", m.ID, subject, orDash(code), orDash(desc))}
	}
	return out, nil
}

// natsSubject fills a subject template; each value must be one subject
// token, so a parameter cannot reach another subject or a wildcard.
func natsSubject(t templater, tmpl string) (string, error) {
	s, keep, err := t.fill(tmpl, "subject", argString)
	if err != nil {
		return "", err
	}
	if !keep {
		return "", badCall(ErrInvalidParameters, "tool %s: subject %q needs every parameter it names", t.id, tmpl)
	}
	parts, _ := schemas.SplitTemplate(tmpl)
	for _, p := range parts {
		if p.Name == "" {
			continue
		}
		v := argString(t.params[p.Name])
		if v == "" || strings.ContainsAny(v, ". \t\r\n*>") {
			return "", badCall(ErrInvalidParameters, "tool %s: parameter %s = %q cannot be part of a subject (one token: no dots, spaces, * or >)", t.id, p.Name, v)
		}
	}
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return "", badCall(ErrUnsupported, "tool %s: subject %q is not a valid subject", t.id, s)
	}
	return s, nil
}

func replyContent(body *headBuffer) any {
	if !body.truncated {
		var v any
		if json.Unmarshal(body.buf, &v) == nil {
			return v
		}
	}
	return body.text()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
