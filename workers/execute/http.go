package execute

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/schemas"
)

// remoteConfig is what the http and nats executors need.
type remoteConfig struct {
	nc *nats.Conn
}

// maxRedirects is how many redirects an http tool may follow, each to an
// allowed host.
const maxRedirects = 10

// IdempotencyHeader carries the call's idempotency key (IdempotencyKey) to
// http and nats tools, so a tool with side effects can recognise a repeated
// request.
const IdempotencyHeader = "Idempotency-Key"

type hostsKey struct{}

var (
	httpClientOnce sync.Once
	httpClient     *http.Client
)

// sharedHTTPClient is one client (one connection pool) for every http
// tool. Each request carries its tool's allowed hosts in its context, and
// every redirect is checked against them before it is followed.
func sharedHTTPClient() *http.Client {
	httpClientOnce.Do(func() {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 16
		// Every connection's address is checked as it is dialled
		// (dialguard.go). A proxy would hide the address reached, so http
		// tools connect directly.
		tr.Proxy = nil
		tr.DialContext = guardedDial(newDialer())
		httpClient = &http.Client{
			Transport: tr,
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				hosts, _ := req.Context().Value(hostsKey{}).(hostList)
				if !hosts.allows(req.URL) {
					return &hostError{url: req.URL, hosts: hosts, redirect: true}
				}
				if len(via) >= maxRedirects {
					return fmt.Errorf("stopped after %d redirects", maxRedirects)
				}
				return nil
			},
		}
	})
	return httpClient
}

type hostError struct {
	url      *url.URL
	hosts    hostList
	redirect bool
}

func (e *hostError) Error() string {
	what := "request to"
	if e.redirect {
		what = "redirect to"
	}
	return fmt.Sprintf("%s %s refused: host %s is not in allowed_hosts (%s)", what, redactURL(e.url), e.url.Host, e.hosts)
}

// redactURL drops the query, which may carry parameters, from messages.
func redactURL(u *url.URL) string {
	c := *u
	c.RawQuery, c.User, c.Fragment = "", nil, ""
	return c.String()
}

