package ops_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/roles"
)

// k8sObject holds the fields of a manifest that tie it to Toolyard (stages,
// streams, consumers). Whether each document is a valid Kubernetes object at
// all (known kind, no unknown or misspelled field, right types, KEDA's CRD
// schema) is TestK8sManifestsValidate's job (k8s_validate_test.go).
type k8sObject struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name      string `yaml:"name"`
		Namespace string `yaml:"namespace"`
	} `yaml:"metadata"`
	Spec struct {
		ScaleTargetRef struct {
			Name string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
		Triggers []struct {
			Type     string            `yaml:"type"`
			Metadata map[string]string `yaml:"metadata"`
		} `yaml:"triggers"`
		Replicas int `yaml:"replicas"`
		Template struct {
			Spec struct {
				Containers []struct {
					Args []string `yaml:"args"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readObjects(t *testing.T, path string) []k8sObject {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []k8sObject
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var o k8sObject
		if err := dec.Decode(&o); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("%s: document %d: %v", path, len(out)+1, err)
		}
		if o.APIVersion == "" || o.Kind == "" || o.Metadata.Name == "" || o.Metadata.Namespace == "" {
			t.Errorf("%s: document %d lacks apiVersion, kind, metadata.name or namespace", path, len(out)+1)
		}
		out = append(out, o)
	}
}

// kedaJetStreamFields are the nats-jetstream trigger's metadata keys
// (https://keda.sh/docs/latest/scalers/nats-jetstream/).
var kedaJetStreamFields = []string{"natsServerMonitoringEndpoint", "account", "stream", "consumer", "lagThreshold", "activationLagThreshold", "useHttps"}

func TestK8sWorkersScaledOnLag(t *testing.T) {
	deployments := map[string]bool{}
	for _, o := range readObjects(t, "deploy/k8s/workers.yaml") {
		if o.Kind == "Deployment" {
			deployments[o.Metadata.Name] = true
		}
	}
	scaled := map[string]bool{}
	for _, o := range readObjects(t, "deploy/k8s/keda.yaml") {
		if o.APIVersion != "keda.sh/v1alpha1" || o.Kind != "ScaledObject" {
			t.Errorf("%s: want a keda.sh/v1alpha1 ScaledObject, got %s %s", o.Metadata.Name, o.APIVersion, o.Kind)
			continue
		}
		if !deployments[o.Spec.ScaleTargetRef.Name] {
			t.Errorf("%s scales %q, which workers.yaml does not deploy", o.Metadata.Name, o.Spec.ScaleTargetRef.Name)
		}
		for _, tr := range o.Spec.Triggers {
			if tr.Type != "nats-jetstream" {
				t.Errorf("%s: trigger %q, want nats-jetstream", o.Metadata.Name, tr.Type)
			}
			for k := range tr.Metadata {
				if !slices.Contains(kedaJetStreamFields, k) {
					t.Errorf("%s: %q is not a nats-jetstream trigger field", o.Metadata.Name, k)
				}
			}
			stream, consumer := tr.Metadata["stream"], tr.Metadata["consumer"]
			if !slices.Contains([]string{pipeline.StreamAgent, pipeline.StreamPipe, pipeline.StreamResult}, stream) {
				t.Errorf("%s: stream %q is not one a stage reads", o.Metadata.Name, stream)
			}
			// A stage's durable consumer is named after the stage (pipeline/runner.go).
			if _, ok := roles.StageStreams[consumer]; !ok {
				t.Errorf("%s: consumer %q is not a stage", o.Metadata.Name, consumer)
			}
			scaled[consumer] = true
		}
	}
	for _, s := range bind.Stages {
		if !deployments["toolyard-"+s] || !scaled[s] {
			t.Errorf("stage %s: want a Deployment toolyard-%s and a ScaledObject on its consumer", s, s)
		}
	}
}

func TestNATSHelmValues(t *testing.T) {
	raw, err := os.ReadFile("deploy/k8s/nats-values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Config struct {
			Cluster struct {
				Enabled  bool `yaml:"enabled"`
				Replicas int  `yaml:"replicas"`
			} `yaml:"cluster"`
			JetStream struct {
				Enabled bool `yaml:"enabled"`
			} `yaml:"jetstream"`
			Monitor struct {
				Enabled bool `yaml:"enabled"`
			} `yaml:"monitor"`
		} `yaml:"config"`
		Service struct {
			Ports struct {
				Monitor struct {
					Enabled bool `yaml:"enabled"`
				} `yaml:"monitor"`
			} `yaml:"ports"`
		} `yaml:"service"`
	}
	if err := yaml.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	c := v.Config
	if !c.Cluster.Enabled || c.Cluster.Replicas < 3 || !c.JetStream.Enabled || !c.Monitor.Enabled {
		t.Errorf("nats-values.yaml: want a JetStream cluster of 3 with monitoring (KEDA reads lag there), got %+v", c)
	}
	// KEDA's scaler first asks the endpoint of keda.yaml, the chart's
	// Service: the chart leaves the monitoring port off that Service
	// (service.ports.monitor.enabled: false) unless the values turn it on.
	for _, o := range readObjects(t, "deploy/k8s/keda.yaml") {
		for _, tr := range o.Spec.Triggers {
			host := strings.Split(tr.Metadata["natsServerMonitoringEndpoint"], ".")[0]
			if host == "nats" && !v.Service.Ports.Monitor.Enabled {
				t.Errorf("%s reads %s, but nats-values.yaml does not put the monitoring port on the Service nats (service.ports.monitor.enabled)", o.Metadata.Name, tr.Metadata["natsServerMonitoringEndpoint"])
			}
		}
	}
}
