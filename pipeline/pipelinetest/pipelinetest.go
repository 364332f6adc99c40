// Package pipelinetest starts real embedded NATS servers for tests.
package pipelinetest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/auth"
)

// Env is a running embedded server with the topology in place.
type Env struct {
	Server *pipeline.Server
	NC     *nats.Conn
	JS     jetstream.JetStream
	// Topology is the topology the server was given: the default one,
	// fitted to its store. A test that changes a stream starts from it,
	// not from pipeline.DefaultTopology, whose sizes a fuller disk cannot
	// reserve.
	Topology pipeline.Topology
}

// Start starts an embedded server on a free loopback port with its data in a
// temporary directory (or dir, if given), creates the topology, and stops
// everything when the test ends.
func Start(t testing.TB, dir ...string) *Env {
	t.Helper()
	d := t.TempDir()
	if len(dir) > 0 {
		d = dir[0]
	}
	srv, err := pipeline.StartServer(pipeline.WithDataDir(d), pipeline.WithListen("127.0.0.1", -1))
	if err != nil {
		t.Fatal(err)
	}
	// An admin credential where 'toolyard up' writes it, for processes
	// the test starts against this server.
	admin, err := srv.Keys().Mint(auth.User{Name: "pipelinetest-admin"})
	if err == nil {
		err = admin.WriteFile(AdminCreds(d))
	}
	if err != nil {
		srv.Shutdown()
		t.Fatal(err)
	}
	nc, err := srv.Connect()
	if err != nil {
		srv.Shutdown()
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Fitted to the store, as up does, so that tests run on a fuller disk.
	topo, _, err := pipeline.DefaultTopology().FitTo(ctx, js, srv.MaxStore())
	if err == nil {
		err = topo.Ensure(ctx, js)
	}
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Server: srv, NC: nc, JS: js, Topology: topo}
	t.Cleanup(env.Stop)
	return env
}

// AdminCreds is the admin credential of the server with data in dir.
func AdminCreds(dir string) string { return filepath.Join(dir, "creds", "admin.creds") }

// Stop closes the connection and shuts the server down; safe to call twice.
func (e *Env) Stop() {
	if !e.NC.IsClosed() {
		e.NC.Close()
	}
	e.Server.Shutdown()
}

// Collect reads every message stored on subject (in its stream) within wait,
// stopping early once n have arrived.
func (e *Env) Collect(t testing.TB, stream, subject string, n int, wait time.Duration) []jetstream.Msg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cons, err := e.JS.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subject}})
	if err != nil {
		t.Fatalf("consumer on %s %s: %v", stream, subject, err)
	}
	var out []jetstream.Msg
	for len(out) < n {
		m, err := cons.Next(jetstream.FetchContext(ctx))
		if err != nil {
			break
		}
		out = append(out, m)
	}
	return out
}

// WaitEmpty waits up to wait until stream holds no message (the work
// between stages is all acknowledged), and fails the test if it still does.
func WaitEmpty(t testing.TB, js jetstream.JetStream, stream string, wait time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(wait); ; time.Sleep(20 * time.Millisecond) {
		s, err := js.Stream(context.Background(), stream)
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("stream %s still holds %d messages", stream, info.State.Msgs)
		}
	}
}
