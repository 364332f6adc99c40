package ops_test

import (
	"os"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/roles"
)

// The execute workers of both deploys publish NATS-request tools with the
// tools credential: with only the worker's own (which may publish no tool
// subject) every such call is refused, as the worker warns at start-up.
func TestDeployedExecutorsHaveToolCreds(t *testing.T) {
	var cf composeFile
	raw, err := os.ReadFile("deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &cf); err != nil {
		t.Fatal(err)
	}
	var k8sArgs []string
	for _, o := range readObjects(t, "deploy/k8s/workers.yaml") {
		if o.Kind == "Deployment" && o.Metadata.Name == "toolyard-"+bind.StageExecute {
			for _, c := range o.Spec.Template.Spec.Containers {
				k8sArgs = append(k8sArgs, c.Args...)
			}
		}
	}
	for _, tc := range []struct {
		deploy, want string
		args         []string
	}{
		{"compose.yaml", "/keys/creds/tools.creds", cf.Services[bind.StageExecute].Command},
		{"k8s/workers.yaml", "/etc/toolyard/tools.creds", k8sArgs},
	} {
		i := slices.Index(tc.args, "--tool-creds")
		if i < 0 || i+1 >= len(tc.args) || tc.args[i+1] != tc.want {
			t.Errorf("%s: the execute worker runs without --tool-creds %s: %q", tc.deploy, tc.want, tc.args)
		}
	}
}

// Each KEDA trigger reads the stream its stage's durable consumer is on
// (a stage's lag on another stream would never move).
func TestKEDATriggersReadTheirStagesStream(t *testing.T) {
	for _, o := range readObjects(t, "deploy/k8s/keda.yaml") {
		for _, tr := range o.Spec.Triggers {
			stream, consumer := tr.Metadata["stream"], tr.Metadata["consumer"]
			if want, ok := roles.StageStreams[consumer]; !ok || want != stream {
				t.Errorf("%s: consumer %s is on %s, the trigger reads %s", o.Metadata.Name, consumer, want, stream)
			}
		}
	}
}