// runHTTP sends m's request for call and returns the response: its body
// (decoded when it is JSON), capped at the output limit, and its status.
// 5xx, 408, 429, refused connections and timeouts are transient; other
// 4xx are a *ToolError carrying the start of the body.
func (e *Executor) runHTTP(ctx context.Context, m schemas.Manifest, call schemas.ToolCall, params map[string]any, info *paramInfo) (schemas.ToolOutput, error) {
	x := m.Executor
	req, err := buildHTTP(m, params, info)
	if err != nil {
		return schemas.ToolOutput{}, err
	}
	hosts, err := parseHosts(x.AllowedHosts)
	if err != nil {
		return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: %w", m.ID, err)
	}
	if len(hosts) == 0 {
		// The URL's own host (and port): redirects stay on it.
		if hosts, err = parseHosts([]string{req.url.Host}); err != nil {
			return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: %w", m.ID, err)
		}
	}
	if !hosts.allows(req.url) {
		return schemas.ToolOutput{}, badCall(ErrHostNotAllowed, "tool %s: %w", m.ID, &hostError{url: req.url, hosts: hosts})
	}
	timeout := time.Duration(x.Timeout)
	if timeout <= 0 {
		timeout = e.cfg.timeout
	}
	maxOut := x.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = e.cfg.maxOutput
	}
	rctx, cancel := context.WithTimeout(context.WithValue(ctx, hostsKey{}, hosts), timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(rctx, req.method, req.url.String(), bytes.NewReader(req.body))
	if err != nil {
		return schemas.ToolOutput{}, badCall(ErrUnsupported, "tool %s: %w", m.ID, err)
	}
	hr.Header = req.header
	if hr.Header.Get("User-Agent") == "" {
		hr.Header.Set("User-Agent", "toolyard")
	}
	if k := IdempotencyKey(ctx, call); hr.Header.Get(IdempotencyHeader) == "" && k != "" {
		hr.Header.Set(IdempotencyHeader, k)
	}
	injectTraceHTTP(ctx, hr.Header)
	start := time.Now()
	resp, err := sharedHTTPClient().Do(hr)
	if err != nil {
		return schemas.ToolOutput{}, e.httpFailure(ctx, rctx, m, timeout, err)
	}
	defer resp.Body.Close()
	// A redirect chain is checked hop by hop; the final URL once more, in
	// case the client ever reaches it another way.
	if !hosts.allows(resp.Request.URL) {
		return schemas.ToolOutput{}, badCall(ErrHostNotAllowed, "tool %s: %w", m.ID, &hostError{url: resp.Request.URL, hosts: hosts, redirect: true})
	}
	body := &headBuffer{max: maxOut}
	if _, err := io.Copy(body, io.LimitReader(resp.Body, int64(maxOut)+1)); err != nil {
		return schemas.ToolOutput{}, e.httpFailure(ctx, rctx, m, timeout, err)
	}
	out := schemas.ToolOutput{
		Content:    responseContent(resp.Header.Get("Content-Type"), body),
		Truncated:  body.truncated,
		StatusCode: resp.StatusCode,
		DurationMS: float64(time.Since(start).Microseconds()) / 1000,
	}
	e.cfg.log.Debug("http tool answered", "tool", m.ID, "intent_id", call.IntentID, "status", resp.StatusCode,
		"bytes", len(body.buf), "truncated", body.truncated)
	switch code := resp.StatusCode; {
	case code >= 500, code == http.StatusRequestTimeout, code == http.StatusTooManyRequests:
		return out, transient(fmt.Errorf("tool %s: %s answered %s: %s", m.ID, redactURL(resp.Request.URL), resp.Status, preview(body.text())))
	case code >= 400:
		return out, &ToolError{ToolID: m.ID, Output: out,
			Message: fmt.Sprintf("tool %s: %s answered %s: %s", m.ID, redactURL(resp.Request.URL), resp.Status, preview(body.text()))}
	}
	return out, nil
}

// httpFailure classifies a request that got no response.
func (e *Executor) httpFailure(ctx, rctx context.Context, m schemas.Manifest, timeout time.Duration, err error) error {
	var he *hostError
	var ae *addrError
	switch {
	case errors.As(err, &he):
		return badCall(ErrHostNotAllowed, "tool %s: %w", m.ID, he)
	case errors.As(err, &ae):
		e.cfg.log.Warn("http tool refused: host resolved to an internal address", "tool", m.ID, "host", ae.host, "address", ae.addr.String())
		return badCall(ErrHostNotAllowed, "tool %s: %w", m.ID, ae)
	case ctx.Err() != nil:
		return transient(ctx.Err())
	case errors.Is(rctx.Err(), context.DeadlineExceeded):
		return transient(fmt.Errorf("tool %s: no response within %s: %w", m.ID, timeout, context.DeadlineExceeded))
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return badCall(ErrUnsupported, "tool %s: host %s not found", m.ID, dnsErr.Name)
	}
	// Not net.Error: every *url.Error implements it, TLS failures included.
	var opErr *net.OpError
	var netErr net.Error
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, io.EOF) || errors.As(err, &opErr) || errors.As(err, &netErr) && netErr.Timeout() {
		return transient(fmt.Errorf("tool %s: %w", m.ID, err))
	}
	// TLS failures, too many redirects, malformed responses: the same
	// request would meet them again.
	return badCall(ErrUnsupported, "tool %s: %w", m.ID, err)
}

// responseContent is the body as JSON when it says it is and parses whole,
// else as text.
func responseContent(contentType string, body *headBuffer) any {
	media, _, _ := mime.ParseMediaType(contentType)
	if !body.truncated && (media == "application/json" || strings.HasSuffix(media, "+json")) {
		var v any
		if json.Unmarshal(body.buf, &v) == nil {
			return v
		}
	}
	return body.text()
}

// preview is the start of a response, for error messages.
func preview(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 300 {
		return string(r[:300]) + "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}
