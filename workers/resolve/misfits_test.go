package resolve

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/toolyard/toolyard/schemas"
)

// misfitImage converts images to a format named by plain words; misfitShip
// ships by a service named by codes.
var (
	misfitImage = manifest("img/convert", "Convert image", `{"type":"object","required":["path"],"properties":{
		"path":{"type":"string"},"format":{"type":"string","enum":["png","jpeg","webp"],"default":"png","description":"Output format"}}}`)
	misfitShip = manifest("ship/label", "Shipping label", `{"type":"object","required":["order"],"properties":{
		"order":{"type":"string"},"service":{"type":"string","enum":["ups2day","fedex1day","usps3day"],"default":"usps3day"}}}`)
)

// unmappedCase is a request to tool m and the values it should leave
// unmapped.
type unmappedCase struct {
	m    schemas.Manifest
	text string
	want []schemas.Unmapped
}

// checkUnmapped resolves each case as a subtest and compares what the
// call left unmapped with want.
func checkUnmapped(t *testing.T, cases []unmappedCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.text, func(t *testing.T) {
			call, err := Resolve(context.Background(), routed(tt.text), tt.m)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(call.Unmapped, tt.want) {
				t.Errorf("%q: unmapped %+v, want %+v (arguments %v)", tt.text, call.Unmapped, tt.want, call.Parameters)
			}
		})
	}
}

// TestEnumMisfits: a word meant for an enum parameter that is none of its
// members nor a synonym (a code of the members' shape, the letters a code
// member opens with, or a word where the value stands) is reported for
// the parameter, so the call does not run with the default; members,
// synonyms and ordinary words are not.
func TestEnumMisfits(t *testing.T) {
	checksumTool := sampleTool(t, "files/checksum")
	algorithm := func(w string) []schemas.Unmapped { return []schemas.Unmapped{{Text: w, Parameter: "algorithm"}} }
	checkUnmapped(t, []unmappedCase{
		// The members' shape: letters then digits.
		{checksumTool, "checksum of /srv/a.txt with sha3", algorithm("sha3")},
		{checksumTool, "checksum of /srv/a.txt with crc32", algorithm("crc32")},
		{checksumTool, "blake2 hash of /srv/a.txt", algorithm("blake2")},
		{checksumTool, "md4 of /srv/a.txt", algorithm("md4")},
		{checksumTool, "checksum /srv/a.txt with sha-3", algorithm("sha-3")},
		// The letters a code member opens with: which one is unsaid.
		{checksumTool, "checksum of /srv/a.txt with sha", algorithm("sha")},
		// Where the value stands: beside the parameter's words, after
		// using, before the tool's noun.
		{checksumTool, "checksum of /srv/a.txt using whirlpool", algorithm("whirlpool")},
		{checksumTool, "whirlpool checksum of /srv/a.txt", algorithm("whirlpool")},
		{misfitImage, "convert /srv/a.png to tiff format", []schemas.Unmapped{{Text: "tiff", Parameter: "format"}}},
		{misfitShip, "label for order 5512 via dhl2day", []schemas.Unmapped{{Text: "dhl2day", Parameter: "service"}}},
		// Negatives: members and synonyms fill it; ordinary words, the
		// tool's own and describing words are no misfit.
		{checksumTool, "checksum of /srv/a.txt with md5", nil},
		{checksumTool, "sha512 hash of /srv/a.txt", nil},
		{checksumTool, "verify the integrity of /srv/a.txt", nil},
		{checksumTool, "compute the file checksum of /srv/a.txt", nil},
		{checksumTool, "a quick checksum of /srv/a.txt", nil},
		{checksumTool, "checksum of /srv/a.txt with care", []schemas.Unmapped{{Text: "care"}}}, // reported, for no parameter
		{misfitImage, "convert /srv/a.png to jpeg", nil},
		{misfitImage, "convert /srv/a.png for the website", []schemas.Unmapped{{Text: "website"}}},
		{misfitShip, "label for order 5512 with fedex1day", nil},
		{sampleTool(t, "weather/forecast"), "weather in Paris with rain gear", nil},
		{sampleTool(t, "weather/forecast"), "weather in Paris in imperial units", nil},
		{bills, "late bills from acme", []schemas.Unmapped{{Text: "acme"}}},
	})
}

