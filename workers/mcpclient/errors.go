package mcpclient

import (
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TransportError: the server could not be reached or the connection broke.
// A later attempt, on a new session, may succeed.
type TransportError struct {
	Server string
	Op     string
	Err    error
	// Stderr is the end of a stdio server's stderr, often the reason it died.
	Stderr string
}

func (e *TransportError) Error() string {
	msg := fmt.Sprintf("MCP server %s: %s: %v", e.Server, e.Op, e.Err)
	if e.Stderr != "" {
		msg += " (server stderr: " + e.Stderr + ")"
	}
	return msg
}

func (e *TransportError) Unwrap() error { return e.Err }

// ProtocolError: the server answered the request with a JSON-RPC error
// (unknown tool, invalid arguments, …). Sending it again would not help.
type ProtocolError struct {
	Server string
	Op     string
	Code   int64
	Err    error
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("MCP server %s refused %s: %v", e.Server, e.Op, e.Err)
}

func (e *ProtocolError) Unwrap() error { return e.Err }

// IsTransport reports whether err is a *TransportError.
func IsTransport(err error) bool {
	var t *TransportError
	return errors.As(err, &t)
}

// transportCodes are JSON-RPC codes that say the connection, not the
// request, failed: a closing client or server, a transport that rejected
// the message, a closed connection (-32000 in the TypeScript SDK).
var transportCodes = map[int64]bool{-32000: true, -32003: true, -32004: true, -32005: true}

// classify wraps an SDK error: a JSON-RPC error answered by the peer is a
// protocol error, anything else (and the codes above) a transport error.
func classify(srv Server, op string, err error, stderr string) error {
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) && !transportCodes[rpc.Code] && !errors.Is(err, mcp.ErrConnectionClosed) {
		return &ProtocolError{Server: srv.String(), Op: op, Code: rpc.Code, Err: err}
	}
	return &TransportError{Server: srv.String(), Op: op, Err: err, Stderr: stderr}
}
