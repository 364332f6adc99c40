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

// ConsumerProxy answers the consumer-create requests of agents (the
// AGENTS account imports "$JS.API.CONSUMER.CREATE.<stream>.>" renamed to
// pipeline.ConsumerCreateProxy): it passes on pull consumers and refuses
// consumers with a deliver subject, which the server would publish to in
// Toolyard's account wherever the agent says (a bucket, a stream), and
// durable ones, which would outlive the agent. NATS has no permission on
// a request's content, so a small check in Toolyard is the way. Every
// 'up' and worker runs one (agents read their results through it), in one
// queue group.
type ConsumerProxy struct {
	nc      *nats.Conn
	sub     *nats.Subscription
	timeout time.Duration
	log     *slog.Logger
}

// StartConsumerProxy starts answering on nc; log nil is slog.Default().
func StartConsumerProxy(nc *nats.Conn, log *slog.Logger) (*ConsumerProxy, error) {
	if log == nil {
		log = slog.Default()
	}
	p := &ConsumerProxy{nc: nc, timeout: DefaultTimeout, log: log}
	sub, err := nc.QueueSubscribe(pipeline.ConsumerCreateProxy+".>", Name, p.serve)
	if err != nil {
		return nil, fmt.Errorf("start the agents' consumer proxy: %w", err)
	}
	p.sub = sub
	return p, nil
}

// Stop stops answering.
func (p *ConsumerProxy) Stop() error { return p.sub.Unsubscribe() }

// consumerCreate is what the proxy reads of a JetStream consumer-create
// request.
type consumerCreate struct {
	Config struct {
		DeliverSubject string `json:"deliver_subject"`
		Durable        string `json:"durable_name"`
	} `json:"config"`
}

func (p *ConsumerProxy) serve(m *nats.Msg) {
	if m.Reply == "" {
		return // nobody to tell
	}
	if err := CheckReply(m.Reply); err != nil {
		p.log.Warn("consumer request refused", "subject", m.Subject, "error", err)
		return
	}
	api := "$JS.API.CONSUMER.CREATE" + strings.TrimPrefix(m.Subject, pipeline.ConsumerCreateProxy)
	var req consumerCreate
	var refused string
	switch err := json.Unmarshal(m.Data, &req); {
	case err != nil:
		refused = fmt.Sprintf("the request is not a consumer configuration: %v", err)
	case req.Config.DeliverSubject != "":
		refused = "an agent may not create a push consumer (deliver_subject " + req.Config.DeliverSubject + "): read with a pull consumer, such as an ordered consumer"
	case req.Config.Durable != "":
		refused = "an agent may not create a durable consumer (" + req.Config.Durable + "): use an ephemeral one, such as an ordered consumer"
	}
	if refused != "" {
		p.log.Warn("consumer request refused", "subject", api, "reason", refused)
		p.respondAPIError(m, 400, refused)
		return
	}
	resp, err := p.nc.RequestMsg(&nats.Msg{Subject: api, Data: m.Data, Header: m.Header}, p.timeout)
	if err != nil {
		p.log.Warn("consumer request not passed on", "subject", api, "error", err)
		p.respondAPIError(m, 503, "consumer not created: "+err.Error())
		return
	}
	if err := m.Respond(resp.Data); err != nil {
		p.log.Warn("consumer reply not sent", "subject", api, "error", err)
	}
}

// respondAPIError answers as the JetStream API does, so the agent's
// client reports the reason as an API error.
func (p *ConsumerProxy) respondAPIError(m *nats.Msg, code int, description string) {
	body, _ := json.Marshal(map[string]any{
		"type":  "io.nats.jetstream.api.v1.consumer_create_response",
		"error": map[string]any{"code": code, "description": description},
	})
	if err := m.Respond(body); err != nil {
		p.log.Warn("consumer reply not sent", "subject", m.Subject, "error", err)
	}
}
