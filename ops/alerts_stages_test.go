package ops_test

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolyard/toolyard/workers/roles"
)

// ToolyardStageDown names every stage with a durable consumer of its own
// (a new stage must be added to it, or a stage with no worker would go
// unnoticed: only its workers report its lag), and no other.
func TestStageDownAlertCoversEveryStage(t *testing.T) {
	raw, err := os.ReadFile("prometheus/alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var rf ruleFile
	if err := yaml.Unmarshal(raw, &rf); err != nil {
		t.Fatal(err)
	}
	var expr string
	for _, g := range rf.Groups {
		for _, r := range g.Rules {
			if r.Alert == "ToolyardStageDown" {
				expr = r.Expr
			}
		}
	}
	if expr == "" {
		t.Fatal("alerts.yaml: no ToolyardStageDown rule")
	}
	var got []string
	for _, m := range regexp.MustCompile(`absent\(toolyard_stage_consumer_lag\{stage="([a-z_]+)"\}\)`).FindAllStringSubmatch(expr, -1) {
		got = append(got, m[1])
	}
	var want []string
	for st := range roles.StageStreams {
		if st != roles.StageReplay { // the replay shards run only during 'toolyard replay --workers'
			want = append(want, st)
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("ToolyardStageDown watches %v; the stages with a durable consumer are %v", got, want)
	}
}
