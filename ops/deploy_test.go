// Package ops_test checks the deploy files in ops/: alert rules, the compose
// cluster and the Grafana dashboard, offline.
package ops_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.yaml.in/yaml/v3"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/stages"
)

type ruleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

var seriesName = regexp.MustCompile(`toolyard_[a-z_]+`)

// registeredMetrics are the metric families a stage process exports: the
// runner's (pipeline.NewMetrics) and the stages' own (stages.Collectors,
// what 'up' and 'worker' register), read from the collectors' descriptions
// so a series counts whether or not a label set exists yet.
func registeredMetrics(t *testing.T) map[string]bool {
	t.Helper()
	rec := &recordingRegisterer{}
	pipeline.NewMetrics(rec)
	names := map[string]bool{}
	descs := make(chan *prometheus.Desc, 256)
	go func() {
		for _, c := range append(rec.collectors, stages.Collectors()...) {
			c.Describe(descs)
		}
		close(descs)
	}()
	for d := range descs {
		m := fqName.FindStringSubmatch(d.String())
		if m == nil {
			t.Fatalf("no name in %s", d)
		}
		names[m[1]] = true
	}
	if len(names) < 10 {
		t.Fatalf("only %d metric families found: %v", len(names), names)
	}
	return names
}

var fqName = regexp.MustCompile(`fqName: "([^"]+)"`)

// recordingRegisterer keeps what is registered with it.
type recordingRegisterer struct{ collectors []prometheus.Collector }

func (r *recordingRegisterer) Register(c prometheus.Collector) error {
	r.collectors = append(r.collectors, c)
	return nil
}

func (r *recordingRegisterer) MustRegister(cs ...prometheus.Collector) {
	r.collectors = append(r.collectors, cs...)
}

func (r *recordingRegisterer) Unregister(prometheus.Collector) bool { return false }

func TestAlertRules(t *testing.T) {
	raw, err := os.ReadFile("prometheus/alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var rf ruleFile
	dec := yaml.NewDecoder(bytesReader(raw))
	dec.KnownFields(true) // a misspelt key is an error, as in promtool
	if err := dec.Decode(&rf); err != nil {
		t.Fatalf("alerts.yaml: %v", err)
	}
	if len(rf.Groups) == 0 {
		t.Fatal("alerts.yaml: no rule groups")
	}
	known := registeredMetrics(t)
	seen := map[string]bool{}
	for _, g := range rf.Groups {
		if g.Name == "" || len(g.Rules) == 0 {
			t.Errorf("group %q: needs a name and rules", g.Name)
		}
		for _, r := range g.Rules {
			if r.Alert == "" || r.Expr == "" {
				t.Errorf("group %q: a rule without alert name or expr", g.Name)
				continue
			}
			if seen[r.Alert] {
				t.Errorf("alert %s defined twice", r.Alert)
			}
			seen[r.Alert] = true
			if r.Labels["severity"] == "" || r.Annotations["summary"] == "" {
				t.Errorf("alert %s: needs labels.severity and annotations.summary", r.Alert)
			}
			names := seriesName.FindAllString(r.Expr, -1)
			if len(names) == 0 {
				t.Errorf("alert %s: expr names no toolyard_ series: %s", r.Alert, r.Expr)
			}
			for _, n := range names {
				if !known[n] {
					t.Errorf("alert %s: queries %s, which the code does not export", r.Alert, n)
				}
			}
		}
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// seriesIn lists the toolyard_ series a query names, a histogram's
// _bucket, _sum and _count series as the histogram's own name (known).
func seriesIn(expr string, known map[string]bool) []string {
	var out []string
	for _, n := range seriesName.FindAllString(expr, -1) {
		for _, suf := range []string{"_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(n, suf); ok && known[base] {
				n = base
			}
		}
		out = append(out, n)
	}
	return out
}

func TestGrafanaDashboard(t *testing.T) {
	raw, err := os.ReadFile("grafana/toolyard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		UID    string `json:"uid"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("toolyard.json: %v", err)
	}
	if d.UID == "" || len(d.Panels) == 0 {
		t.Fatal("toolyard.json: needs a uid and panels")
	}
	known := registeredMetrics(t)
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q queries nothing", p.Title)
		}
		for _, tg := range p.Targets {
			names := seriesIn(tg.Expr, known)
			if len(names) == 0 {
				t.Errorf("panel %q: no toolyard_ series in %s", p.Title, tg.Expr)
			}
			for _, n := range names {
				if !known[n] {
					t.Errorf("panel %q: queries %s, which the code does not export", p.Title, n)
				}
			}
		}
	}
}

