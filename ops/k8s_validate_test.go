package ops_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	kyaml "sigs.k8s.io/yaml"
)

// The offline stand-in for kubeconform: what `kubectl apply
// --validate=strict` would reject, found without a cluster or a download.
// Built-in kinds are decoded into their k8s.io/api types (the same structs
// the API server decodes into), case-sensitively, refusing unknown and
// duplicate fields; KEDA's kinds are checked against the OpenAPI schema of
// KEDA's own CRDs, pinned in testdata/keda (SOURCE.md says where from).

// builtinGroups are the API groups whose kinds a manifest here may use; a
// kind outside them (or a group/version pair that does not exist) is refused.
var builtinGroups = []func(*runtime.Scheme) error{
	corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, rbacv1.AddToScheme,
	policyv1.AddToScheme, autoscalingv2.AddToScheme, networkingv1.AddToScheme,
}

// kedaCRDs are the pinned CustomResourceDefinitions, by file in testdata/keda.
var kedaCRDs = []string{"keda.sh_scaledobjects.yaml", "keda.sh_triggerauthentications.yaml"}

// manifestValidator validates one Kubernetes manifest document at a time.
type manifestValidator struct {
	scheme *runtime.Scheme
	crds   map[schema.GroupVersionKind]*jsonschema.Schema
}

