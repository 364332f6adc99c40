// Package prometheus_test checks the alert rules shipped in ops/prometheus.
package prometheus_test

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.yaml.in/yaml/v3"

	"github.com/toolyard/toolyard/pipeline"
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

// registeredMetrics are the metric families the pipeline registers.
func registeredMetrics(t *testing.T) map[string]bool {
	t.Helper()
	reg := prometheus.NewRegistry()
	m := pipeline.NewMetrics(reg)
	// Vectors only appear in Gather once a label set exists.
	m.Messages.WithLabelValues("x", "ack")
	m.Redeliveries.WithLabelValues("x")
	m.Latency.WithLabelValues("x")
	m.InFlight.WithLabelValues("x")
	m.Pending.WithLabelValues("x")
	m.AckPending.WithLabelValues("x")
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range fams {
		names[f.GetName()] = true
	}
	return names
}

func TestAlertRules(t *testing.T) {
	raw, err := os.ReadFile("alerts.yaml")
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
