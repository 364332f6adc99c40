package ops_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// k8sDir holds the Kubernetes manifests; *-values.yaml files there are Helm
// values, not manifests (see TestNATSHelmValues).
const k8sDir = "deploy/k8s"

var sharedValidator = sync.OnceValues(func() (*manifestValidator, error) {
	return newManifestValidator("testdata/keda")
})

func validator(t *testing.T) *manifestValidator {
	t.Helper()
	v, err := sharedValidator()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestK8sManifestsValidate validates every document of every manifest file
// in deploy/k8s, so a new file is covered without touching this test.
func TestK8sManifestsValidate(t *testing.T) {
	v := validator(t)
	files, err := filepath.Glob(filepath.Join(k8sDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "-values.yaml") {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := splitDocuments(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(docs) == 0 {
			t.Errorf("%s: no manifest in it", f)
		}
		for i, doc := range docs {
			if err := v.validate(doc); err != nil {
				t.Errorf("%s: document %d: %v", f, i+1, err)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatalf("no manifest found under %s", k8sDir)
	}
}

// TestK8sValidatorRejects proves the validator can fail: each broken
// manifest must be refused for the reason named, and the sound ones pass.
func TestK8sValidatorRejects(t *testing.T) {
	const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: w, namespace: toolyard}
spec:
  REPLICAS
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec:
      containers:
        - name: worker
          image: toolyard:local
          CONTAINER
`
	const scaledObject = `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: s, namespace: toolyard}
spec:
  scaleTargetRef: {name: w}
  SPEC
  triggers:
    - type: nats-jetstream
      metadata: {stream: PIPE, consumer: route, lagThreshold: "100"}
`
	dep := func(replicas, container string) string {
		return strings.NewReplacer("REPLICAS", replicas, "CONTAINER", container).Replace(deployment)
	}
	so := func(spec string) string { return strings.Replace(scaledObject, "SPEC", spec, 1) }
	cases := []struct {
		name, doc string
		wantErr   string // "" for a manifest that must pass
	}{
		{"sound Deployment", dep("replicas: 2", "imagePullPolicy: IfNotPresent"), ""},
		{"sound ScaledObject", so("maxReplicaCount: 5"), ""},
		{"sound TriggerAuthentication", `apiVersion: keda.sh/v1alpha1
kind: TriggerAuthentication
metadata: {name: a, namespace: toolyard}
spec:
  secretTargetRef: [{parameter: password, name: nats, key: pw}]
`, ""},
		{"sound ConfigMap", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n", ""},

		{"misspelled field", dep("replica: 2", "imagePullPolicy: IfNotPresent"), `unknown field "spec.replica"`},
		{"field in the wrong case", dep("Replicas: 2", "imagePullPolicy: IfNotPresent"), `unknown field "spec.Replicas"`},
		{"misspelled nested field", dep("replicas: 2", "imagePullPolicyy: IfNotPresent"), `imagePullPolicyy`},
		{"wrong type", dep(`replicas: "two"`, "imagePullPolicy: IfNotPresent"), "spec.replicas of type int32"},
		{"wrong type for a list", dep("replicas: 2", "args: --stage"), "containers.args of type []string"},
		{"duplicate key", dep("replicas: 2\n  replicas: 3", "imagePullPolicy: IfNotPresent"), `key "replicas" already set`},
		{"unknown kind", strings.Replace(dep("replicas: 2", ""), "kind: Deployment", "kind: Deploymnet", 1), `unknown kind "Deploymnet"`},
		{"kind in an API version that has none", strings.Replace(dep("replicas: 2", ""), "apps/v1", "apps/v1beta9", 1), `unknown kind "Deployment"`},
		{"no kind", "apiVersion: v1\nmetadata: {name: c}\n", "apiVersion and kind are required"},
		{"no name", "apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: toolyard}\n", "metadata.name is required"},

		{"ScaledObject misspelled field", so("maxReplicas: 5"), "'maxReplicas' not allowed"},
		{"ScaledObject wrong type", so(`maxReplicaCount: "ten"`), "/spec/maxReplicaCount': got string, want integer"},
		{"ScaledObject misspelled metadata", strings.Replace(so(""), "namespace:", "namepsace:", 1), `unknown field "namepsace"`},
		{"ScaledObject without its required target", strings.Replace(so(""), "scaleTargetRef: {name: w}", "", 1), "missing property 'scaleTargetRef'"},
		{"ScaledObject min above max (the CRD's CEL rule)", so("minReplicaCount: 6\n  maxReplicaCount: 5"), "minReplicaCount 6 must be less than or equal to maxReplicaCount 5"},
		{"ScaledObject unknown version", strings.Replace(so(""), "v1alpha1", "v1beta1", 1), `unknown kind "ScaledObject"`},
		{"TriggerAuthentication misspelled nested field", `apiVersion: keda.sh/v1alpha1
kind: TriggerAuthentication
metadata: {name: a}
spec:
  secretTargetRef: [{parameter: password, secretName: nats, key: pw}]
`, "'secretName' not allowed"},
	}
	v := validator(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := v.validate([]byte(tc.doc))
			if err != nil {
				t.Log(err) // shows with -v what an operator would read
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("want it accepted, got %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("want it refused (%s), it passed", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("refused for another reason: want %q in %v", tc.wantErr, err)
			}
		})
	}
}

// TestKEDACRDRulesKnown guards checkScaledObjectRules: the JSON Schema
// validator skips x-kubernetes-validations (CEL), so every such rule in the
// pinned CRDs must be one this package checks by hand.
func TestKEDACRDRulesKnown(t *testing.T) {
	for _, name := range kedaCRDs {
		raw, err := os.ReadFile(filepath.Join("testdata/keda", name))
		if err != nil {
			t.Fatal(err)
		}
		var rules []string
		collectCELRules(t, raw, &rules)
		for _, r := range rules {
			if name != "keda.sh_scaledobjects.yaml" || r != scaledObjectCEL {
				t.Errorf("%s: CEL rule %q is not checked by the validator", name, r)
			}
		}
	}
}

// TestKEDACRDsPinned keeps the copied CRDs what SOURCE.md says they are:
// an edit by hand would quietly change what the manifests are held to.
func TestKEDACRDsPinned(t *testing.T) {
	note, err := os.ReadFile("testdata/keda/SOURCE.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range kedaCRDs {
		raw, err := os.ReadFile(filepath.Join("testdata/keda", name))
		if err != nil {
			t.Fatal(err)
		}
		sum := fmt.Sprintf("%x", sha256.Sum256(raw))
		if !strings.Contains(string(note), name+"`\n  sha256 `"+sum+"`") {
			t.Errorf("testdata/keda/%s: sha256 %s is not the one SOURCE.md records", name, sum)
		}
	}
}
