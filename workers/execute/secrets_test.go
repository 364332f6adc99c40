package execute

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/effects"
)

func TestEnvAndHeaderSecrets(t *testing.T) {
	t.Setenv("TY_PASSED_SECRET", "passed-through-value")
	cases := []struct {
		name    string
		env     []string
		headers map[string]string
		want    []string
	}{
		{"nothing", nil, nil, nil},
		{"base names are not secrets", []string{"PATH", "HOME", "LANG"}, nil, nil},
		{"passed through", []string{"TY_PASSED_SECRET"}, nil, []string{"passed-through-value"}},
		{"fixed", []string{"API_KEY=fixed-value"}, nil, []string{"fixed-value"}},
		{"unset", []string{"TY_NOT_SET_ANYWHERE"}, nil, nil},
		{"fixed header credential", nil, map[string]string{"Authorization": "Bearer abc123xyz"}, []string{"Bearer abc123xyz", "abc123xyz"}},
		{"templated header", nil, map[string]string{"Authorization": "Bearer {env.TOKEN}"}, nil},
		{"plain header", nil, map[string]string{"Accept": "application/json"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := append(envSecrets(c.env), headerSecrets(c.headers)...)
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("secrets %v, want %v", got, want)
			}
		})
	}
}

const (
	argSecret = "arg-SECRET-4f1e"
	envSecret = "env-SECRET-9c2a"
)

