package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"github.com/nats-io/nats.go"
)

// lastDenied is the last permissions violation the server reported on any
// connection of this process. A JetStream API request the server refuses
// is never answered, so the command fails with "context deadline
// exceeded"; withDeniedHint says why.
var lastDenied atomic.Pointer[string]

// recordDenied is every connection's asynchronous error handler: it keeps
// the last permissions violation and prints each error as nats.go's
// default handler does.
func recordDenied(nc *nats.Conn, sub *nats.Subscription, err error) {
	if errors.Is(err, nats.ErrPermissionViolation) {
		s := strings.TrimPrefix(err.Error(), nats.ErrPermissionViolation.Error()+": ")
		lastDenied.Store(&s)
	}
	var cid uint64
	if nc != nil {
		cid, _ = nc.GetClientID()
	}
	if sub != nil {
		fmt.Fprintf(os.Stderr, "%v on connection [%d] for subscription on %q\n", err, cid, sub.Subject)
		return
	}
	fmt.Fprintf(os.Stderr, "%v on connection [%d]\n", err, cid)
}

// withDeniedHint explains a request that timed out after the server
// refused one of this process's publishes.
func withDeniedHint(err error) error {
	denied := lastDenied.Load()
	if denied == nil || !(errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout)) {
		return err
	}
	return fmt.Errorf("%w: the server refused a request (%s): this credential may not do it; streams apply, dlq replay and purge, tools and models changes need the admin credential (DATA/creds/admin.creds)", err, *denied)
}
