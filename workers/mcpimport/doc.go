// Package mcpimport keeps the registry in step with an MCP server's tools:
// each tool becomes a manifest NAME/<tool> (its description, its input
// schema as parameters, an mcp executor that calls it on that server), and a
// sync adds the new tools, replaces changed ones and removes the ones the
// server no longer lists.
//
// A sync owns only the tools it made: ids under NAME/ whose executor is an
// mcp executor for the same server. Another tool under NAME/ (imported from
// a file, or from another server) is never replaced or removed; a server
// tool whose id it holds is refused, with the reason, unless Replace is set.
package mcpimport
