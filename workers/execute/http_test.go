package execute

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolyard/toolyard/schemas"
)

// seen is what a test server received.
type seen struct {
	method, path, rawPath, query string
	header                       http.Header
	body                         string
}

// recorder is a real HTTP server that records each request and answers
// with handle (200 and a small JSON document when nil).
func recorder(t *testing.T, handle http.HandlerFunc) (*httptest.Server, chan seen, *atomic.Int64) {
	t.Helper()
	reqs := make(chan seen, 16)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		b, _ := io.ReadAll(r.Body)
		reqs <- seen{r.Method, r.URL.Path, r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Clone(), string(b)}
		if handle != nil {
			handle(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)
	return srv, reqs, &hits
}

func httpTool(id, params string, x schemas.Executor) schemas.Manifest {
	x.Kind = schemas.ExecHTTP
	m := schemas.Manifest{ID: id, Name: id, Description: "test http tool " + id, Executor: &x}
	if params != "" {
		m.Parameters = json.RawMessage(params)
	}
	return m
}

const searchParams = `{"type":"object","required":["name","q"],"properties":{
	"name":{"type":"string"},"q":{"type":"string"},"n":{"type":"integer"},
	"tags":{"type":"array","items":{"type":"string"}},"opt":{"type":"string"},"trace":{"type":"string"}}}`

func TestHTTPTemplatesEscapeForWhereValuesLand(t *testing.T) {
	srv, reqs, hits := recorder(t, nil)
	m := httpTool("t/search", searchParams, schemas.Executor{
		Method:  "POST",
		URL:     srv.URL + "/users/{name}/files?q={q}&tag={tags}&opt={opt}&fixed=1",
		Headers: map[string]string{"X-Name": "user {name}", "X-Trace": "{trace}"},
		Body:    `{"query": "{q}", "n": "{n}", "note": "n={n}", "opt": "{opt}", "tags": "{tags}", "lit": "{{braces}}"}`,
	})
	e := httpExecutor(t, []schemas.Manifest{m}, WithRetryBudget(0))

	out, err := run(t, e, call("t/search", map[string]any{
		"name": "a/b c?#%é", "q": "x&y=z+1 ü", "n": 7, "tags": []any{"red", "a&b"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if out.StatusCode != 200 || out.Content.(map[string]any)["ok"] != true {
		t.Fatalf("output %+v", out)
	}
	got := <-reqs
	if want := "/users/a%2Fb%20c%3F%23%25%C3%A9/files"; got.rawPath != want {
		t.Errorf("path %s, want %s", got.rawPath, want)
	}
	if got.path != "/users/a/b c?#%é/files" {
		t.Errorf("decoded path %q", got.path)
	}
	if want := "q=x%26y%3Dz%2B1+%C3%BC&tag=red&tag=a%26b&fixed=1"; got.query != want {
		t.Errorf("query %s, want %s (the absent optional opt dropped)", got.query, want)
	}
	q, _ := url.ParseQuery(got.query)
	if q.Get("q") != "x&y=z+1 ü" {
		t.Errorf("q decodes to %q", q.Get("q"))
	}
	if got.header.Get("X-Name") != "user a/b c?#%é" || got.header.Get("X-Trace") != "" {
		t.Errorf("headers %v", got.header)
	}
	if got.header.Get(IdempotencyHeader) == "" {
		t.Error("no idempotency key header")
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(got.body), &body); err != nil {
		t.Fatalf("body %q: %v", got.body, err)
	}
	want := map[string]any{"query": "x&y=z+1 ü", "n": 7.0, "note": "n=7", "tags": []any{"red", "a&b"}, "lit": "{braces}"}
	if b, w := mustJSON(body), mustJSON(want); b != w {
		t.Errorf("body %s, want %s", b, w)
	}
	if got.header.Get("Content-Type") != "application/json" || got.method != "POST" {
		t.Errorf("method %s content type %q", got.method, got.header.Get("Content-Type"))
	}

	refused := []struct {
		name   string
		params map[string]any
		class  error
		msg    string
	}{
		{"CR LF in a header", map[string]any{"name": "x", "q": "y", "trace": "a\r\nX-Admin: 1"}, ErrInvalidParameters, "header X-Trace would contain a line break"},
		{"lone LF in a header", map[string]any{"name": "x", "q": "y", "trace": "a\nb"}, ErrInvalidParameters, "line break"},
		{"dot-dot path", map[string]any{"name": "..", "q": "y"}, ErrInvalidParameters, `may not be ".."`},
		{"missing required", map[string]any{"name": "x"}, ErrInvalidParameters, "missing property 'q'"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			before := hits.Load()
			_, err := run(t, e, call("t/search", tc.params))
			if !errors.Is(err, tc.class) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.class, tc.msg)
			}
			if hits.Load() != before {
				t.Fatal("a refused request reached the server")
			}
		})
	}
}

func TestHTTPBodies(t *testing.T) {
	srv, reqs, _ := recorder(t, nil)
	params := `{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"number"}}}`
	tests := []struct {
		name     string
		x        schemas.Executor
		params   map[string]any
		wantCT   string
		wantBody string
	}{
		{"no template: POST sends the parameters", schemas.Executor{Method: "POST", URL: srv.URL}, map[string]any{"a": "x", "n": 1.5}, "application/json", `{"a":"x","n":1.5}`},
		{"no template: GET sends nothing", schemas.Executor{URL: srv.URL}, map[string]any{"a": "x"}, "", ``},
		{"whole body from a parameter", schemas.Executor{URL: srv.URL, Body: `"{a}"`}, map[string]any{"a": "<b>"}, "application/json", `"<b>"`},
		{"form", schemas.Executor{URL: srv.URL, Body: "a={a}&n={n}", Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},
			map[string]any{"a": "x y&z", "n": 2}, "application/x-www-form-urlencoded", "a=x+y%26z&n=2"},
		{"text", schemas.Executor{URL: srv.URL, Body: "hello {a}!"}, map[string]any{"a": `"quoted" & raw`}, "text/plain; charset=utf-8", `hello "quoted" & raw!`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := httpExecutor(t, []schemas.Manifest{httpTool("t/b", params, tc.x)}, WithRetryBudget(0))
			if _, err := run(t, e, call("t/b", tc.params)); err != nil {
				t.Fatal(err)
			}
			got := <-reqs
			if got.body != tc.wantBody || got.header.Get("Content-Type") != tc.wantCT {
				t.Fatalf("body %q (%q), want %q (%q)", got.body, got.header.Get("Content-Type"), tc.wantBody, tc.wantCT)
			}
		})
	}
}

func TestHTTPAllowedHosts(t *testing.T) {
	other, _, otherHits := recorder(t, nil)
	otherURL, _ := url.Parse(other.URL)
	// home redirects wherever the query says.
	home, _, homeHits := recorder(t, func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		_, _ = io.WriteString(w, "home")
	})
	homeURL, _ := url.Parse(home.URL)
	params := `{"type":"object","properties":{"to":{"type":"string"}}}`
	tool := func(id string, allowed ...string) schemas.Manifest {
		return httpTool(id, params, schemas.Executor{URL: home.URL + "/go?to={to}", AllowedHosts: allowed})
	}
	e := httpExecutor(t, []schemas.Manifest{
		tool("t/default"),
		tool("t/both", homeURL.Host, otherURL.Host),
		tool("t/elsewhere", "api.example.com"),
		tool("t/any_port", "127.0.0.1"),
	}, WithRetryBudget(0))

	tests := []struct {
		name      string
		tool      string
		to        string
		want      string
		refused   bool
		otherHits int64
	}{
		{"no redirect", "t/default", "", "home", false, 0},
		{"relative redirect stays home", "t/default", "/go", "home", false, 0},
		{"redirect to another host refused", "t/default", other.URL + "/x", "", true, 0},
		{"redirect to another host by another name", "t/default", "http://localhost:" + homeURL.Port() + "/x", "", true, 0},
		{"redirect to a listed host followed", "t/both", other.URL + "/x", `{"ok":true}`, false, 1},
		{"redirect to a non-http scheme refused", "t/both", "file:///etc/passwd", "", true, 0},
		{"url host outside the list", "t/elsewhere", "", "", true, 0},
		{"host without port allows any port", "t/any_port", other.URL + "/x", `{"ok":true}`, false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			beforeOther, beforeHome := otherHits.Load(), homeHits.Load()
			params := map[string]any{}
			if tc.to != "" {
				params["to"] = tc.to
			}
			out, err := run(t, e, call(tc.tool, params))
			if tc.refused {
				if !errors.Is(err, ErrHostNotAllowed) || IsTransient(err) {
					t.Fatalf("err = %v, want a permanent ErrHostNotAllowed", err)
				}
				if errorCode(err) != CodeHostNotAllowed {
					t.Errorf("code %s", errorCode(err))
				}
				if tc.tool == "t/elsewhere" && homeHits.Load() != beforeHome {
					t.Error("a request went to a host outside the list")
				}
			} else if err != nil {
				t.Fatal(err)
			} else if got := mustJSON(out.Content); got != tc.want && out.Content != tc.want {
				t.Fatalf("content %s, want %s", got, tc.want)
			}
			if got := otherHits.Load() - beforeOther; got != tc.otherHits {
				t.Fatalf("the other host got %d requests, want %d", got, tc.otherHits)
			}
		})
	}
}

