// Package service is Toolyard's NATS request/reply interface (nats.go
// micro, service name "toolyard"): resolve an intent, find and activate
// tools, list and end a session's tool set — the pipeline's stage cores,
// run in-process, for clients that want an answer to a request rather than
// a stream of results.
package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/stages"
)

// Name and version of the micro service.
const (
	Name    = "toolyard"
	Version = "1.0.0"
)

// Endpoint subjects: each takes the session as its last token,
// SessionSubject(SubjectFindTools, "s1") = "toolyard.find_tools.s1", so a
// credential can be limited to its own sessions' requests. The body's
// session_id may be left out; when given it must be the subject's.
const (
	SubjectResolveIntent = "toolyard.resolve_intent"
	SubjectFindTools     = "toolyard.find_tools"
	SubjectActivate      = "toolyard.activate"
	SubjectToolsList     = "toolyard.tools.list"
	SubjectToolsGet      = "toolyard.tools.get"
	SubjectSessionEnd    = "toolyard.session.end"
	SubjectFeedback      = "toolyard.feedback"
)

// SessionSubject is the subject of an endpoint's requests for a session.
func SessionSubject(endpoint, session string) string { return endpoint + "." + session }

// Endpoints lists the endpoint subjects (without the session token).
func Endpoints() []string {
	out := make([]string, len(endpointTable))
	for i, ep := range endpointTable {
		out[i] = ep.subject
	}
	return out
}

// endpoint is one request/reply operation of the service.
type endpoint struct {
	name, subject string
	handle        func(*Service, context.Context, []byte) (any, error)
	doc           string
}

var endpointTable = []endpoint{
	{"resolve_intent", SubjectResolveIntent, (*Service).resolveIntent, `{["session_id"],"text",["message_id","conversation","scope"]} → Result`},
	{"find_tools", SubjectFindTools, (*Service).findTools, `{["session_id"],"query",["k","scope"]} → matches, added, tools`},
	{"activate", SubjectActivate, (*Service).activate, `{["session_id"],"id",["scope"]} → the tool's usage, tools`},
	{"tools_list", SubjectToolsList, (*Service).toolsList, `{["session_id"]} → ToolSet`},
	{"tools_get", SubjectToolsGet, (*Service).toolsGet, `{["session_id"],"id"} → Manifest`},
	{"session_end", SubjectSessionEnd, (*Service).sessionEnd, `{["session_id"]} → {"session_id","ended","cleared"}`},
	{"feedback", SubjectFeedback, (*Service).feedback, `{["session_id"],"intent_id",("tool_id"|"wrong")} → {"recorded","subject",["tier","verdict"]}`},
}

// Error codes in the Nats-Service-Error-Code header.
const (
	codeBadRequest = "400"
	codeNotFound   = "404"
	codeFailed     = "500"
	codeUnavail    = "503"
)

// DefaultTimeout bounds one request's work.
const DefaultTimeout = 60 * time.Second

// Option configures the service.
type Option func(*Service)

// WithTimeout bounds one request's work (DefaultTimeout).
func WithTimeout(d time.Duration) Option { return func(s *Service) { s.timeout = d } }

// WithLogger sets the logger (slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// Service answers requests with a stage set's cores.
type Service struct {
	nc      *nats.Conn
	set     *stages.Set
	svc     micro.Service
	timeout time.Duration
	log     *slog.Logger
}

// Start registers the service on nc. Every process that starts it joins
// the same queue group, so requests are spread over them.
func Start(nc *nats.Conn, set *stages.Set, opts ...Option) (*Service, error) {
	s := &Service{nc: nc, set: set, timeout: DefaultTimeout, log: slog.Default()}
	for _, o := range opts {
		o(s)
	}
	svc, err := micro.AddService(nc, micro.Config{
		Name: Name, Version: Version,
		Description: "Toolyard: resolve plain-language tool intents; session tool sets",
	})
	if err != nil {
		return nil, fmt.Errorf("start the toolyard service: %w", err)
	}
	s.svc = svc
	g := svc.AddGroup("toolyard")
	for _, ep := range endpointTable {
		err := g.AddEndpoint(ep.name, s.handler(ep.name, ep.handle),
			micro.WithEndpointSubject(strings.TrimPrefix(ep.subject, "toolyard.")+".*"),
			micro.WithEndpointMetadata(map[string]string{"format": "application/json", "request_response": ep.doc}))
		if err != nil {
			_ = svc.Stop()
			return nil, fmt.Errorf("add endpoint %s: %w", ep.name, err)
		}
	}
	return s, nil
}

