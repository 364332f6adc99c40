package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nats.go/micro"
	"github.com/nats-io/nuid"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/session"
)

// NATS is the Backend of a running Toolyard: the "toolyard" micro service for
// find_tools, activate, resolve_intent and the session's set; the pipeline
// (a direct <tool_call> published as agent output, its result read back) for
// execute; the session's key in the sessions bucket for changes.
type NATS struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	timeout time.Duration
}

// NewNATS returns the backend over nc. timeout bounds each request and each
// execution (the service's own default when zero).
func NewNATS(nc *nats.Conn, timeout time.Duration) (*NATS, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = service.DefaultTimeout
	}
	return &NATS{nc: nc, js: js, timeout: timeout}, nil
}

// request sends a service request and decodes the reply into out; the
// service's error headers become the error.
func (n *NATS) request(ctx context.Context, subject string, req, out any) error {
	data, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if err := n.down(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, n.timeout)
	defer cancel()
	msg, err := n.nc.RequestWithContext(ctx, subject, data)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return fmt.Errorf("no Toolyard service answers %s: is 'toolyard up' (or a worker with the service) running? %w", subject, err)
		}
		return fmt.Errorf("%s: %w", subject, err)
	}
	if code := msg.Header.Get(micro.ErrorCodeHeader); code != "" {
		return fmt.Errorf("%s (%s)", msg.Header.Get(micro.ErrorHeader), code)
	}
	if raw, ok := out.(*json.RawMessage); ok {
		*raw = append((*raw)[:0], msg.Data...)
		return nil
	}
	if err := json.Unmarshal(msg.Data, out); err != nil {
		return fmt.Errorf("%s: bad reply: %w", subject, err)
	}
	return nil
}

// FindTools implements Backend.
func (n *NATS) FindTools(ctx context.Context, sess, query string, k int) (json.RawMessage, error) {
	if err := checkSession(sess); err != nil {
		return nil, err
	}
	var raw json.RawMessage
	err := n.request(ctx, service.SessionSubject(service.SubjectFindTools, sess), service.FindRequest{SessionID: sess, Query: query, K: k}, &raw)
	return raw, err
}

// Activate implements Backend.
func (n *NATS) Activate(ctx context.Context, sess, id string) (json.RawMessage, error) {
	if err := checkSession(sess); err != nil {
		return nil, err
	}
	var raw json.RawMessage
	err := n.request(ctx, service.SessionSubject(service.SubjectActivate, sess), service.ActivateRequest{SessionID: sess, ID: id}, &raw)
	return raw, err
}

// ResolveIntent implements Backend.
func (n *NATS) ResolveIntent(ctx context.Context, sess, text string) (schemas.Result, error) {
	if err := checkSession(sess); err != nil {
		return schemas.Result{}, err
	}
	var r schemas.Result
	err := n.request(ctx, service.SessionSubject(service.SubjectResolveIntent, sess), service.ResolveRequest{SessionID: sess, Text: text}, &r)
	return r, err
}

// ToolSet implements Backend.
func (n *NATS) ToolSet(ctx context.Context, sess string) (schemas.ToolSet, error) {
	if err := checkSession(sess); err != nil {
		return schemas.ToolSet{}, err
	}
	var s schemas.ToolSet
	err := n.request(ctx, service.SessionSubject(service.SubjectToolsList, sess), service.SessionRequest{SessionID: sess}, &s)
	return s, err
}

// Manifest implements Backend: asked of the service for the session, so
// a gateway with an agent's credential needs no access to the registry.
func (n *NATS) Manifest(ctx context.Context, sess, id string) (schemas.Manifest, error) {
	var m schemas.Manifest
	err := n.request(ctx, service.SessionSubject(service.SubjectToolsGet, sess), service.GetRequest{SessionID: sess, ID: id}, &m)
	return m, err
}

