// Package execute is the pure core of the execute stage: it runs a ToolCall
// and returns what the tool produced.
//
// Dispatch is by the call's meta-tool: search, load and help are builtins;
// execute runs the registry tool call.ToolID by its manifest's executor —
// a builtin, a subprocess, or (kind tool) another tool of the registry,
// followed to at most MaxDelegation hops. Parameters are validated against
// the tool's JSON Schema before anything runs, because direct <tool_call>s
// arrive without resolution. String values are first converted to the types
// the schema declares (resolve.Coerce: the XML form of a <tool_call> carries
// only strings), and schema defaults are filled in.
//
// Subprocesses never go through a shell. Their argv is the manifest's
// template with {name} placeholders replaced by parameter values; {{ and }}
// are literal braces. The process runs:
//
//   - in the manifest's dir when it names one (it must be absolute), else in
//     a fresh empty temporary directory removed afterwards, so a tool never
//     writes into the worker's own directory and concurrent calls cannot see
//     each other's files;
//   - only if the session is granted what it needs (guard.go, classes.go:
//     write, delete and network are denied unless WithGrants or the
//     policy grants them) and its path arguments resolve, after symlinks,
//     inside the path roots (confine.go);
//   - under /bin/sh's ulimit for CPU time, memory and core files (Limits)
//     and, with WithRunAs, as another user (limits.go);
//   - with only PATH, HOME and LANG from the worker's
//     environment, plus the names the manifest's env lists (a NAME=value
//     entry sets a fixed value) and those allowed with WithEnv, plus
//     TOOLYARD_INTENT_ID, the call's intent id, and
//     TOOLYARD_IDEMPOTENCY_KEY, derived from the session and the intent id:
//     the same on every delivery and retry of the call, the key on which a
//     tool with side effects dedupes them (http and MCP runners pass the
//     same key, from IdempotencyKey, as a header and in _meta);
//   - in its own process group, which is killed when the timeout (the
//     manifest's, else WithDefaultTimeout) passes, and after the process
//     exits, so no grandchild outlives the call (one that leaves the group,
//     with setsid, is out of reach; it cannot hold the call open, though:
//     the output pipes are closed 500ms after the group is gone); on Linux
//     the kernel also kills the process when its worker dies, so a call
//     redelivered after a crash never overlaps its first run;
//   - with stdout kept up to the output cap (the manifest's, else
//     WithMaxOutputBytes) and drained beyond it (Truncated is set), and the
//     last 4 KiB of stderr.
//
// http tools send a request built from the manifest's templates, each value
// escaped for where it lands, only to the executor's allowed hosts (every
// redirect is checked), and every connection's address is checked as it is
// dialled, so a host name that resolves to this machine or a private
// network is refused (dialguard.go); nats tools send a request to a NATS micro service on
// the connection given with WithNATS. Both get the call's idempotency key
// in an Idempotency-Key header.
//
// Before anything runs, guard checks the call: a tool outside the call's
// scope is refused (ErrOutOfScope), one needing permissions the session's
// allowlist lacks (WithPermissions) is refused (ErrPermissionDenied), and
// with WithSignatures every manifest of the delegation chain must carry a
// valid signature by a trusted, unrevoked key, no older than one the worker
// already verified for that id (ErrSignature; see workers/registry/sign).
//
// Errors fall in three classes. *ToolError: the tool ran and failed
// (non-zero exit or timeout); it carries the output and is permanent.
// Errors for which IsTransient is true (the worker's context ended, the
// system could not start a process for want of resources, a search backend
// failed, a connection was refused or timed out, a runner marked the error
// with Transient, a subprocess exited with ExitTempFail): the call may
// succeed if retried, and Execute does retry it, with exponential backoff
// and jitter, within WithRetryBudget (builtins excepted); past the budget
// it returns a *RetriesExhaustedError, which is permanent. Everything else
// is a bad call that no retry will fix; errors.Is tells which: ErrUnknownTool,
// ErrNoExecutor, ErrInvalidParameters, ErrBadCall, ErrDelegation,
// ErrUnsupported.
//
// The stage binding (Stage) adds what needs JetStream: with WithEffects a
// call takes effect once however often it is delivered (package effects:
// execution records with leases; the crash windows are listed there),
// outputs over InlineOutputBytes go to the outputs object store with a
// preview in the result, and secret parameters (writeOnly, x-secret) are
// redacted from the audit record.
package execute
