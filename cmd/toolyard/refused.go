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
	mu      sync.Mutex
	cancel  context.CancelCauseFunc
	err     error
	stopped bool // the refusal cancelled the command
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

// cancelled says whether the refusal ended the command.
func (r *refusal) cancelled() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopped
}

// option is the error handler of a client command's connection: the first
// permissions violation cancels the command with a cause naming the
// credential; other asynchronous errors are logged.
func (r *refusal) option(creds string) nats.Option { return r.handler(creds, true, clientHint) }

// observe is the error handler of a long-running process's connection
// (worker, up --external): a refusal is logged and kept, to be named if the
// process then fails, but ends nothing (an execute worker's NATS-request
// tool refused on its connection is that call's error, not the worker's).
func (r *refusal) observe(creds string) nats.Option { return r.handler(creds, false, workerHint) }

// What a refused credential covers, as a client command and a stage
// process use them.
const (
	clientHint = "an agent credential covers only its own sessions: 'toolyard creds agent --session S'; registry, streams, models and the DLQ need the admin credential, DATA/creds/admin.creds"
	workerHint = "a worker credential covers only its stages: 'toolyard creds worker --stage S', or DATA/creds/worker.creds for every stage"
)

func (r *refusal) handler(creds string, cancel bool, hint string) nats.Option {
	return nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if !errors.Is(err, nats.ErrPermissionViolation) {
			slog.Warn("NATS", "error", err)
			return
		}
		refused := refusedError(err, creds, hint)
		if !cancel {
			slog.Warn("NATS refused an operation", "error", refused)
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.err != nil {
			return
		}
		r.err = refused
		if cancel && r.cancel != nil {
			r.stopped = true
			r.cancel(r.err)
		}
	})
}

// refusedError says what was refused to which credential, and which
// credential would be allowed.
func refusedError(err error, creds, hint string) error {
	what := strings.TrimSpace(strings.TrimPrefix(err.Error(), nats.ErrPermissionViolation.Error()+":"))
	if i := strings.Index(what, " on connection"); i > 0 {
		what = what[:i]
	}
	return fmt.Errorf("%w: the server refused %s: %s (%s)", nats.ErrPermissionViolation, credsName(creds), what, hint)
}
