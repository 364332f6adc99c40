package discover

import (
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestRegistryVersionFollowsTheTools(t *testing.T) {
	a := schemas.Manifest{ID: "files/find", Description: "find files by name"}
	b := schemas.Manifest{ID: "mail/send", Description: "send an email"}
	e1, err := New([]schemas.Manifest{a, b})
	if err != nil {
		t.Fatal(err)
	}
	defer e1.Close()
	e2, err := New([]schemas.Manifest{b, a})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	v := e1.RegistryVersion()
	if e2.RegistryVersion() != v {
		t.Fatalf("same tools in another order: %s and %s", v, e2.RegistryVersion())
	}
	b2 := b
	b2.Description = "send an email to someone"
	steps := []struct {
		name string
		do   func() error
	}{
		{"changed tool", func() error { return e1.Put(b2) }},
		{"added tool", func() error { return e1.Put(schemas.Manifest{ID: "x/y", Description: "z"}) }},
		{"removed tool", func() error { return e1.Remove("x/y") }},
	}
	versions := []string{v}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, e1.RegistryVersion())
	}
	// start, changed, added are all different; removing the added tool
	// goes back to changed.
	if versions[0] == versions[1] || versions[1] == versions[2] || versions[0] == versions[2] || versions[3] != versions[1] {
		t.Errorf("versions over start, change, add, remove: %v", versions)
	}
	if err := e2.Put(b2); err != nil {
		t.Fatal(err)
	}
	if e2.RegistryVersion() != e1.RegistryVersion() {
		t.Errorf("same updates, different versions: %s and %s", e1.RegistryVersion(), e2.RegistryVersion())
	}
}
