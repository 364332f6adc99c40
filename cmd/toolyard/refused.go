package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
)

// refusal ends a client command as soon as the server refuses one of its
// operations. The server reports a permissions violation asynchronously
// (the request it refused is simply never answered), so without this a
// client command waits for its timeout and then reports "context deadline
// exceeded", hiding the one thing the user must change: the credential.
type refusal struct {
	mu     sync.Mutex
	cancel context.CancelCauseFunc
	err    error
}

// withContext derives the command's context, cancelled when the server
// refuses an operation.
func (r *refusal) withContext(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancelCause(ctx)
	r.mu.Lock()
	r.cancel = cancel
	r.mu.Unlock()
	return ctx
}

// refused is the first refusal, nil when there was none.
func (r *refusal) refused() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// option is the error handler of a client command's connection: the first
// permissions violation cancels the command with a cause naming the
// credential; other asynchronous errors are logged.
func (r *refusal) option(creds string) nats.Option {
	return nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if !errors.Is(err, nats.ErrPermissionViolation) {
			slog.Warn("NATS", "error", err)
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.err != nil {
			return
		}
		r.err = refusedError(err, creds)
		if r.cancel != nil {
			r.cancel(r.err)
		}
	})
}

// refusedError says what was refused to which credential, and which
// credential would be allowed.
func refusedError(err error, creds string) error {
	what := strings.TrimSpace(strings.TrimPrefix(err.Error(), nats.ErrPermissionViolation.Error()+":"))
	if i := strings.Index(what, " on connection"); i > 0 {
		what = what[:i]
	}
	return fmt.Errorf("%w: the server refused %s: %s (an agent credential covers only its own sessions: 'toolyard creds agent --session S'; registry, streams, models and the DLQ need the admin credential, DATA/creds/admin.creds)",
		nats.ErrPermissionViolation, credsName(creds), what)
}