func TestHTTPResponses(t *testing.T) {
	big := strings.Repeat("0123456789", 100_000)
	srv, _, _ := recorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			_, _ = io.WriteString(w, big)
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		case "/missing":
			http.Error(w, "no such user: bob", http.StatusNotFound)
		case "/down":
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
		case "/busy":
			w.WriteHeader(http.StatusTooManyRequests)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	tool := func(id, u string, x schemas.Executor) schemas.Manifest {
		x.URL = u
		return httpTool(id, "", x)
	}
	e := httpExecutor(t, []schemas.Manifest{
		tool("t/big", srv.URL+"/big", schemas.Executor{MaxOutputBytes: 1000}),
		tool("t/slow", srv.URL+"/slow", schemas.Executor{Timeout: schemas.Duration(200 * time.Millisecond)}),
		tool("t/missing", srv.URL+"/missing", schemas.Executor{}),
		tool("t/down", srv.URL+"/down", schemas.Executor{}),
		tool("t/busy", srv.URL+"/busy", schemas.Executor{}),
		tool("t/refused", closedURL, schemas.Executor{}),
		tool("t/loop", srv.URL+"/loop", schemas.Executor{}),
		tool("t/tls", strings.Replace(srv.URL, "http://", "https://", 1), schemas.Executor{}),
	}, WithRetryBudget(0))

	t.Run("size cap", func(t *testing.T) {
		out, err := run(t, e, call("t/big", nil))
		if err != nil {
			t.Fatal(err)
		}
		if s := out.Content.(string); len(s) != 1000 || !out.Truncated || s != big[:1000] {
			t.Fatalf("kept %d bytes, truncated %v", len(s), out.Truncated)
		}
	})
	t.Run("timeout is transient", func(t *testing.T) {
		start := time.Now()
		_, err := run(t, e, call("t/slow", nil))
		if !IsTransient(err) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want a transient deadline", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("took %s for a 200ms timeout", d)
		}
	})
	t.Run("4xx is a permanent tool error with the body", func(t *testing.T) {
		out, err := run(t, e, call("t/missing", nil))
		var te *ToolError
		if !errors.As(err, &te) || IsTransient(err) {
			t.Fatalf("err = %v, want a permanent *ToolError", err)
		}
		if te.Output.StatusCode != 404 || out.StatusCode != 404 || !strings.Contains(err.Error(), "404 Not Found: no such user: bob") {
			t.Fatalf("err %q, status %d", err, te.Output.StatusCode)
		}
		if errorCode(err) != "tool_failed" {
			t.Errorf("code %s", errorCode(err))
		}
	})
	for id, msg := range map[string]string{"t/loop": "stopped after 10 redirects", "t/tls": "tls"} {
		t.Run(id+" is permanent", func(t *testing.T) {
			_, err := run(t, e, call(id, nil))
			if err == nil || IsTransient(err) || !strings.Contains(strings.ToLower(err.Error()), msg) {
				t.Fatalf("err = %v, want a permanent error about %q", err, msg)
			}
		})
	}
	for _, id := range []string{"t/down", "t/busy", "t/refused"} {
		t.Run(id+" is transient", func(t *testing.T) {
			_, err := run(t, e, call(id, nil))
			if !IsTransient(err) {
				t.Fatalf("err = %v, want transient", err)
			}
		})
	}
}

