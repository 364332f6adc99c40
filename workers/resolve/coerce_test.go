package resolve

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestCoerce(t *testing.T) {
	str := &property{name: "s", typ: "string"}
	integer := &property{name: "n", typ: "integer"}
	number := &property{name: "x", typ: "number"}
	boolean := &property{name: "b", typ: "boolean"}
	list := &property{name: "tags", typ: "array", items: &property{typ: "string"}}
	ints := &property{name: "ids", typ: "array", items: &property{typ: "integer"}}
	untypedList := &property{name: "xs", typ: "array"}
	enum := &property{name: "algo", typ: "string", enum: []any{"md5", "SHA256"}}
	numEnum := &property{name: "level", typ: "integer", enum: []any{1.0, 2.0}}
	object := &property{name: "o", typ: "object"}
	untyped := &property{name: "u"}

	tests := []struct {
		name    string
		p       *property
		in      any
		want    any
		wantErr string
	}{
		{"string as is", str, " keep spaces ", " keep spaces ", ""},
		{"untyped stays text", untyped, "50", "50", ""},
		{"integer", integer, "50", int64(50), ""},
		{"integer thousands", integer, "1,000", int64(1000), ""},
		{"integer millions", integer, "-2,500,000", int64(-2500000), ""},
		{"integer from integral float", integer, "5.0", int64(5), ""},
		{"integer exponent", integer, "5e3", int64(5000), ""},
		{"integer fraction refused", integer, "5.5", nil, `"5.5" is not an integer`},
		{"integer words refused", integer, "fifty", nil, `"fifty" is not an integer`},
		{"bad thousands grouping", integer, "1,00", nil, "is not an integer"},
		{"hex refused", integer, "0x10", nil, "is not an integer"},
		{"inf refused", number, "inf", nil, `"inf" is not a number`},
		{"underscore refused", integer, "1_000", nil, "is not an integer"},
		{"number", number, "2.5", 2.5, ""},
		{"number thousands", number, "1,234.5", 1234.5, ""},
		{"number sign", number, "+3", 3.0, ""},
		{"currency sign", number, "$19.5", 19.5, ""},
		{"euro with thousands", number, "€12,500", 12500.0, ""},
		{"percent sign", number, "39.2%", 39.2, ""},
		{"currency sign alone refused", number, "$", nil, `"$" is not a number`},
		{"amount written short", number, "$250k", 250000.0, ""},
		{"amount in millions", number, "€1.2m", 1200000.0, ""},
		{"short amount needs its sign", number, "10k", nil, `"10k" is not a number`},
		{"sign and suffix alone refused", number, "$k", nil, `"$k" is not a number`},
		{"enum synonym", &property{name: "order", typ: "string", enum: []any{"ascending", "descending"}}, "desc", "descending", ""},
		{"enum separators", &property{name: "cmd", typ: "string", enum: []any{"open_valve", "close_valve"}}, "Open Valve", "open_valve", ""},
		{"enum plural", &property{name: "kind", typ: "string", enum: []any{"image", "video"}}, "videos", "video", ""},
		{"enum ambiguous prefix refused", &property{name: "kind", typ: "string", enum: []any{"image", "imagery"}}, "ima", nil, "is not one of"},
		{"bool yes", boolean, "yes", true, ""},
		{"bool off", boolean, "OFF", false, ""},
		{"bool true", boolean, "true", true, ""},
		{"bool no", boolean, "no", false, ""},
		{"bool on", boolean, "on", true, ""},
		{"bool false", boolean, "False", false, ""},
		{"bool refused", boolean, "maybe", nil, `"maybe" is not a yes/no value`},
		{"comma list", list, "a, b,,c ", []any{"a", "b", "c"}, ""},
		{"quoted list items", list, `"a b", 'c'`, []any{"a b", "c"}, ""},
		{"json list", list, `["x","y"]`, []any{"x", "y"}, ""},
		{"untyped list", untypedList, "p,q", []any{"p", "q"}, ""},
		{"list of integers", ints, "1, 2,3", []any{int64(1), int64(2), int64(3)}, ""},
		{"json list of integers", ints, "[1,2]", []any{int64(1), int64(2)}, ""},
		{"list item refused", ints, "1,two", nil, `item "two" is not an integer`},
		{"bad json list", list, "[1,", nil, "is not a JSON array"},
		{"enum case-insensitive", enum, "Sha256", "SHA256", ""},
		{"enum refused lists members", enum, "crc32", nil, `"crc32" is not one of md5, SHA256`},
		{"numeric enum", numEnum, "2", int64(2), ""},
		{"object", object, `{"a":1}`, map[string]any{"a": 1.0}, ""},
		{"object refused", object, "a=1", nil, "is not a JSON object"},
		{"default float to int", integer, 20.0, int64(20), ""},
		{"default passes through", str, 7.0, 7.0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := coerce(tt.p, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("coerce(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("coerce(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("coerce(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
		})
	}
}

func TestNameWords(t *testing.T) {
	tests := map[string]string{
		"max_results":    "max results",
		"maxResults":     "max results",
		"max-results":    "max results",
		"HTTPStatusCode": "http status code",
		"path":           "path",
		"files/checksum": "files checksum",
		"Google Maps":    "google maps",
	}
	for in, want := range tests {
		if got := strings.Join(nameWords(in), " "); got != want {
			t.Errorf("nameWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCoerceArgs(t *testing.T) {
	tests := []struct {
		name    string
		m       schemas.Manifest
		in      map[string]any
		want    map[string]any
		wantErr string
	}{
		{"xml strings typed", scraper,
			map[string]any{"query": "x", "limit": "1,000", "verbose": "yes", "tags": "a, b", "ratio": "0.5"},
			map[string]any{"query": "x", "limit": int64(1000), "verbose": true, "tags": []any{"a", "b"}, "ratio": 0.5}, ""},
		{"typed values untouched", scraper, map[string]any{"limit": 5.0, "tags": []any{"z"}}, map[string]any{"limit": 5.0, "tags": []any{"z"}}, ""},
		{"enum canonical", checksum, map[string]any{"algorithm": "SHA1"}, map[string]any{"algorithm": "sha1"}, ""},
		{"unknown keys untouched", diskUsage, map[string]any{"colour": "7"}, map[string]any{"colour": "7"}, ""},
		{"nil", diskUsage, nil, nil, ""},
		{"unconvertible", scraper, map[string]any{"limit": "fifty", "verbose": "perhaps"}, nil,
			`tool maps/google_maps_scraper: invalid parameters: limit: "fifty" is not an integer (expected integer, e.g. limit=20); verbose: "perhaps" is not a yes/no value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fmt.Sprint(tt.in)
			got, err := Coerce(tt.m, tt.in)
			if tt.wantErr != "" {
				var ie *InvalidError
				if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want *InvalidError starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
			if fmt.Sprint(tt.in) != before {
				t.Fatalf("input modified: %v", tt.in)
			}
		})
	}
}
