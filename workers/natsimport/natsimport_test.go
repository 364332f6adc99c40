package natsimport_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/micro"

	"github.com/toolyard/toolyard/pipeline/pipelinetest"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/natsimport"
)

func TestDiscoverAndManifests(t *testing.T) {
	env := pipelinetest.Start(t)
	svc, err := micro.AddService(env.NC, micro.Config{Name: "weather", Version: "1.2.0", Description: "Weather reports"})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Stop()
	noop := micro.HandlerFunc(func(r micro.Request) { _ = r.Respond([]byte("{}")) })
	g := svc.AddGroup("weather")
	must(t, g.AddEndpoint("forecast", noop, micro.WithEndpointMetadata(map[string]string{
		"description": "Forecast the weather for a city",
		"schema":      `{"type":"object","required":["city"],"properties":{"city":{"type":"string"},"days":{"type":"integer","default":3}}}`,
		"keywords":    "weather, forecast ,rain",
		"examples":    `["will it rain in Oslo tomorrow"]`,
		"permissions": "net",
		"timeout":     "3s",
	})))
	must(t, g.AddEndpoint("ping", noop))
	must(t, svc.AddEndpoint("all", noop, micro.WithEndpointSubject("weather.*.all")))
	// A second instance of an older version: the newer one's endpoints win.
	old, err := micro.AddService(env.NC, micro.Config{Name: "weather", Version: "1.1.0", Description: "old"})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Stop()
	must(t, old.AddEndpoint("legacy", noop, micro.WithEndpointSubject("weather.legacy")))
	must(t, old.AddEndpoint("ping", noop, micro.WithEndpointSubject("weather.oldping")))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	infos, err := natsimport.Discover(ctx, env.NC, "weather", 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 {
		t.Fatalf("%d instances answered, want 2", len(infos))
	}
	ms, skipped, err := natsimport.Manifests("wx", infos)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Endpoint != "all" || !strings.Contains(skipped[0].Reason, "wildcard") {
		t.Fatalf("skipped %+v", skipped)
	}
	ids := []string{}
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	if got := strings.Join(ids, ","); got != "wx/forecast,wx/legacy,wx/ping" {
		t.Fatalf("ids %s", got)
	}
	f := ms[0]
	if f.Description != "Forecast the weather for a city" || f.Server != "wx" || f.Executor.Kind != schemas.ExecNATS ||
		f.Executor.Subject != "weather.forecast" || time.Duration(f.Executor.Timeout) != 3*time.Second ||
		strings.Join(f.Keywords, "|") != "weather|forecast|rain" || strings.Join(f.Permissions, ",") != "net" ||
		len(f.Examples) != 1 || !strings.Contains(string(f.Parameters), `"city"`) {
		t.Fatalf("forecast manifest %+v", f)
	}
	if p := ms[2]; p.Description != "Weather reports (endpoint ping)" || p.Version != "1.2.0" || p.Executor.Subject != "weather.ping" {
		t.Fatalf("ping manifest %+v %+v: want the newest instance's", p, p.Executor)
	}
	if l := ms[1]; l.Version != "1.1.0" || l.Executor.Subject != "weather.legacy" {
		t.Fatalf("legacy manifest %+v", l)
	}
}

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1.10.0", "1.9.2", 1}, {"1.2.0", "1.2.0", 0}, {"v2", "1.9", 1}, {"1.0", "1.0.1", -1}, {"", "0.0.1", -1},
	}
	for _, tc := range tests {
		if got := natsimport.CompareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("compare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestManifestsRefuseBadMetadata(t *testing.T) {
	info := func(md map[string]string) []micro.Info {
		return []micro.Info{{ServiceIdentity: micro.ServiceIdentity{Name: "s", Version: "1.0.0"},
			Endpoints: []micro.EndpointInfo{{Name: "e", Subject: "s.e", Metadata: md}}}}
	}
	tests := []struct {
		md   map[string]string
		want string
	}{
		{map[string]string{"schema": "{not json"}, `metadata "schema" is not JSON`},
		{map[string]string{"schema": `{"type":"string"}`}, "parameters"},
		{map[string]string{"examples": "a, b"}, "JSON array of strings"},
		{map[string]string{"timeout": "soon"}, "not a positive Go duration"},
	}
	for _, tc := range tests {
		_, _, err := natsimport.Manifests("", info(tc.md))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "endpoint e of service s") {
			t.Errorf("%v: err = %v, want %q", tc.md, err, tc.want)
		}
	}
	ms, _, err := natsimport.Manifests("", info(nil))
	if err != nil || ms[0].ID != "s/e" {
		t.Fatalf("default name: %v %v", ms, err)
	}
	ms, _, err = natsimport.Manifests("team/s", info(nil))
	if err != nil || ms[0].ID != "team/s/e" || ms[0].Server != "team/s" {
		t.Fatalf("nested name: %v %v", ms, err)
	}
	for _, bad := range []string{"a b", "/s", "s/", "a//b"} {
		if _, _, err := natsimport.Manifests(bad, info(nil)); err == nil || !strings.Contains(err.Error(), "namespace") {
			t.Errorf("name %q: err = %v", bad, err)
		}
	}
}

func TestDiscoverNoService(t *testing.T) {
	env := pipelinetest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	_, err := natsimport.Discover(ctx, env.NC, "nobody", 100*time.Millisecond)
	if !errors.Is(err, natsimport.ErrNoService) || !strings.Contains(err.Error(), `"nobody"`) {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 4*time.Second {
		t.Fatal("no-responders was not noticed before the deadline")
	}
	if _, err := natsimport.Discover(ctx, env.NC, "a.b", time.Millisecond); err == nil {
		t.Fatal("a dotted service name was accepted")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Whatever a service advertises, Manifests returns valid manifests or an
// error naming the endpoint; it never panics.
func FuzzManifests(f *testing.F) {
	f.Add("svc", "e", "svc.e", "d", `{"type":"object"}`, "a,b", `["x"]`, "1s")
	f.Add("", "", "", "", "", "", "", "")
	f.Add("s", "e", "s.*", "", `{"type":"object","properties":{"x":{"type":"nope"}}}`, ",", "[1]", "-1s")
	f.Fuzz(func(t *testing.T, svc, ep, subject, desc, schema, kw, examples, timeout string) {
		info := micro.Info{ServiceIdentity: micro.ServiceIdentity{Name: svc, Version: "1.0.0"},
			Endpoints: []micro.EndpointInfo{{Name: ep, Subject: subject, Metadata: map[string]string{
				"description": desc, "schema": schema, "keywords": kw, "examples": examples, "timeout": timeout}}}}
		ms, skipped, err := natsimport.Manifests("", []micro.Info{info})
		if err != nil {
			if !strings.Contains(err.Error(), "endpoint "+ep) && !strings.Contains(err.Error(), "namespace") {
				t.Fatalf("error does not name the endpoint: %v", err)
			}
			return
		}
		if len(ms)+len(skipped) != 1 {
			t.Fatalf("%d manifests, %d skipped", len(ms), len(skipped))
		}
		for _, m := range ms {
			if m.Executor == nil || m.Executor.Kind != schemas.ExecNATS || m.Executor.Subject != subject || m.Description == "" {
				t.Fatalf("manifest %+v", m)
			}
		}
	})
}