func TestHTTPManifestErrors(t *testing.T) {
	params := `{"type":"object","properties":{"h":{"type":"string"}}}`
	tests := []struct {
		name string
		x    schemas.Executor
		msg  string
	}{
		{"placeholder in the host", schemas.Executor{URL: "http://{h}.example.com/x"}, "the host must be written out"},
		{"relative url", schemas.Executor{URL: "/x"}, "must start with http:// or https://"},
		{"ftp", schemas.Executor{URL: "ftp://example.com/x"}, "must start with http://"},
		{"bad header name", schemas.Executor{URL: "http://example.com/", Headers: map[string]string{"X Bad": "1"}}, "not a valid HTTP header name"},
		{"bad allowed host", schemas.Executor{URL: "http://example.com/", AllowedHosts: []string{"http://example.com"}}, "is not a host or host:port"},
		{"json content type, text body", schemas.Executor{URL: "http://example.com/", Body: "a={h}", Headers: map[string]string{"Content-Type": "application/json"}}, "body template is not JSON"},
		{"undeclared placeholder", schemas.Executor{URL: "http://example.com/{nope}"}, "names no declared parameter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := httpExecutor(t, []schemas.Manifest{httpTool("t/bad", params, tc.x)}, WithRetryBudget(0))
			_, err := run(t, e, call("t/bad", map[string]any{"h": "x"}))
			if err == nil || IsTransient(err) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want a permanent error containing %q", err, tc.msg)
			}
		})
	}
}