// secretTool prints the token it is given and its environment secret, to
// stdout or (failing) to stderr, size extra bytes after them.
func secretTool(t *testing.T) schemas.Manifest {
	t.Helper()
	script := filepath.Join(t.TempDir(), "secret.sh")
	body := `#!/bin/sh
if [ "$1" = fail ]; then echo "bad token=$2 env=$TY_TOOL_SECRET" >&2; exit 3; fi
printf 'token=%s env=%s ' "$2" "$TY_TOOL_SECRET"
head -c "$3" /dev/zero | tr '\0' x
echo " again $2"
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	m := tool("t/secret", `{"type":"object","required":["mode","token"],"properties":{
		"mode":{"type":"string","enum":["ok","fail"]},
		"token":{"type":"string","writeOnly":true,"pattern":"^[A-Za-z0-9-]+$"},
		"size":{"type":"integer","default":0}}}`, script, "{mode}", "{token}", "{size}")
	m.Executor.Env = []string{"TY_TOOL_SECRET"}
	return m
}

// The execute stage, handling a message as the runner does, keeps the
// call's secrets out of its result, audit record, execution record and
// stored output on every path.
func TestStageKeepsSecretsInTheExecutor(t *testing.T) {
	t.Setenv("TY_TOOL_SECRET", envSecret)
	env := pipelinetest.Start(t)
	ctx := ctxFor(t)
	x, err := effects.OpenExecutions(ctx, env.JS, effects.WithWorkerID("stage"))
	if err != nil {
		t.Fatal(err)
	}
	outputs, err := effects.OpenOutputs(ctx, env.JS)
	if err != nil {
		t.Fatal(err)
	}
	e := newExecutor(t, []schemas.Manifest{secretTool(t)}, WithRetryBudget(0))
	st := Stage(e, WithExecutions(x), WithOutputs(outputs))

	cases := []struct {
		name       string
		params     map[string]any
		wantStatus string
		wantCode   string
		wantText   string // in the result, scrubbed
	}{
		{"success", map[string]any{"mode": "ok", "token": argSecret}, schemas.StatusExecuted, "", "token=*** env=***"},
		{"large output to the object store", map[string]any{"mode": "ok", "token": argSecret, "size": 70000}, schemas.StatusExecuted, "", "token=*** env=***"},
		{"tool error", map[string]any{"mode": "fail", "token": argSecret}, schemas.StatusError, "tool_failed", "bad token=*** env=***"},
		{"invalid secret argument", map[string]any{"mode": "ok", "token": argSecret + "!"}, schemas.StatusError, "invalid_arguments", "invalid parameters"},
		{"redaction mark as the secret", map[string]any{"mode": "ok", "token": "***"}, schemas.StatusError, "invalid_arguments", "send the call again with the secret values"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			call := schemas.ToolCall{V: schemas.Version, IntentID: fmt.Sprintf("i%d", i), SessionID: "s1", MessageID: "m1",
				MetaTool: schemas.MetaExecute, ToolID: "t/secret", Parameters: c.params}
			data, _ := json.Marshal(call)
			m := &pipeline.Msg{Subject: "pipe.execute.s1", Data: data, NumDelivered: 1}
			hctx := pipeline.WithScrubber(ctx, pipeline.NewScrubber(st.Secrets(ctx, m)...))
			outs, err := st.Handler(hctx, m)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := decodeOuts(t, outs)
			if res.Status != c.wantStatus || (c.wantCode != "" && (res.Error == nil || res.Error.Code != c.wantCode)) {
				t.Fatalf("result %+v %+v, want %s %s", res, res.Error, c.wantStatus, c.wantCode)
			}
			for _, o := range outs {
				assertNoSecret(t, o.Subject, o.Data)
			}
			all := string(outs[0].Data)
			if !strings.Contains(all, c.wantText) {
				t.Errorf("result lacks %q: %s", c.wantText, all)
			}
			rec, _, err := x.Get(ctx, effects.ID{SessionID: "s1", IntentID: call.IntentID})
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(rec)
			assertNoSecret(t, "execution record", raw)
			if spilled := res.Output != nil && res.Output.Ref != nil; spilled != (c.params["size"] != nil) {
				t.Fatalf("output stored in the object store: %v, want it for large outputs only", spilled)
			}
			if res.Output != nil && res.Output.Ref != nil {
				body, err := outputs.Get(ctx, *res.Output.Ref)
				if err != nil {
					t.Fatal(err)
				}
				assertNoSecret(t, "stored output", body)
				if !strings.Contains(string(body), "again ***") {
					t.Errorf("stored output not as printed: …%s", body[len(body)-40:])
				}
			}
		})
	}
}

func assertNoSecret(t *testing.T, where string, data []byte) {
	t.Helper()
	for _, s := range []string{argSecret, envSecret} {
		if strings.Contains(string(data), s) {
			t.Errorf("%s holds %s: %s", where, s, data)
		}
	}
}

func TestSecretsOfACall(t *testing.T) {
	t.Setenv("TY_TOOL_SECRET", envSecret)
	e := newExecutor(t, []schemas.Manifest{secretTool(t)})
	got := e.Secrets(context.Background(), call("t/secret", map[string]any{"mode": "ok", "token": argSecret}))
	slices.Sort(got)
	if want := []string{argSecret, envSecret}; !slices.Equal(got, want) {
		t.Errorf("secrets %v, want %v", got, want)
	}
}

// An http tool's environment secret in its URL, with characters a URL
// escapes (a base64 key), stays out of the result when the request fails
// without a response: Go's error quotes the whole URL, query included,
// escaped.
func TestStageKeepsURLEscapedSecretsOut(t *testing.T) {
	const key = "k3y/with+slash=="
	t.Setenv("TY_HTTP_KEY", key)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.String(), http.StatusFound) // forever
	}))
	t.Cleanup(srv.Close)
	m := httpTool("t/keyed", `{"type":"object","properties":{}}`, schemas.Executor{
		URL: srv.URL + "/v1/{env.TY_HTTP_KEY}/x?key={env.TY_HTTP_KEY}", Env: []string{"TY_HTTP_KEY"},
	})
	e := httpExecutor(t, []schemas.Manifest{m}, WithRetryBudget(0))
	st := Stage(e)
	ctx := ctxFor(t)
	data, _ := json.Marshal(schemas.ToolCall{V: schemas.Version, IntentID: "i1", SessionID: "s1", MessageID: "m1",
		MetaTool: schemas.MetaExecute, ToolID: "t/keyed", Parameters: map[string]any{}})
	msg := &pipeline.Msg{Subject: "pipe.execute.s1", Data: data, NumDelivered: 1}
	hctx := pipeline.WithScrubber(ctx, pipeline.NewScrubber(st.Secrets(ctx, msg)...))
	outs, err := st.Handler(hctx, msg)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := decodeOuts(t, outs)
	if res.Status != schemas.StatusError || res.Error == nil || !strings.Contains(res.Error.Message, "redirects") {
		t.Fatalf("want the redirect loop's error, got %+v %+v", res, res.Error)
	}
	for _, o := range outs {
		for _, form := range []string{key, url.QueryEscape(key), url.PathEscape(key)} {
			if strings.Contains(string(o.Data), form) {
				t.Errorf("%s holds the key as %s: %s", o.Subject, form, o.Data)
			}
		}
	}
}
