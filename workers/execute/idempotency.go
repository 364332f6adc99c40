package execute

import (
	"context"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/effects"
)

// EnvIdempotencyKey names the variable that carries the call's
// idempotency key to a subprocess tool.
const EnvIdempotencyKey = "TOOLYARD_IDEMPOTENCY_KEY"

// CallIdempotencyKey derives a call's idempotency key from its session and
// intent id, which stay the same across redeliveries and retries: two
// sessions may use the same message ids, so the intent id alone is not
// unique. Empty when the call has no intent id.
func CallIdempotencyKey(call schemas.ToolCall) string {
	if call.IntentID == "" {
		return ""
	}
	return effects.ID{SessionID: call.SessionID, IntentID: call.IntentID}.IdempotencyKey()
}

// withCallKey sets the call's key in ctx (ContextWithIdempotencyKey)
// unless the caller set one, so every runner hands the tool the same key.
func withCallKey(ctx context.Context, call schemas.ToolCall) context.Context {
	if k, _ := ctx.Value(idempotencyKeyCtx{}).(string); k != "" {
		return ctx
	}
	if k := CallIdempotencyKey(call); k != "" {
		return ContextWithIdempotencyKey(ctx, k)
	}
	return ctx
}