// WatchSet implements Backend: every write to the session's key in the
// sessions bucket, seen by a plain subscription to the key's subject (an
// agent's credential may not create consumers with a deliver subject, and
// a KV watch is one). Writes close together are told once, with the last.
//
// The set told is the one written, from the message itself: asking the
// service for it on the message's arrival could read the bucket before the
// stream has stored the write, and tell the client nothing changed.
func (n *NATS) WatchSet(ctx context.Context, sess string, changed func(schemas.ToolSet, error)) error {
	if err := checkSession(sess); err != nil {
		return err // a key with wildcards would watch every session's set
	}
	nc := n.js.Conn()
	// Holds the latest write not yet told. Callbacks of one subscription
	// run one at a time, so taking out an older write before putting the
	// new one in never blocks.
	latest := make(chan []byte, 1)
	sub, err := nc.Subscribe(session.SetSubject(sess), func(m *nats.Msg) {
		select {
		case <-latest:
		default:
		}
		latest <- m.Data
	})
	if err != nil {
		return fmt.Errorf("watch session %s: %w", sess, err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	// A subscription lives as long as its connection, which reconnects by
	// itself; only a closed one ends it.
	alive := time.NewTicker(time.Second)
	defer alive.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case value := <-latest:
			set, err := session.DecodeSet(sess, value)
			if err != nil {
				// The service reads it too, says so in its log and
				// answers the set it serves.
				set, err = n.ToolSet(ctx, sess)
			}
			changed(set, err)
		case <-alive.C:
			if !sub.IsValid() {
				return errors.New("session watch ended: the NATS connection is closed")
			}
		}
	}
}

// Execute implements Backend: the call goes through the pipeline as a
// direct <tool_call>, so it meets the same checks and effects as any other.
func (n *NATS) Execute(ctx context.Context, sess, toolID string, args map[string]any) (schemas.Result, error) {
	if err := checkSession(sess); err != nil {
		return schemas.Result{}, err
	}
	if args == nil {
		args = map[string]any{}
	}
	body, err := json.Marshal(args) // escapes < > &: the body cannot end the element
	if err != nil {
		return schemas.Result{}, fmt.Errorf("arguments: %w", err)
	}
	out := schemas.AgentOutput{V: schemas.Version, SessionID: sess, MessageID: "mcp-" + nuid.Next(),
		Text: fmt.Sprintf(`<tool_call name="%s">%s</tool_call>`, html.EscapeString(toolID), body)}
	data, err := json.Marshal(out)
	if err != nil {
		return schemas.Result{}, err
	}
	if err := n.down(); err != nil {
		return schemas.Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, n.timeout)
	defer cancel()
	results, err := pipeline.FollowFromEnd(ctx, n.js, pipeline.StreamResult, schemas.ResultSubject(sess))
	if err != nil {
		return schemas.Result{}, fmt.Errorf("read results: %w", err)
	}
	if _, err := n.js.Publish(ctx, schemas.AgentOutputSubject(sess), data, jetstream.WithMsgID(sess+":"+out.MessageID)); err != nil {
		return schemas.Result{}, fmt.Errorf("publish the call: %w", err)
	}
	reader, err := pipeline.NewReader(ctx, results)
	if err != nil {
		return schemas.Result{}, fmt.Errorf("read results: %w", err)
	}
	defer reader.Stop()
	for {
		msg, err := reader.Next()
		if err != nil {
			return schemas.Result{}, fmt.Errorf("no result for the call to %s within %s: %w", toolID, n.timeout, err)
		}
		var r schemas.Result
		if json.Unmarshal(msg.Data(), &r) != nil || r.MessageID != out.MessageID {
			continue
		}
		// The receipt lists the intent; an error receipt (bad input) is
		// the answer.
		if r.Status == schemas.StatusAccepted || (r.IntentID == "" && r.Status != schemas.StatusError) {
			continue
		}
		return r, nil
	}
}

// down says so when the connection to NATS is not up. A request sent then
// is buffered for the reconnect: the MCP client waited the whole timeout
// (a minute) for "context deadline exceeded", with nothing saying why.
func (n *NATS) down() error {
	st := n.nc.Status()
	if st == nats.CONNECTED {
		return nil
	}
	last := n.nc.LastError()
	// The server's "-ERR 'User Authentication Expired'" reaches nats.go's
	// LastError as text, not as its ErrAuthExpired.
	if errors.Is(last, nats.ErrAuthExpired) || errors.Is(last, nats.ErrAuthorization) ||
		(last != nil && strings.Contains(strings.ToLower(last.Error()), "authentication expired")) {
		// An expired credential: no reconnect helps.
		return fmt.Errorf("NATS refused the gateway's credential (%v; connection %s): if it expired, mint a new one ('toolyard creds agent --session S --ttl 1h --out FILE') and restart the gateway with it; nothing was sent", last, strings.ToLower(st.String()))
	}
	if st == nats.CLOSED {
		return fmt.Errorf("the gateway's connection to NATS is closed (%v): restart the gateway; nothing was sent", last)
	}
	return fmt.Errorf("the gateway is not connected to NATS (%s): is 'toolyard up' running? Nothing was sent; call again once it is back", strings.ToLower(st.String()))
}

// checkSession refuses a session id that is not one subject token before
// anything is sent: every subject and KV key the backend builds holds it.
func checkSession(sess string) error {
	if err := schemas.ValidateSessionID(sess); err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	return nil
}
