package service

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline"
)

// APIProxy answers the JetStream requests of agents that need a check
// (the AGENTS account imports them renamed under pipeline.APIProxy). A
// consumer-create request is passed on for a pull consumer and refused
// for one with a deliver subject, which the server would publish to in
// Toolyard's account wherever the agent says (a bucket, a stream), or a
// durable one, which would outlive the agent. A stream-info request is
// passed on without its options: its subjects filter would list every
// subject of the stream, one per session. NATS has no permission on a
// request's content, so a small check in Toolyard is the way. Every 'up'
// and worker runs one (agents read their results through it), in one
// queue group.
type APIProxy struct {
	nc      *nats.Conn
	sub     *nats.Subscription
	timeout time.Duration
	log     *slog.Logger
}

// StartAPIProxy starts answering on nc; log nil is slog.Default().
func StartAPIProxy(nc *nats.Conn, log *slog.Logger) (*APIProxy, error) {
	if log == nil {
		log = slog.Default()
	}
	p := &APIProxy{nc: nc, timeout: DefaultTimeout, log: log}
	sub, err := nc.QueueSubscribe(pipeline.APIProxy+".>", Name, p.serve)
	if err != nil {
		return nil, fmt.Errorf("start the agents' JetStream proxy: %w", err)
	}
	p.sub = sub
	return p, nil
}

// Stop stops answering.
func (p *APIProxy) Stop() error { return p.sub.Unsubscribe() }

// consumerCreate is what the proxy reads of a JetStream consumer-create
// request.
type consumerCreate struct {
	Config struct {
		DeliverSubject string `json:"deliver_subject"`
		Durable        string `json:"durable_name"`
	} `json:"config"`
}

func (p *APIProxy) serve(m *nats.Msg) {
	if m.Reply == "" {
		return // nobody to tell
	}
	if err := CheckReply(m.Reply); err != nil {
		p.log.Warn("JetStream request refused", "subject", m.Subject, "error", err)
		return
	}
	verb := strings.TrimPrefix(m.Subject, pipeline.APIProxy+".")
	api := "$JS.API." + verb
	body, refused := m.Data, ""
	kind := "consumer_create"
	// Only what pipeline.AgentShares routes here, on the results stream.
	switch {
	case strings.HasPrefix(verb, "CONSUMER.CREATE."+pipeline.StreamResult+"."):
		refused = checkConsumerCreate(m.Data)
	case verb == "STREAM.INFO."+pipeline.StreamResult:
		kind, body = "stream_info", nil // the state alone: no subjects, no deleted list
	default:
		kind, refused = "system", "not a request agents may make"
	}
	if refused != "" {
		p.log.Warn("JetStream request refused", "subject", api, "reason", refused)
		p.respondAPIError(m, kind, 400, refused)
		return
	}
	resp, err := p.nc.RequestMsg(&nats.Msg{Subject: api, Data: body, Header: m.Header}, p.timeout)
	if err != nil {
		p.log.Warn("JetStream request not passed on", "subject", api, "error", err)
		p.respondAPIError(m, kind, 503, "not passed on: "+err.Error())
		return
	}
	if err := m.Respond(resp.Data); err != nil {
		p.log.Warn("JetStream reply not sent", "subject", api, "error", err)
	}
}

// checkConsumerCreate says why a consumer-create request is refused ("" when
// it is not).
func checkConsumerCreate(data []byte) string {
	var req consumerCreate
	switch err := json.Unmarshal(data, &req); {
	case err != nil:
		return fmt.Sprintf("the request is not a consumer configuration: %v", err)
	case req.Config.DeliverSubject != "":
		return "an agent may not create a push consumer (deliver_subject " + req.Config.DeliverSubject + "): read with a pull consumer, such as an ordered consumer"
	case req.Config.Durable != "":
		return "an agent may not create a durable consumer (" + req.Config.Durable + "): use an ephemeral one, such as an ordered consumer"
	}
	return ""
}

// respondAPIError answers as the JetStream API does, so the agent's
// client reports the reason as an API error.
func (p *APIProxy) respondAPIError(m *nats.Msg, kind string, code int, description string) {
	body, _ := json.Marshal(map[string]any{
		"type":  "io.nats.jetstream.api.v1." + kind + "_response",
		"error": map[string]any{"code": code, "description": description},
	})
	if err := m.Respond(body); err != nil {
		p.log.Warn("consumer reply not sent", "subject", m.Subject, "error", err)
	}
}
