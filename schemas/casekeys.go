package schemas

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// caseProblems finds object keys that encoding/json would fold onto a
// field of t although the schema, which matches names exactly, never
// checked them: "Session_ID" beside "session_id" (the last one would win),
// or "eXeCutor" alone (decoded as the executor, validated as an unknown
// property). Either way a value would reach the worker unvalidated.
func caseProblems(t reflect.Type, inst any) []string {
	var out []string
	walkCase(t, inst, "", &out)
	sort.Strings(out)
	return out
}

func walkCase(t reflect.Type, inst any, path string, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch v := inst.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			fields := jsonFields(t)
			for key, val := range v {
				ft, exact := fields[key]
				if !exact {
					for name := range fields {
						if strings.EqualFold(name, key) {
							*out = append(*out, fmt.Sprintf("at %s: key %q is not %q: names are case-sensitive", path+"/"+key, key, name))
						}
					}
					continue
				}
				if container(val) {
					walkCase(ft, val, path+"/"+key, out)
				}
			}
		case reflect.Map:
			for key, val := range v {
				if container(val) {
					walkCase(t.Elem(), val, path+"/"+key, out)
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, val := range v {
				if container(val) {
					walkCase(t.Elem(), val, path+"/"+strconv.Itoa(i), out)
				}
			}
		}
	}
}

// container says whether walkCase has anything to look at in v: only
// objects have keys. Scalars are skipped before their path is built, which
// was most of this walk's cost (every message, at every stage).
func container(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

var fieldCache sync.Map // reflect.Type → map[string]reflect.Type

// jsonFields maps the JSON names of t's fields to their types. Fields that
// keep raw JSON are left out: their bytes are kept as written.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if f.Type == reflect.TypeFor[json.RawMessage]() {
			m[name] = reflect.TypeFor[any]()
			continue
		}
		m[name] = f.Type
	}
	fieldCache.Store(t, m)
	return m
}