func newManifestValidator(crdDir string) (*manifestValidator, error) {
	v := &manifestValidator{scheme: runtime.NewScheme(), crds: map[schema.GroupVersionKind]*jsonschema.Schema{}}
	for _, add := range builtinGroups {
		if err := add(v.scheme); err != nil {
			return nil, fmt.Errorf("register built-in kinds: %w", err)
		}
	}
	c := jsonschema.NewCompiler()
	// OpenAPI v3.0 schemas read as draft 2020; the keywords CRDs use mean
	// the same in both, and x-kubernetes-* extensions are ignored (the one
	// CEL rule is checked by hand: checkScaledObjectRules).
	c.DefaultDraft(jsonschema.Draft2020)
	for _, name := range kedaCRDs {
		if err := v.addCRD(c, filepath.Join(crdDir, name)); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// crdFile holds the parts of a CustomResourceDefinition that say which
// kind it defines and what its objects must look like.
type crdFile struct {
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Served bool   `json:"served"`
			Schema struct {
				OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

func (v *manifestValidator) addCRD(c *jsonschema.Compiler, path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read CRD: %w", err)
	}
	var crd crdFile
	if err := kyaml.Unmarshal(raw, &crd); err != nil {
		return fmt.Errorf("CRD %s: %w", path, err)
	}
	for _, ver := range crd.Spec.Versions {
		if !ver.Served || ver.Schema.OpenAPIV3Schema == nil {
			continue
		}
		gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: ver.Name, Kind: crd.Spec.Names.Kind}
		doc, err := jsonRoundTrip(closeObjects(ver.Schema.OpenAPIV3Schema))
		if err != nil {
			return fmt.Errorf("CRD %s %s: %w", path, gvk, err)
		}
		url := "crd:///" + gvk.Group + "/" + gvk.Version + "/" + gvk.Kind
		if err := c.AddResource(url, doc); err != nil {
			return fmt.Errorf("CRD %s %s: %w", path, gvk, err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			return fmt.Errorf("CRD %s %s: compile schema: %w", path, gvk, err)
		}
		v.crds[gvk] = sch
	}
	if len(v.crds) == 0 {
		return fmt.Errorf("CRD %s: no served version with a schema", path)
	}
	return nil
}

// closeObjects makes every object schema that lists its properties refuse
// others, as the API server's strict field validation does (it prunes or
// rejects unknown fields; a JSON Schema would let them through), unless the
// CRD keeps unknown fields on purpose. nullable becomes a "null" type.
func closeObjects(s map[string]any) map[string]any {
	_, hasProps := s["properties"]
	_, hasAdditional := s["additionalProperties"]
	if hasProps && !hasAdditional && s["x-kubernetes-preserve-unknown-fields"] != true {
		s["additionalProperties"] = false
	}
	if s["nullable"] == true {
		if t, ok := s["type"].(string); ok {
			s["type"] = []any{t, "null"}
		}
	}
	for _, key := range []string{"properties", "patternProperties"} {
		if props, ok := s[key].(map[string]any); ok {
			for _, p := range props {
				if ps, ok := p.(map[string]any); ok {
					closeObjects(ps)
				}
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties", "not"} {
		if sub, ok := s[key].(map[string]any); ok {
			closeObjects(sub)
		}
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		if subs, ok := s[key].([]any); ok {
			for _, sub := range subs {
				if ss, ok := sub.(map[string]any); ok {
					closeObjects(ss)
				}
			}
		}
	}
	return s
}

// jsonRoundTrip turns a decoded YAML value into what the JSON Schema
// library expects (numbers as json.Number).
func jsonRoundTrip(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(raw))
}

// validate checks one YAML document; the error names the field at fault.
func (v *manifestValidator) validate(doc []byte) error {
	// YAML 1.1 as kubectl reads it, duplicate keys refused.
	data, err := kyaml.YAMLToJSONStrict(doc)
	if err != nil {
		return fmt.Errorf("YAML: %w", err)
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		return fmt.Errorf("apiVersion/kind: %w", err)
	}
	if tm.APIVersion == "" || tm.Kind == "" {
		return errors.New("apiVersion and kind are required")
	}
	gv, err := schema.ParseGroupVersion(tm.APIVersion)
	if err != nil {
		return fmt.Errorf("apiVersion %q: %w", tm.APIVersion, err)
	}
	gvk := gv.WithKind(tm.Kind)
	switch {
	case v.scheme.Recognizes(gvk):
		return v.validateBuiltin(gvk, data)
	case v.crds[gvk] != nil:
		return v.validateCustom(gvk, data)
	default:
		return fmt.Errorf("unknown kind %q in apiVersion %q (not a built-in kind nor a pinned CRD)", tm.Kind, tm.APIVersion)
	}
}

func (v *manifestValidator) validateBuiltin(gvk schema.GroupVersionKind, data []byte) error {
	obj, err := v.scheme.New(gvk)
	if err != nil {
		return fmt.Errorf("%s: %w", gvk, err)
	}
	strictErrs, err := kjson.UnmarshalStrict(data, obj)
	if err != nil {
		return fmt.Errorf("%s: %w", gvk.Kind, err)
	}
	if len(strictErrs) > 0 {
		return fmt.Errorf("%s: %w", gvk.Kind, errors.Join(strictErrs...))
	}
	return checkObjectMeta(obj.(metav1.Object))
}

func (v *manifestValidator) validateCustom(gvk schema.GroupVersionKind, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", gvk.Kind, err)
	}
	if err := v.crds[gvk].Validate(inst); err != nil {
		return fmt.Errorf("%s: %w", gvk.Kind, err)
	}
	// A CRD's schema leaves metadata to the API server: check it as the
	// server would, against ObjectMeta.
	var obj struct {
		Metadata json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return fmt.Errorf("%s: %w", gvk.Kind, err)
	}
	var meta metav1.ObjectMeta
	if strictErrs, err := kjson.UnmarshalStrict(obj.Metadata, &meta); err != nil || len(strictErrs) > 0 {
		return fmt.Errorf("%s metadata: %w", gvk.Kind, errors.Join(append(strictErrs, err)...))
	}
	if err := checkObjectMeta(&meta); err != nil {
		return err
	}
	if gvk.Kind == "ScaledObject" {
		return checkScaledObjectRules(data)
	}
	return nil
}

// checkObjectMeta asks of every object what the API server would: a name
// (these manifests never use generateName).
func checkObjectMeta(m metav1.Object) error {
	if m.GetName() == "" {
		return errors.New("metadata.name is required")
	}
	return nil
}

// scaledObjectCEL is the one x-kubernetes-validations rule of the pinned
// ScaledObject CRD; TestKEDACRDRulesKnown fails if the CRD gains another,
// since the JSON Schema validator does not evaluate CEL.
const scaledObjectCEL = "!has(self.minReplicaCount) || self.minReplicaCount <= (has(self.maxReplicaCount) ? self.maxReplicaCount : 100)"

func checkScaledObjectRules(data []byte) error {
	var so struct {
		Spec struct {
			Min *int64 `json:"minReplicaCount"`
			Max *int64 `json:"maxReplicaCount"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(data, &so); err != nil {
		return fmt.Errorf("ScaledObject: %w", err)
	}
	maxCount := int64(100) // KEDA's default, as the rule says
	if so.Spec.Max != nil {
		maxCount = *so.Spec.Max
	}
	if so.Spec.Min != nil && *so.Spec.Min > maxCount {
		return fmt.Errorf("ScaledObject: minReplicaCount %d must be less than or equal to maxReplicaCount %d", *so.Spec.Min, maxCount)
	}
	return nil
}

// splitDocuments returns the non-empty YAML documents of a stream, the way
// kubectl splits a file on "---".
func splitDocuments(raw []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(raw)))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if isEmptyDocument(doc) {
			continue
		}
		docs = append(docs, doc)
	}
}

// isEmptyDocument reports a document holding only comments and blank lines.
func isEmptyDocument(doc []byte) bool {
	for line := range strings.Lines(string(doc)) {
		line = strings.TrimSpace(line)
		if line != "" && line != "---" && !strings.HasPrefix(line, "#") {
			return false
		}
	}
	return true
}

// collectCELRules appends the rule of every x-kubernetes-validations entry
// found anywhere in a CRD file.
func collectCELRules(t *testing.T, raw []byte, rules *[]string) {
	t.Helper()
	var doc any
	if err := kyaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(n any) {
		switch n := n.(type) {
		case map[string]any:
			if vs, ok := n["x-kubernetes-validations"].([]any); ok {
				for _, v := range vs {
					if m, ok := v.(map[string]any); ok {
						r, _ := m["rule"].(string)
						*rules = append(*rules, r)
					}
				}
			}
			for _, c := range n {
				walk(c)
			}
		case []any:
			for _, c := range n {
				walk(c)
			}
		}
	}
	walk(doc)
}
