package ops_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/roles"
)

// The execute workers of both deploys publish NATS-request tools with the
// tools credential: with only the worker's own (which may publish no tool
// subject) every such call is refused, as the worker warns at start-up.
func TestDeployedExecutorsHaveToolCreds(t *testing.T) {
	cf := readCompose(t)
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

// Both deploys run what 'up' runs beside the stages: the session stage,
// the micro service (agents' find_tools and activate, the MCP gateway,
// 'toolyard feedback' — without it they get "no toolyard service
// answers") at two replicas, and the predict stage; Prometheus scrapes
// every worker service of compose.
func TestDeploysRunServiceSessionAndPredict(t *testing.T) {
	cf := readCompose(t)
	var composeRuns [][]string
	for _, s := range cf.Services {
		if slices.Contains(s.Command, "worker") {
			composeRuns = append(composeRuns, s.Command)
		}
	}
	var k8sRuns [][]string
	replicas := map[string]int{}
	for _, o := range readObjects(t, "deploy/k8s/workers.yaml") {
		for _, c := range o.Spec.Template.Spec.Containers {
			if slices.Contains(c.Args, "worker") {
				k8sRuns = append(k8sRuns, c.Args)
				replicas[strings.Join(c.Args, " ")] = o.Spec.Replicas
			}
		}
	}
	has := func(runs [][]string, want ...string) bool {
		for _, r := range runs {
			if i := slices.Index(r, "--stage"); i >= 0 && i+1 < len(r) && r[i+1] == want[0] {
				ok := true
				for _, w := range want[1:] {
					ok = ok && slices.Contains(r, w)
				}
				if ok {
					return true
				}
			}
		}
		return false
	}
	for _, d := range []struct {
		name string
		runs [][]string
	}{{"compose.yaml", composeRuns}, {"k8s/workers.yaml", k8sRuns}} {
		if !has(d.runs, "session", "--service") {
			t.Errorf("%s: no worker runs the session stage with --service", d.name)
		}
		if !has(d.runs, "predict") {
			t.Errorf("%s: no worker runs the predict stage", d.name)
		}
	}
	for args, n := range replicas {
		if strings.Contains(args, "--service") && n < 2 {
			t.Errorf("k8s: %q runs the service at %d replica(s): one failure stops it", args, n)
		}
	}
	prom, err := os.ReadFile("deploy/prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	var pc struct {
		ScrapeConfigs []struct {
			DNSSD []struct {
				Names []string `yaml:"names"`
			} `yaml:"dns_sd_configs"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(prom, &pc); err != nil {
		t.Fatal(err)
	}
	scraped := map[string]bool{}
	for _, sc := range pc.ScrapeConfigs {
		for _, d := range sc.DNSSD {
			for _, n := range d.Names {
				scraped[n] = true
			}
		}
	}
	for name, s := range cf.Services {
		if slices.Contains(s.Command, "worker") && !scraped[name] {
			t.Errorf("prometheus.yml does not scrape the compose worker service %s", name)
		}
	}
}