func TestHostList(t *testing.T) {
	tests := []struct {
		entries []string
		url     string
		want    bool
	}{
		{[]string{"api.example.com"}, "https://api.example.com/x", true},
		{[]string{"api.example.com"}, "https://API.Example.com.:8443/x", true},
		{[]string{"api.example.com:443"}, "https://api.example.com/x", true},
		{[]string{"api.example.com:443"}, "http://api.example.com/x", false},
		{[]string{"api.example.com"}, "https://evil.com/api.example.com", false},
		{[]string{"api.example.com"}, "https://api.example.com.evil.com/", false},
		{[]string{"*.example.com"}, "https://a.b.example.com/", true},
		{[]string{"*.example.com"}, "https://example.com/", false},
		{[]string{"*.example.com"}, "https://badexample.com/", false},
		{[]string{"[::1]:8080"}, "http://[::1]:8080/", true},
		{[]string{"::1"}, "http://[::1]:9/", true},
		{[]string{"127.0.0.1:80"}, "http://127.0.0.1/", true},
		{[]string{"example.com"}, "ftp://example.com/", false},
		{nil, "https://example.com/", false},
	}
	for _, tc := range tests {
		l, err := parseHosts(tc.entries)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(tc.url)
		if got := l.allows(u); got != tc.want {
			t.Errorf("%v allows %s = %v, want %v", tc.entries, tc.url, got, tc.want)
		}
	}
	for _, bad := range []string{"", "http://x", "a*.example.com", "user@host", "*."} {
		if _, err := parseHosts([]string{bad}); err == nil {
			t.Errorf("entry %q accepted", bad)
		}
	}
}

