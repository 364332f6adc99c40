package main

import (
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
)

// openClient connects a client command to the running toolyard's NATS and
// opens what the command needs there; the returned func closes the
// connection.
func openClient[T any](g *globalFlags, name string, open func(jetstream.JetStream) (T, error)) (T, func(), error) {
	var zero T
	nc, err := pipeline.Connect(g.nats, name)
	if err != nil {
		return zero, nil, fmt.Errorf("%w (is 'toolyard up' running?)", err)
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
