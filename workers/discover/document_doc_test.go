package discover

import (
	"reflect"
	"testing"
)

// TestIndexDocFields checks that indexDoc's fields reach bleve under the
// names the mapping and the queries use: a renamed tag would index a field
// nothing searches, silently.
func TestIndexDocFields(t *testing.T) {
	want := map[string]string{
		"Name": fieldName, "Keywords": fieldKeywords, "Examples": fieldExamples,
		"Description": fieldDescription, "Params": fieldParams, "ID": fieldID, "Server": fieldServer,
	}
	typ := reflect.TypeFor[indexDoc]()
	if typ.NumField() != len(want) {
		t.Fatalf("indexDoc has %d fields, the mapping %d", typ.NumField(), len(want))
	}
	for i := range typ.NumField() {
		f := typ.Field(i)
		if got := f.Tag.Get("json"); got != want[f.Name] {
			t.Errorf("field %s is indexed as %q, want %q", f.Name, got, want[f.Name])
		}
	}
}
