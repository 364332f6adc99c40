package execute

import (
	"errors"
	"slices"
	"strings"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

// Refusals: the call is well formed but this worker will not run it.
var (
	// ErrPermissionDenied: the tool needs permissions the session's
	// allowlist does not cover.
	ErrPermissionDenied = errors.New("permission denied")
	// ErrOutOfScope: the agent output restricted its tools with a scope
	// that does not include the called tool.
	ErrOutOfScope = errors.New("tool outside the output's scope")
	// ErrSignature: the worker requires signed tools and this one is
	// unsigned, tampered with or signed by an untrusted key; errors.Is with
	// sign.ErrUnsigned, sign.ErrBadSignature or sign.ErrUntrusted tells which.
	ErrSignature = errors.New("signature check failed")
)

// Result error codes of the refusals.
const (
	CodePermissionDenied = "permission_denied"
	CodeOutOfScope       = "out_of_scope"
	CodeUnsignedTool     = "unsigned_tool"
	CodeBadSignature     = "bad_signature"
	CodeUntrustedKey     = "untrusted_key"
	CodeHostNotAllowed   = "host_not_allowed"
	CodeRevokedKey       = "revoked_key"
	CodeDowngradedTool   = "downgraded_tool"
)

// guardConfig is what guard enforces.
type guardConfig struct {
	policy        *Policy
	grants        []string // risk classes granted to every session (WithGrants)
	trust         *sign.Trust
	requireSigned bool
	serials       *serialMarks // highest signature serial seen per tool (downgrade.go)
}

// WithSignatures checks tool signatures against the trusted keys before a
// tool runs. With require, an unsigned tool is refused too; without it,
// only signed tools are checked (and refused if tampered with or signed by
// a key not in trust). The builtin meta-tools run in-process and need no
// signature.
func WithSignatures(trust *sign.Trust, require bool) Option {
	return func(c *config) {
		c.guard.trust = trust
		c.guard.requireSigned = require
	}
}

// guard decides whether call may run the tools of chain (the called tool
// first, the one whose executor runs last): the call's scope, the
// session's permissions, the signatures. Nothing runs before it says yes.
func (e *Executor) guard(call schemas.ToolCall, chain []schemas.Manifest) error {
	first := chain[0]
	if len(call.Scope) > 0 && !isBuiltin(first) && !inScope(call.Scope, first) {
		return badCall(ErrOutOfScope, "tool %s is outside this output's scope [%s]; the agent may only call tools of that scope",
			first.ID, strings.Join(call.Scope, ", "))
	}
	if allow, limited := e.cfg.guard.policy.Allowed(call.SessionID); limited {
		var need []string
		for _, m := range chain {
			need = append(need, m.Permissions...)
		}
		if missing := Missing(allow, need); len(missing) > 0 {
			e.cfg.log.Info("tool refused: permission denied", "tool", first.ID, "session", call.SessionID,
				"intent_id", call.IntentID, "missing", missing)
			return badCall(ErrPermissionDenied, "tool %s needs permission(s) %s, which session %s is not allowed (allowed: %s)",
				first.ID, strings.Join(missing, ", "), call.SessionID, listOrNone(allow))
		}
	}
	if err := e.checkGrants(call, chain); err != nil {
		return err
	}
	g := &e.cfg.guard
	if g.trust == nil && !g.requireSigned {
		return nil
	}
	for _, m := range chain {
		if isBuiltin(m) || (!g.requireSigned && m.Signature == nil) {
			continue
		}
		if err := sign.Verify(m, g.trust); err != nil {
			// An operator should hear of a tampered or foreign tool, not
			// only the agent.
			e.cfg.log.Warn("tool refused: signature check failed", "tool", m.ID, "called_as", first.ID,
				"session", call.SessionID, "intent_id", call.IntentID, "error", err)
			return badCall(ErrSignature, "refused: %w", err)
		}
		if m.Signature != nil {
			if err := g.serials.check(m); err != nil {
				e.cfg.log.Warn("tool refused: older signed version", "tool", m.ID, "session", call.SessionID,
					"intent_id", call.IntentID, "error", err)
				return badCall(ErrSignature, "refused: %w", err)
			}
		}
	}
	return nil
}

// checkGrants is the deny-by-default gate: every risk class the chain's
// tools need (write, delete, network) must be granted to the session by
// the worker's --allow, the policy's grant, or an allowlist entry naming
// the permission itself.
func (e *Executor) checkGrants(call schemas.ToolCall, chain []schemas.Manifest) error {
	if chain[len(chain)-1].Executor == nil {
		return nil // nothing will run; run says why
	}
	g := e.cfg.guard
	grants := append(slices.Clone(g.grants), g.policy.Grants(call.SessionID)...)
	allow, limited := g.policy.Allowed(call.SessionID)
	var missing []need
	for _, m := range chain {
		for _, n := range needsOf(m) {
			if slices.Contains(grants, n.class) || limited && n.permission != "" && covered(allow, n.permission) {
				continue
			}
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	var what, classes []string
	for _, n := range missing {
		what = append(what, n.String())
		if !slices.Contains(classes, n.class) {
			classes = append(classes, n.class)
		}
	}
	e.cfg.log.Info("tool refused: risk class not granted", "tool", chain[0].ID, "session", call.SessionID,
		"intent_id", call.IntentID, "missing", what)
	return badCall(ErrPermissionDenied, "tool %s needs %s, which session %s is not granted: tools run read-only by default; "+
		"grant it with --allow %s on 'toolyard up' or 'toolyard worker', or per session with \"grant\": [\"%s\"] in --permissions-file",
		chain[0].ID, strings.Join(what, ", "), call.SessionID, strings.Join(classes, ","), strings.Join(classes, "\", \""))
}

// isBuiltin: the tool runs code of this binary (a meta-tool), nothing a
// manifest could change into something else.
func isBuiltin(m schemas.Manifest) bool {
	return m.Executor != nil && m.Executor.Kind == schemas.ExecBuiltin
}

// inScope follows discovery's scope filter: a tool id, or a server name.
func inScope(scope []string, m schemas.Manifest) bool {
	if slices.Contains(scope, m.ID) {
		return true
	}
	s := m.ServerName()
	return s != "" && slices.Contains(scope, s)
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// guardCode is the result code of a refusal, "" for other errors.
func guardCode(err error) string {
	switch {
	case errors.Is(err, ErrPermissionDenied):
		return CodePermissionDenied
	case errors.Is(err, ErrOutOfScope):
		return CodeOutOfScope
	case errors.Is(err, sign.ErrUnsigned):
		return CodeUnsignedTool
	case errors.Is(err, sign.ErrUntrusted):
		return CodeUntrustedKey
	case errors.Is(err, sign.ErrRevoked):
		return CodeRevokedKey
	case errors.Is(err, sign.ErrDowngrade):
		return CodeDowngradedTool
	case errors.Is(err, sign.ErrBadSignature), errors.Is(err, ErrSignature):
		return CodeBadSignature
	case errors.Is(err, ErrHostNotAllowed):
		return CodeHostNotAllowed
	case errors.Is(err, ErrPathNotAllowed):
		return CodePathNotAllowed
	}
	return ""
}
