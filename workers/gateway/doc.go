// Package gateway is Toolyard's MCP server facade: an agent connected to a
// thousand tools through Toolyard sees a handful. Each MCP connection is a
// Toolyard session; its tools/list holds the meta-tools find_tools,
// activate, resolve_intent and execute, plus the session's active tool set
// (seeded from its first intent, grown by find_tools and activate), and the
// facade sends notifications/tools/list_changed whenever that set changes.
//
// The facade is a client of a running Toolyard (the NATS micro service
// "toolyard" and the pipeline): it holds no registry and runs no tool
// itself, so it starts at once and scales with the workers behind it.
//
// Active tools are listed under MCP-safe names: the tool id with "/" as
// "." and any other character outside [A-Za-z0-9_.-] as "_" ("fs/read_file"
// is "fs.read_file"); their input schema is the tool's parameters. Calling
// one runs it as a direct call through the pipeline (execute stage: guard,
// permissions, exactly-once effects), as the execute meta-tool does.
package gateway