// Whatever the parameters, the request goes to the template's host and the
// values arrive intact.
func FuzzHTTPTemplate(f *testing.F) {
	f.Add("bob", "x&y=z", "v")
	f.Add("../..", "#frag", "a\r\nb")
	f.Add("%2F", "?q=1", "é\x00")
	f.Add("a/b", "", "")
	m := httpTool("t/f", `{"type":"object","properties":{"p":{"type":"string"},"q":{"type":"string"},"h":{"type":"string"}}}`,
		schemas.Executor{URL: "https://api.example.com:8443/v1/{p}/x?q={q}&k=1", Headers: map[string]string{"X-H": "{h}"}, Body: `{"q":"{q}"}`})
	f.Fuzz(func(t *testing.T, p, q, h string) {
		info, err := compileInfo(m)
		if err != nil {
			t.Fatal(err)
		}
		req, err := buildHTTP(m, map[string]any{"p": p, "q": q, "h": h}, info)
		if err != nil {
			if !errors.Is(err, ErrInvalidParameters) {
				t.Fatalf("error of the wrong class: %v", err)
			}
			return
		}
		if req.url.Host != "api.example.com:8443" || req.url.Scheme != "https" {
			t.Fatalf("request goes to %s", req.url)
		}
		if want := "/v1/" + p + "/x"; req.url.Path != want {
			t.Fatalf("path %q, want %q", req.url.Path, want)
		}
		vals, err := url.ParseQuery(req.url.RawQuery)
		if err != nil || vals.Get("q") != q || vals.Get("k") != "1" || len(vals) != 2 {
			t.Fatalf("query %q: %v", req.url.RawQuery, err)
		}
		if strings.ContainsAny(req.header.Get("X-H"), "\r\n\x00") {
			t.Fatalf("header %q", req.header.Get("X-H"))
		}
		var body map[string]string
		if err := json.Unmarshal(req.body, &body); err != nil || len(body) != 1 {
			t.Fatalf("body %q: %v", req.body, err)
		}
		var want string
		enc, _ := json.Marshal(q) // invalid UTF-8 becomes U+FFFD, byte by byte
		_ = json.Unmarshal(enc, &want)
		if body["q"] != want {
			t.Fatalf("body q %q, want %q", body["q"], q)
		}
	})
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Secrets come from the worker's environment, never from the agent: only
// variables the executor's env lists (or fixes) are readable.
func TestHTTPEnvironmentPlaceholders(t *testing.T) {
	srv, reqs, hits := recorder(t, nil)
	t.Setenv("TY_TEST_TOKEN", "s3cret")
	t.Setenv("TY_NOT_LISTED", "nope")
	tool := func(id string, env []string, header string) schemas.Manifest {
		return httpTool(id, "", schemas.Executor{URL: srv.URL + "/x?key={env.FIXED}", Env: env,
			Headers: map[string]string{"Authorization": header}})
	}
	e := httpExecutor(t, []schemas.Manifest{
		tool("t/ok", []string{"TY_TEST_TOKEN", "FIXED=a b"}, "Bearer {env.TY_TEST_TOKEN}"),
		tool("t/unlisted", []string{"FIXED=1"}, "Bearer {env.TY_NOT_LISTED}"),
		tool("t/unset", []string{"FIXED=1", "TY_UNSET_VAR"}, "Bearer {env.TY_UNSET_VAR}"),
	}, WithRetryBudget(0))
	if _, err := run(t, e, call("t/ok", nil)); err != nil {
		t.Fatal(err)
	}
	got := <-reqs
	if got.header.Get("Authorization") != "Bearer s3cret" || got.query != "key=a+b" {
		t.Fatalf("authorization %q, query %q", got.header.Get("Authorization"), got.query)
	}
	for id, msg := range map[string]string{
		"t/unlisted": "{env.TY_NOT_LISTED} names a variable its executor's env does not list",
		"t/unset":    "needs the environment variable TY_UNSET_VAR, which this worker does not have",
	} {
		before := hits.Load()
		_, err := run(t, e, call(id, nil))
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: err = %v, want %q", id, err, msg)
		}
		if hits.Load() != before {
			t.Errorf("%s: the request was sent", id)
		}
	}
}

// httpExecutor is newExecutor with the network class granted, which http
// tools need.
func httpExecutor(t *testing.T, tools []schemas.Manifest, opts ...Option) *Executor {
	t.Helper()
	return newExecutor(t, tools, append([]Option{WithGrants(ClassNetwork)}, opts...)...)
}
