package gateway

import (
	"context"
	"encoding/json"

	"github.com/toolyard/toolyard/schemas"
)

// Backend is what the facade asks of Toolyard.
type Backend interface {
	// FindTools searches for tools and adds the good ones to the session's
	// set; the reply is the service's JSON answer.
	FindTools(ctx context.Context, session, query string, k int) (json.RawMessage, error)
	// Activate adds a tool to the session's set.
	Activate(ctx context.Context, session, id string) (json.RawMessage, error)
	// ResolveIntent discovers, resolves and (when sure) runs an intent in
	// plain words.
	ResolveIntent(ctx context.Context, session, text string) (schemas.Result, error)
	// Execute runs a tool with arguments as a direct call.
	Execute(ctx context.Context, session, toolID string, args map[string]any) (schemas.Result, error)
	// ToolSet is the session's active set.
	ToolSet(ctx context.Context, session string) (schemas.ToolSet, error)
	// Manifest is a registered tool.
	Manifest(ctx context.Context, session, id string) (schemas.Manifest, error)
	// WatchSet calls changed with the session's set whenever it has
	// changed (or with an error when the new set could not be read),
	// until ctx ends. A backend that cannot watch returns at once; the
	// facade then refreshes after its own calls.
	WatchSet(ctx context.Context, session string, changed func(schemas.ToolSet, error)) error
}
