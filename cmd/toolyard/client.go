package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/pipeline/auth"
)

// openClient connects a client command to the running toolyard's NATS and
// opens what the command needs there; the returned func closes the
// connection.
func openClient[T any](g *globalFlags, name string, open func(jetstream.JetStream) (T, error)) (T, func(), error) {
	var zero T
	nc, err := g.clientConnect(name)
	if err != nil {
		return zero, nil, withUpHint(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return zero, nil, err
	}
	v, err := open(js)
	if err != nil {
		nc.Close()
		return zero, nil, err
	}
	return v, nc.Close, nil
}

// withUpHint adds the likeliest cause of a failed connection, unless the
// server answered and refused the credentials, or no server was asked: the
// credentials file itself is at fault.
func withUpHint(err error) error {
	var bad *auth.FileError
	if errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) || errors.As(err, &bad) {
		return err
	}
	return fmt.Errorf("%w (is 'toolyard up' running?)", err)
}

// drainWait drains nc and waits until it is closed (5 s at most). Drain
// alone returns at once: a process returning next shut its embedded server
// down under the draining connection (nats.go then printed "io: read/write
// on closed pipe" below the command's error) or exited before the drain
// had flushed.
func drainWait(nc *nats.Conn) {
	closed := make(chan struct{})
	nc.SetClosedHandler(func(*nats.Conn) { close(closed) })
	if err := nc.Drain(); err != nil {
		nc.Close()
		return
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		nc.Close()
	}
}

// requestService asks an endpoint of Toolyard's micro service and returns
// its answer; an error answer (the service's error headers) or no service
// at all is an error saying so.
func requestService(ctx context.Context, nc *nats.Conn, subject string, body []byte) ([]byte, error) {
	msg, err := nc.RequestWithContext(ctx, subject, body)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, errors.New("no toolyard service answers (start 'toolyard up', or a worker with --service)")
	}
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", subject, err)
	}
	if code := msg.Header.Get(micro.ErrorCodeHeader); code != "" {
		return nil, fmt.Errorf("%s refused (%s): %s", subject, code, msg.Header.Get(micro.ErrorHeader))
	}
	return msg.Data, nil
}
