// Package mcpclient is Toolyard's client side of the Model Context Protocol,
// on the official Go SDK: it reaches MCP servers over stdio (a command it
// starts) or streamable HTTP (a URL), keeps one session per server in a Pool
// shared by every call, lists a server's tools across all pages, and follows
// notifications/tools/list_changed.
//
// A pooled session that fails (its server process exits, the HTTP session is
// gone, a read or write breaks) is dropped, and the next call starts a new
// one. A call that failed before its request left (the session was already
// known to be closed) is sent once more on a fresh session, since the server
// never saw it; a call that was in flight when the connection broke is not,
// because the server may have run it: it fails with a *TransportError, which
// a retry policy treats as transient (the idempotency key in the request's
// _meta, MetaIdempotencyKey, lets the tool recognise a repeat).
//
// Errors: *TransportError (could not reach the server, or the connection
// broke; transient), *ProtocolError (the server answered with a JSON-RPC
// error, e.g. unknown tool or invalid arguments; permanent). A tool's own
// failure is not an error here: it is a result with IsError set.
package mcpclient