// Stop stops answering.
func (s *Service) Stop() error { return s.svc.Stop() }

// Info is the micro service's info.
func (s *Service) Info() micro.Info { return s.svc.Info() }

// requestError is a bad request or a failure with its error code.
type requestError struct {
	code string
	err  error
}

func (e *requestError) Error() string { return e.err.Error() }
func (e *requestError) Unwrap() error { return e.err }

func badRequest(format string, args ...any) error {
	return &requestError{code: codeBadRequest, err: fmt.Errorf(format, args...)}
}

func (s *Service) handler(name string, h func(*Service, context.Context, []byte) (any, error)) micro.Handler {
	return micro.HandlerFunc(func(req micro.Request) {
		if err := CheckReply(req.Reply()); err != nil {
			// Not answered, not even with an error: the answer would go
			// where the requester may not publish.
			s.log.Warn("service request refused", "endpoint", name, "subject", req.Subject(), "error", err)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
		defer cancel()
		var out any
		data, err := withSubjectSession(req.Subject(), req.Data())
		if err == nil {
			out, err = h(s, ctx, data)
		}
		if err != nil {
			code := codeFailed
			var re *requestError
			if errors.As(err, &re) {
				code = re.code
			}
			s.log.Debug("service request failed", "endpoint", name, "code", code, "error", err)
			_ = req.Error(code, oneLine(err.Error()), nil)
			return
		}
		if err := req.RespondJSON(out); err != nil {
			s.log.Warn("service reply not sent", "endpoint", name, "error", err)
		}
	})
}

// replyDenied are the first tokens of Toolyard's stream subjects and of
// its service: an answer published there would land in a stream (another
// session's results or agent outputs, the audit, a stage's work) or reach
// an endpoint.
var replyDenied = []string{"agent", "pipe", "result", "audit", "dlq", "replay", Name, pipeline.APIProxy}

// CheckReply refuses a reply subject the service must not answer on. The
// requester picks the reply subject and no permission of its own limits
// it, while the answer is published with the worker's credential, which
// may write every stage's stream, the buckets and the JetStream API: an
// agent could have its answers written as another session's results, as
// audit records or into a bucket. Inboxes and other subjects of clients
// pass; those of JetStream, the buckets, the server ('$...') and
// Toolyard's streams do not. An empty reply (a publish) has no answer.
func CheckReply(reply string) error {
	first, _, _ := strings.Cut(reply, ".")
	if strings.HasPrefix(first, "$") || slices.Contains(replyDenied, first) {
		return fmt.Errorf("reply subject %q is not an inbox: answers never go to the JetStream API, buckets, the server or Toolyard's streams", reply)
	}
	return nil
}

// withSubjectSession makes the body's session the subject's: filled in
// when the body leaves it out, refused when the body names another one (a
// credential limited to its own sessions' subjects must not reach others
// through the body).
func withSubjectSession(subject string, data []byte) ([]byte, error) {
	sess := subject[strings.LastIndexByte(subject, '.')+1:]
	if err := schemas.ValidateSessionID(sess); err != nil {
		return nil, badRequest("the subject's session token: %v", err)
	}
	// Decoding would replace bad bytes with U+FFFD and the request would
	// run with text nobody wrote.
	if err := schemas.CheckJSONUTF8(data); err != nil {
		return nil, badRequest("%v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(data, &body); err != nil {
		return nil, badRequest("request is not a JSON object: %v", err)
	}
	if raw, ok := body["session_id"]; ok {
		var named string
		if err := json.Unmarshal(raw, &named); err != nil || named != sess {
			return nil, badRequest("session_id %s is not this subject's session %q", raw, sess)
		}
		return data, nil
	}
	body["session_id"], _ = json.Marshal(sess)
	return json.Marshal(body)
}

// decode reads a request body strictly: unknown fields are mistakes worth
// reporting, not ignoring.
func decode(data []byte, v any) error {
	if len(data) == 0 {
		return badRequest("empty request: send a JSON object")
	}
	dec := json.NewDecoder(bytesReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("request is not valid JSON for this endpoint: %v", err)
	}
	return nil
}

// oneLine keeps an error description header-safe.
func oneLine(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '\r' || c == '\n' {
			b[i] = ' '
		}
	}
	if len(b) > 1024 {
		b = append(b[:1021], "..."...)
	}
	return string(b)
}

func withTime(r schemas.Result) schemas.Result {
	if r.V == 0 {
		r.V = schemas.Version
	}
	if r.Timestamp.IsZero() {
		r.Timestamp = time.Now().UTC()
	}
	return r
}
