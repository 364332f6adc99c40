package resolve

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

func TestMissingError(t *testing.T) {
	tests := []struct {
		name        string
		text        string
		m           schemas.Manifest
		wantMissing []string
		wantMsg     string
	}{
		{
			"one parameter, example from the schema", "show disk usage", diskUsage,
			[]string{"path"},
			"tool system/disk_usage is missing required parameter path (string): Directory to measure. " +
				"Give it as key=value in the intent, e.g. [TOOL: system/disk_usage path=/tmp]",
		},
		{
			"several, found ones kept in the example", "send to ana@example.com", email,
			[]string{"subject", "body"},
			"tool email/send is missing required parameters: subject (string); body (string). " +
				`Give them as key=value in the intent, e.g. [TOOL: email/send to=ana@example.com subject="…" body="…"]`,
		},
		{
			"shaped example values", "fetch it", fetch,
			[]string{"url"},
			"tool web/fetch is missing required parameter url (string). " +
				"Give it as key=value in the intent, e.g. [TOOL: web/fetch url=https://example.com]",
		},
		{
			"example from the description", "check the weather", manifest("w/now", "Weather now", `{"type":"object","required":["city","days"],"properties":{
				"city":{"type":"string","description":"The city (e.g., New York, Paris)"},
				"days":{"type":"integer","description":"How many days, such as 3 or 5"}}}`),
			[]string{"city", "days"},
			"tool w/now is missing required parameters: city (string): The city (e.g., New York, Paris); days (integer): How many days, such as 3 or 5. " +
				`Give them as key=value in the intent, e.g. [TOOL: w/now city="New York" days=3]`,
		},
		{
			"description example of the wrong type is not used", "count", manifest("c/n", "Count", `{"type":"object","required":["n"],"properties":{
				"n":{"type":"integer","description":"A count (e.g., several)"}}}`),
			[]string{"n"},
			"tool c/n is missing required parameter n (integer): A count (e.g., several). Give it as key=value in the intent, e.g. [TOOL: c/n n=10]",
		},
		{
			"a currency's end is no e-mail's", "convert 50 to euros", manifest("fx/convert", "Convert currency", `{"type":"object","required":["amount","from","to"],"properties":{
				"amount":{"type":"number"},"from":{"type":"string","description":"ISO 4217 source currency code"},
				"to":{"type":"string","description":"ISO 4217 target currency code"}}}`),
			[]string{"from"},
			"tool fx/convert is missing required parameter from (string): ISO 4217 source currency code. " +
				"Give it as key=value in the intent, e.g. [TOOL: fx/convert amount=50 to=EUR from=USD]",
		},
		{
			"free text left nothing", "google maps scraper limit 5", scraper,
			[]string{"query"},
			"tool maps/google_maps_scraper is missing required parameter query (string): What to search for. " +
				`Give it as key=value in the intent, e.g. [TOOL: maps/google_maps_scraper limit=5 query="…"]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Resolve(context.Background(), routed(tt.text), tt.m)
			var me *MissingError
			if !errors.As(err, &me) {
				t.Fatalf("err = %v, want *MissingError", err)
			}
			var names []string
			for _, p := range me.Missing {
				names = append(names, p.Name)
			}
			if !reflect.DeepEqual(names, tt.wantMissing) {
				t.Errorf("missing = %v, want %v", names, tt.wantMissing)
			}
			if me.ToolID != tt.m.ID {
				t.Errorf("tool id = %q", me.ToolID)
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("message\n got %s\nwant %s", err, tt.wantMsg)
			}
		})
	}
}

// The suggested intent must itself resolve: that is the point of showing it.
func TestMissingErrorExampleResolves(t *testing.T) {
	for _, m := range []schemas.Manifest{diskUsage, checksum, fetch, weather} {
		_, err := Resolve(context.Background(), routed("do it"), m)
		var me *MissingError
		if !errors.As(err, &me) {
			t.Fatalf("%s: err = %v, want *MissingError", m.ID, err)
		}
		ex := me.Example()
		text := ex[len("[TOOL: ") : len(ex)-1]
		if _, err := Resolve(context.Background(), routed(text), m); err != nil {
			t.Errorf("%s: suggested %s does not resolve: %v", m.ID, ex, err)
		}
	}
}

func TestMissingErrorWithoutOrder(t *testing.T) {
	e := &MissingError{ToolID: "t", Found: map[string]any{"b": int64(2), "a": "x y"},
		Missing: []Param{{Name: "c", Type: "integer", Enum: []any{1.0, 2.0}, Example: "1"}}}
	want := `tool t is missing required parameter c (one of 1, 2). Give it as key=value in the intent, e.g. [TOOL: t a="x y" b=2 c=1]`
	if e.Error() != want {
		t.Fatalf("got  %s\nwant %s", e, want)
	}
}

func TestInvalidError(t *testing.T) {
	tests := []struct {
		name string
		text string
		m    schemas.Manifest
		want []string
	}{
		{"not an integer", "scrape query=x limit=fifty", scraper,
			[]string{`limit: "fifty" is not an integer (expected integer, e.g. limit=20)`}},
		{"above maximum", "scrape query=x limit=1,000", scraper,
			[]string{"limit: maximum: got 1,000, want 500 (expected integer, e.g. limit=20)"}},
		{"not in enum", "checksum path=/x algorithm=crc32", checksum,
			[]string{`algorithm: "crc32" is not one of md5, sha1, sha256 (expected one of md5, sha1, sha256, e.g. algorithm=sha256)`}},
		{"bad boolean", "scrape query=x verbose=maybe", scraper,
			[]string{`verbose: "maybe" is not a yes/no value (use true/false, yes/no or on/off) (expected boolean, e.g. verbose=true)`}},
		{"invalid and missing together", "checksum algorithm=crc32", checksum,
			[]string{
				`algorithm: "crc32" is not one of md5, sha1, sha256 (expected one of md5, sha1, sha256, e.g. algorithm=sha256)`,
				"path: required but not given (expected string, e.g. path=/tmp)",
			}},
		{"pattern", "get code=abc", manifest("t/pattern", "Pattern", `{"type":"object","properties":{"code":{"type":"string","pattern":"^[0-9]+$","description":"Numeric code"}}}`),
			[]string{"code: 'abc' does not match pattern '^[0-9]+$' (expected string: Numeric code, e.g. code=\"…\")"}},
		{"top-level rule", "get a=1", manifest("t/oneof", "OneOf", `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a"],"not":{"required":["a"]}}`),
			[]string{"'not' failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Resolve(context.Background(), routed(tt.text), tt.m)
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want *InvalidError", err)
			}
			if !reflect.DeepEqual(ie.Problems, tt.want) {
				t.Fatalf("problems\n got %q\nwant %q", ie.Problems, tt.want)
			}
			wantMsg := "tool " + tt.m.ID + ": invalid parameters: " + tt.want[0]
			if got := err.Error(); len(got) < len(wantMsg) || got[:len(wantMsg)] != wantMsg {
				t.Fatalf("message %q does not start with %q", got, wantMsg)
			}
		})
	}
}

// A required parameter given blank is reported as missing, like one not
// given at all.
func TestBlankRequiredIsMissing(t *testing.T) {
	tests := []struct {
		name string
		text string
		m    schemas.Manifest
	}{
		{"empty quotes", `disk usage path=""`, diskUsage},
		{"spaces in quotes", `disk usage path="   "`, diskUsage},
		{"empty list", `archive files=[]`, archive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Resolve(context.Background(), routed(tt.text), tt.m)
			var me *MissingError
			if !errors.As(err, &me) || len(me.Missing) != 1 {
				t.Fatalf("err = %v, want *MissingError naming one parameter", err)
			}
		})
	}
}
