package integration

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// deployRun is one toolyard command of a deploy file, and where it is.
type deployRun struct {
	where string
	args  []string
}

// Every toolyard command the deploy files run (compose services, the k8s
// Job and Deployments) names a command and flags this binary has: each is
// run with --help, which parses the flags and runs nothing.
func TestDeployCommandsParse(t *testing.T) {
	var runs []deployRun
	var compose struct {
		Services map[string]struct {
			Image   string   `yaml:"image"`
			Command []string `yaml:"command"`
		} `yaml:"services"`
	}
	raw, err := os.ReadFile("../ops/deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatal(err)
	}
	for name, s := range compose.Services {
		if strings.Contains(s.Image, "toolyard") {
			runs = append(runs, deployRun{"compose.yaml " + name, s.Command})
		}
	}
	raw, err = os.ReadFile("../ops/deploy/k8s/workers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var o struct {
			Metadata struct{ Name string } `yaml:"metadata"`
			Spec     struct {
				Template struct {
					Spec struct {
						Containers []struct {
							Image string   `yaml:"image"`
							Args  []string `yaml:"args"`
						} `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&o); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for _, c := range o.Spec.Template.Spec.Containers {
			if strings.Contains(c.Image, "toolyard") {
				runs = append(runs, deployRun{"k8s/workers.yaml " + o.Metadata.Name, c.Args})
			}
		}
	}
	if len(runs) < 10 {
		t.Fatalf("only %d toolyard commands found in the deploy files", len(runs))
	}
	for _, r := range runs {
		out, err := exec.Command(binary, append(append([]string(nil), r.args...), "--help")...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Usage:") {
			t.Errorf("%s: toolyard %s: %v\n%s", r.where, strings.Join(r.args, " "), err, out)
		}
	}
}
