package execute

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/mcpclient"
)

// DefaultMCPTimeout bounds an MCP tool call whose manifest sets no timeout.
// Starting a stdio server and the handshake are bounded separately (the
// pool's connect timeout), since the session outlives the call.
const DefaultMCPTimeout = 30 * time.Second

// WithMCP runs executors of kind mcp through pool: one session per server,
// shared by every call of this worker and opened again after a failure.
// The caller closes the pool when the worker stops.
func WithMCP(pool *mcpclient.Pool) Option {
	return WithRunner(schemas.ExecMCP, MCPRunner(pool))
}

// MCPRunner calls the manifest's tool (executor.tool) on its MCP server
// (executor.command over stdio, or executor.url over streamable HTTP).
//
//   - The result's text blocks, joined, are the output's content; a result
//     with only structured content gives that JSON value. Text beyond the
//     manifest's max_output_bytes (else DefaultMaxOutputBytes) is cut and
//     Truncated set; output over InlineOutputBytes goes to the object store
//     as every executor's does.
//   - A result flagged isError is a *ToolError (permanent), with the
//     server's text as its message.
//   - Transport failures (server unreachable or dead, connection broken, the
//     call's timeout) are transient; the next attempt opens a new session.
//   - A JSON-RPC error for the call is permanent: invalid params →
//     ErrInvalidParameters, an unknown tool → ErrUnsupported (the registry is
//     stale: import the server again), anything else → *ToolError.
//
// The call's idempotency key (IdempotencyKey) goes to the server in the
// request's _meta under mcpclient.MetaIdempotencyKey.
func MCPRunner(pool *mcpclient.Pool) RunFunc {
	return func(ctx context.Context, m schemas.Manifest, call schemas.ToolCall) (schemas.ToolOutput, error) {
		x := m.Executor
		srv, err := mcpclient.ServerOf(x)
		if err != nil {
			return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: %w", m.ID, err)
		}
		if x.Tool == "" {
			return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: the mcp executor names no tool (executor.tool)", m.ID)
		}
		timeout := time.Duration(x.Timeout)
		if timeout <= 0 {
			timeout = DefaultMCPTimeout
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		start := time.Now()
		res, err := pool.CallTool(cctx, srv, x.Tool, call.Parameters, IdempotencyKey(ctx, call))
		dur := float64(time.Since(start).Microseconds()) / 1000
		if err != nil {
			return schemas.ToolOutput{DurationMS: dur}, mcpError(ctx, m, srv, timeout, err)
		}
		out := schemas.ToolOutput{Content: mcpclient.Render(res), DurationMS: dur}
		if s, ok := out.Content.(string); ok {
			limit := x.MaxOutputBytes
			if limit <= 0 {
				limit = DefaultMaxOutputBytes
			}
			if len(s) > limit {
				out.Content, out.Truncated = strings.ToValidUTF8(s[:limit], ""), true
			}
		}
		if res.IsError {
			return out, toolReported(m.ID, out, fmt.Sprintf("tool %s reported an error: %s", m.ID, clipLine(fmt.Sprint(out.Content), 300)))
		}
		return out, nil
	}
}

// mcpError sorts a failed MCP call into the package's error classes.
func mcpError(ctx context.Context, m schemas.Manifest, srv mcpclient.Server, timeout time.Duration, err error) error {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return badCall(ErrUnsupported, "tool %s: MCP server command %q cannot be started on this worker: %w", m.ID, srv.String(), err)
	}
	var pe *mcpclient.ProtocolError
	if errors.As(err, &pe) {
		switch pe.Code {
		case jsonrpc.CodeInvalidParams:
			if strings.Contains(strings.ToLower(pe.Error()), "unknown tool") || strings.Contains(strings.ToLower(pe.Error()), "not found") {
				return badCall(ErrUnsupported, "tool %s: the MCP server %s no longer has tool %q; import its tools again: %w", m.ID, srv, m.Executor.Tool, err)
			}
			return badCall(ErrInvalidParameters, "tool %s: the MCP server refused the arguments: %w", m.ID, err)
		case jsonrpc.CodeMethodNotFound:
			return badCall(ErrUnsupported, "tool %s: the MCP server %s does not serve tools: %w", m.ID, srv, err)
		}
		return toolReported(m.ID, schemas.ToolOutput{Content: err.Error()}, fmt.Sprintf("tool %s: %v", m.ID, err))
	}
	if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return transient(fmt.Errorf("tool %s: no answer from the MCP server within %s: %w", m.ID, timeout, err))
	}
	return transient(fmt.Errorf("tool %s: %w", m.ID, err))
}

// reportedError is a *ToolError whose tool said in words what went wrong
// (an MCP isError result), rather than by an exit status.
type reportedError struct {
	te  *ToolError
	msg string
}

func (e *reportedError) Error() string { return e.msg }
func (e *reportedError) Unwrap() error { return e.te }

func toolReported(id string, out schemas.ToolOutput, msg string) error {
	return &reportedError{te: &ToolError{ToolID: id, Output: out}, msg: msg}
}

func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

type idempotencyKeyCtx struct{}

// ContextWithIdempotencyKey sets the idempotency key that executors hand to
// the tool (MCP: the request's _meta), overriding the call's intent id.
func ContextWithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}

// IdempotencyKey is the key a tool gets to recognise a repeated call: the
// one set with ContextWithIdempotencyKey, else CallIdempotencyKey's.
func IdempotencyKey(ctx context.Context, call schemas.ToolCall) string {
	if k, ok := ctx.Value(idempotencyKeyCtx{}).(string); ok && k != "" {
		return k
	}
	return CallIdempotencyKey(call)
}