// TestNumberMisfits: a number written beside what a numeric parameter
// counts, that the parameter cannot take (a fraction for a whole number),
// is reported for it; a number no noun ties to one is not.
func TestNumberMisfits(t *testing.T) {
	head, find := sampleTool(t, "files/head"), sampleTool(t, "files/find")
	checkUnmapped(t, []unmappedCase{
		{head, "show the first 2.5 lines of /srv/a.txt", []schemas.Unmapped{{Text: "2.5", Parameter: "lines"}}},
		{head, "head of /srv/a.txt, lines 2.5", []schemas.Unmapped{{Text: "2.5", Parameter: "lines"}}},
		{head, "the first 0.5 line of /srv/a.txt", []schemas.Unmapped{{Text: "0.5", Parameter: "lines"}}},
		{find, "find files in /srv 2.5 levels deep", []schemas.Unmapped{{Text: "2.5", Parameter: "max_depth"}}},
		// Negatives: a whole number is placed; a number of another noun,
		// or in another clause, is no count of lines.
		{head, "show the first 3 lines of /srv/a.txt", nil},
		{head, "show /srv/a.txt version 2.5", []schemas.Unmapped{{Text: "2.5"}}},
		{head, "show the lines of /srv/a.txt, 2.5", []schemas.Unmapped{{Text: "2.5"}}},
	})
}

// TestMisfitMessage: the answer to a misfit says what the parameter
// takes, not that it would take the word.
func TestMisfitMessage(t *testing.T) {
	for _, c := range []struct{ tool, text, want, not string }{
		{"files/checksum", "checksum of /srv/a.txt with sha3", `"sha3" was not used: algorithm takes one of md5, sha1, sha256, sha512.`, "would take"},
		{"files/head", "show the first 2.5 lines of /srv/a.txt", `"2.5" was not used: lines takes a whole number.`, "would take"},
		{"system/current_time", "what time is it in Atlantis", `"Atlantis" was not used: timezone (string): IANA time zone`, "takes"},
	} {
		m := sampleTool(t, c.tool)
		call, err := Resolve(context.Background(), routed(c.text), m)
		if err != nil {
			t.Fatal(err)
		}
		res := UnmappedResult("resolve", call, m, call.Parameters)
		if res.Status != schemas.StatusMissingArguments || !strings.Contains(res.Message, c.want) || strings.Contains(res.Message, c.not) {
			t.Errorf("%q: %s %q, want %q and not %q", c.text, res.Status, res.Message, c.want, c.not)
		}
	}
}

// TestHeldPlaces: a second place for a tool's one place or time zone
// parameter is that parameter's, asked for again (the call runs with the
// first), as a second path is; never another parameter that would take
// any text. A place given as key=value for a time zone is its zone, so
// the call suggested for it runs in the right one.
func TestHeldPlaces(t *testing.T) {
	clock, weatherTool := sampleTool(t, "system/current_time"), sampleTool(t, "weather/forecast")
	checkUnmapped(t, []unmappedCase{
		{clock, "what time is it in Berlin and in Tokyo", []schemas.Unmapped{{Text: "Tokyo", Parameter: "timezone", Tool: "system/current_time"}}},
		{clock, "what time is it in Paris and London", []schemas.Unmapped{{Text: "London", Parameter: "timezone", Tool: "system/current_time"}}},
		{clock, "the time in Lima and in New York", []schemas.Unmapped{{Text: "New York", Parameter: "timezone", Tool: "system/current_time"}}},
		{weatherTool, "weather in Oslo and Bergen", []schemas.Unmapped{{Text: "Bergen", Parameter: "location", Tool: "weather/forecast"}}},
		// Negatives: one place; a place for a free place parameter; a
		// value of another kind still goes where it fits.
		{clock, "what time is it in Tokyo", nil},
		{clock, "the time in Oslo in 24h format", []schemas.Unmapped{{Text: "24h", Parameter: "format"}}},
		{clock, "system/current_time in Atlantis or Lemuria", []schemas.Unmapped{{Text: "Atlantis", Parameter: "timezone"}, {Text: "Lemuria", Parameter: "timezone"}}},
	})
	checkGuessesOn(t, clock, []string{"timezone"}, []textCase{
		{"system/current_time timezone=Tokyo", M{"timezone": "Asia/Tokyo"}},
		{`system/current_time timezone="New York"`, M{"timezone": "America/New_York"}},
		// A zone name is the database's, whatever its case; an offset is
		// its Etc zone; a value that is no place stays as written.
		{"system/current_time timezone=Europe/Paris", M{"timezone": "Europe/Paris"}},
		{"system/current_time timezone=europe/paris", M{"timezone": "Europe/Paris"}},
		{"system/current_time timezone=UTC+2", M{"timezone": "Etc/GMT-2"}},
		{"system/current_time timezone=Atlantis", M{"timezone": "Atlantis"}},
	})
}