type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Command     []string          `yaml:"command"`
		Volumes     []string          `yaml:"volumes"`
		DependsOn   yaml.Node         `yaml:"depends_on"`
		Environment map[string]string `yaml:"environment"`
	} `yaml:"services"`
}

// readCompose reads deploy/compose.yaml; anchors and merge keys (<<) are
// resolved by the decoder.
func readCompose(t *testing.T) composeFile {
	t.Helper()
	raw, err := os.ReadFile("deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cf composeFile
	if err := yaml.Unmarshal(raw, &cf); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return cf
}

func TestComposeCluster(t *testing.T) {
	cf := readCompose(t)
	// Three JetStream servers routed to each other.
	for _, n := range []string{"nats-1", "nats-2", "nats-3"} {
		s, ok := cf.Services[n]
		cmd := strings.Join(s.Command, " ")
		if !ok || !strings.Contains(cmd, "--js") || !strings.Contains(cmd, "--routes") || !strings.Contains(cmd, "--sd /data") {
			t.Errorf("service %s: want a JetStream server with routes, got %q", n, cmd)
		}
	}
	if cmd := strings.Join(cf.Services["streams"].Command, " "); !strings.Contains(cmd, "--replicas 3") {
		t.Errorf("streams are not created at three replicas: %q", cmd)
	}
	// Every stage has a worker service, connecting with the worker's
	// credential; the servers trust the keys the keys service writes.
	for _, stage := range bind.Stages {
		s, ok := cf.Services[stage]
		if !ok || !slices.Contains(s.Command, "worker") || !strings.Contains(strings.Join(s.Command, " "), "--stage "+stage) {
			t.Errorf("stage %s: no worker service running it", stage)
		}
		if s.Environment["NATS_CREDS"] != "/keys/creds/worker.creds" {
			t.Errorf("stage %s: connects without the worker credential: %v", stage, s.Environment)
		}
	}
	if cmd := strings.Join(cf.Services["keys"].Command, " "); !strings.Contains(cmd, "creds server-config --data /keys --out /keys/nats-auth.conf") {
		t.Errorf("no keys service writing the servers' trust: %q", cmd)
	}
	// Each server loads nats.conf, which includes the trust (anonymous
	// clients would be let in without it) and takes its name from
	// NATS_NAME (TestComposeNATSReload runs it).
	conf, err := os.ReadFile("deploy/nats.conf")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(conf), "include ../../keys/nats-auth.conf") {
		t.Error("nats.conf does not include the trust the keys service writes")
	}
	for _, n := range []string{"nats-1", "nats-2", "nats-3"} {
		s := cf.Services[n]
		if cmd := strings.Join(s.Command, " "); !strings.Contains(cmd, "-c /etc/nats/nats.conf") || !slices.Contains(s.Volumes, "./nats.conf:/etc/nats/nats.conf:ro") {
			t.Errorf("server %s does not load nats.conf: command %q, volumes %v", n, cmd, s.Volumes)
		}
		if s.Environment["NATS_NAME"] != n {
			t.Errorf("server %s is named %q (NATS_NAME)", n, s.Environment["NATS_NAME"])
		}
	}
	for name, s := range cf.Services {
		if s.Image == "" {
			t.Errorf("service %s: no image (the x-nats/x-worker merge failed?)", name)
		}
		// depends_on names services that exist (list or map form).
		for _, dep := range dependsOn(s.DependsOn) {
			if _, ok := cf.Services[dep]; !ok {
				t.Errorf("service %s depends on %s, which is not defined", name, dep)
			}
		}
		// Files mounted from the repository exist.
		for _, v := range s.Volumes {
			src, _, _ := strings.Cut(v, ":")
			if strings.HasPrefix(src, ".") {
				if _, err := os.Stat(filepath.Join("deploy", src)); err != nil {
					t.Errorf("service %s mounts %s: %v", name, src, err)
				}
			}
		}
	}
}

func dependsOn(n yaml.Node) []string {
	var out []string
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			out = append(out, c.Value)
		}
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			out = append(out, n.Content[i].Value)
		}
	}
	return out
}
