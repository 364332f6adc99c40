package ops_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

// The checks promtool runs ('promtool check rules'), from Prometheus's own
// Go packages: rulefmt decodes a rule file strictly and validates every
// rule (PromQL, templates, names, durations); the PromQL parser reads each
// query so the series it selects can be matched against the code's.

var promQL = parser.NewParser(parser.Options{})

// checkRules parses and validates a rule file as Prometheus loads it.
func checkRules(content []byte) (*rulefmt.RuleGroups, []error) {
	var warnings bytes.Buffer
	groups, errs := rulefmt.Parse(content, false, model.UTF8Validation, promQL, slog.New(slog.NewTextHandler(&warnings, nil)))
	if warnings.Len() > 0 {
		errs = append(errs, fmt.Errorf("warnings: %s", warnings.String()))
	}
	return groups, errs
}

// selectedSeries parses a query and lists the metric names it selects,
// a histogram's _bucket, _sum and _count read as the histogram (known).
func selectedSeries(query string, known map[string]bool) ([]string, error) {
	expr, err := promQL.ParseExpr(query)
	if err != nil {
		return nil, err
	}
	var out []string
	parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
		if vs, ok := node.(*parser.VectorSelector); ok {
			name := vs.Name
			for _, suf := range []string{"_bucket", "_sum", "_count"} {
				if base, ok := strings.CutSuffix(name, suf); ok && known[base] {
					name = base
				}
			}
			out = append(out, name)
		}
		return nil
	})
	return out, nil
}

func TestAlertRulesAsPromtool(t *testing.T) {
	raw, err := os.ReadFile("prometheus/alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	groups, errs := checkRules(raw)
	for _, e := range errs {
		t.Errorf("alerts.yaml: %v", e)
	}
	if groups == nil {
		t.FailNow()
	}
	known := registeredMetrics(t)
	rules := 0
	for _, g := range groups.Groups {
		for _, r := range g.Rules {
			rules++
			series, err := selectedSeries(r.Expr, known)
			if err != nil {
				t.Errorf("%s: %v", r.Alert, err)
				continue
			}
			if len(series) == 0 {
				t.Errorf("%s selects no series: %s", r.Alert, r.Expr)
			}
			for _, s := range series {
				if !known[s] {
					t.Errorf("%s selects %s, which the code does not export", r.Alert, s)
				}
			}
		}
	}
	if rules == 0 {
		t.Error("alerts.yaml holds no rules")
	}
}

// TestRuleCheckCatches: the check fails on the mistakes promtool catches,
// so a broken alerts.yaml cannot pass it.
func TestRuleCheckCatches(t *testing.T) {
	rule := func(body string) string {
		return "groups:\n  - name: g\n    rules:\n" + body
	}
	tests := []struct {
		name, file, want string
	}{
		{"PromQL syntax", rule("      - alert: A\n        expr: rate(toolyard_stage_messages_total[5m]\n"), "unclosed left parenthesis"},
		{"misspelt key", rule("      - alert: A\n        exprs: up == 0\n"), "field exprs not found"},
		{"no expression", rule("      - alert: A\n        for: 5m\n"), "field 'expr' must be set"},
		{"alert and record", rule("      - alert: A\n        record: a:b\n        expr: up\n"), "only one of 'record' and 'alert'"},
		{"broken template", rule("      - alert: A\n        expr: up == 0\n        annotations:\n          summary: \"{{ $labels.stage \"\n"), "template"},
		{"bad duration", rule("      - alert: A\n        expr: up == 0\n        for: soon\n"), "not a valid duration"},
		{"duplicate group", "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: up\n  - name: g\n    rules:\n      - alert: B\n        expr: up\n", "repeated in the same file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := checkRules([]byte(tt.file))
			var all []string
			for _, e := range errs {
				all = append(all, e.Error())
			}
			if !strings.Contains(strings.Join(all, "\n"), tt.want) {
				t.Errorf("errors %q, want one saying %q", all, tt.want)
			}
		})
	}
}

// TestGrafanaDashboardValid checks toolyard.json as Grafana would need it:
// unique panel ids, panels on the 24-column grid without overlap,
// Prometheus targets with unique refIds, and queries that parse as PromQL
// and select only series the code exports.
func TestGrafanaDashboardValid(t *testing.T) {
	raw, err := os.ReadFile("grafana/toolyard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		UID           string `json:"uid"`
		Title         string `json:"title"`
		SchemaVersion int    `json:"schemaVersion"`
		Panels        []struct {
			ID         int    `json:"id"`
			Type       string `json:"type"`
			Title      string `json:"title"`
			Datasource struct {
				Type string `json:"type"`
				UID  string `json:"uid"`
			} `json:"datasource"`
			GridPos struct{ H, W, X, Y int } `json:"gridPos"`
			Targets []struct {
				RefID string `json:"refId"`
				Expr  string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("toolyard.json: %v", err)
	}
	if d.UID == "" || d.Title == "" || d.SchemaVersion < 36 {
		t.Errorf("dashboard uid %q, title %q, schemaVersion %d: want both set and a schema Grafana 10+ reads (≥ 36)", d.UID, d.Title, d.SchemaVersion)
	}
	known := registeredMetrics(t)
	ids := map[int]bool{}
	type cell struct{ x, y int }
	taken := map[cell]string{}
	panelTypes := []string{"timeseries", "stat", "gauge", "bargauge", "table", "heatmap", "text"}
	for _, p := range d.Panels {
		if ids[p.ID] || p.ID == 0 {
			t.Errorf("panel %q: id %d missing or used twice", p.Title, p.ID)
		}
		ids[p.ID] = true
		if !slices.Contains(panelTypes, p.Type) {
			t.Errorf("panel %q: type %q is not one of %v", p.Title, p.Type, panelTypes)
		}
		if p.Datasource.Type != "prometheus" {
			t.Errorf("panel %q: datasource %q, want prometheus", p.Title, p.Datasource.Type)
		}
		g := p.GridPos
		if g.W <= 0 || g.H <= 0 || g.X < 0 || g.Y < 0 || g.X+g.W > 24 {
			t.Errorf("panel %q: gridPos %+v is off the 24-column grid", p.Title, g)
		}
		for x := g.X; x < g.X+g.W; x++ {
			for y := g.Y; y < g.Y+g.H; y++ {
				if other, ok := taken[cell{x, y}]; ok {
					t.Errorf("panel %q overlaps panel %q at (%d,%d)", p.Title, other, x, y)
					x, y = g.X+g.W, g.Y+g.H
					continue
				}
				taken[cell{x, y}] = p.Title
			}
		}
		refs := map[string]bool{}
		for _, tg := range p.Targets {
			if tg.RefID == "" || refs[tg.RefID] {
				t.Errorf("panel %q: refId %q missing or used twice", p.Title, tg.RefID)
			}
			refs[tg.RefID] = true
			series, err := selectedSeries(tg.Expr, known)
			if err != nil {
				t.Errorf("panel %q: %s: %v", p.Title, tg.Expr, err)
				continue
			}
			for _, s := range series {
				if !known[s] {
					t.Errorf("panel %q selects %s, which the code does not export", p.Title, s)
				}
			}
		}
	}
}
