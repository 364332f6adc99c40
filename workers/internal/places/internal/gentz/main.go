// Command gentz writes the time zone tables of package places from the time zone
// database shipped with Go ($GOROOT/lib/time/zoneinfo.zip): every zone
// name, every city a zone is named for ("America/New_York" → "new york"),
// and the few country names the database itself gives a zone of their own
// ("Japan"), each to the zone it names; and, with -cities, the world's
// cities and countries from the city-timezones npm package (Natural Earth's
// 7,300 populated places, each with its zone: "San Francisco", "Mumbai",
// "Portland, Maine", "Germany"). Run it with `go generate ./workers/internal/places`
// (which fetches that package, pinned by version and checksum) after a Go
// upgrade brings new zone data.
//
// Written here because no Go module maps a place name to its zone offline;
// the data is the package's, the rule for names several places share is
// gentz's (see lead).
package main

import (
	"archive/zip"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// areas are the zone areas named for places (continents and oceans); the
// others (US/, Canada/, Etc/, …) are older aliases or not places.
var areas = map[string]bool{
	"Africa": true, "America": true, "Antarctica": true, "Arctic": true, "Asia": true,
	"Atlantic": true, "Australia": true, "Europe": true, "Indian": true, "Pacific": true,
}

// areaOrder breaks a tie between identical zones of the same city in two
// areas (Europe/Istanbul, Asia/Istanbul): the first area listed wins.
var areaOrder = []string{"Europe", "Asia", "America", "Africa", "Australia", "Pacific", "Atlantic", "Indian", "Antarctica", "Arctic"}

// notCities are last name parts that are regions or compass points, not
// places a request names by themselves (Australia/North).
var notCities = map[string]bool{"north": true, "south": true, "west": true, "east": true, "central": true}

func main() {
	out := flag.String("out", "table.go", "the Go file to write")
	zipPath := flag.String("zip", "", "zoneinfo.zip to read (default: $GOROOT/lib/time/zoneinfo.zip)")
	citiesPath := flag.String("cities", "", "the city-timezones npm package's tarball, for the world's cities and countries")
	flag.Parse()
	if *zipPath == "" {
		root, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			log.Fatalf("go env GOROOT: %v", err)
		}
		*zipPath = filepath.Join(strings.TrimSpace(string(root)), "lib", "time", "zoneinfo.zip")
	}
	zones, err := readZones(*zipPath)
	if err != nil {
		log.Fatal(err)
	}
	names, places, skipped := tables(zones)
	source := ""
	if *citiesPath != "" {
		cities, err := readCities(*citiesPath)
		if err != nil {
			log.Fatal(err)
		}
		added, ambiguous, err := addCities(zones, places, cities)
		if err != nil {
			log.Fatal(err)
		}
		source = filepath.Base(*citiesPath)
		fmt.Fprintf(os.Stderr, "gentz: %d places from %d world cities; %d names left out as several zones' (e.g. %s)\n",
			added, len(cities), len(ambiguous), strings.Join(ambiguous[:min(5, len(ambiguous))], ", "))
	}
	src, err := render(names, places, source)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "gentz: %d zone names, %d places; left out as ambiguous: %s\n", len(names), len(places), strings.Join(skipped, ", "))
}

// readZones maps every zone name in the zip to its data: links are stored
// as copies, so identical data means the same zone.
func readZones(path string) (map[string][]byte, error) {
	r, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("open the time zone database %s: %w", path, err)
	}
	defer r.Close()
	zones := map[string][]byte{}
	for _, f := range r.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s in %s: %w", f.Name, path, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s in %s: %w", f.Name, path, err)
		}
		zones[f.Name] = b
	}
	return zones, nil
}

// key is how a place is looked up, as the resolver's placeKey reads a
// word: lower case, without accents ("São" → "sao"), _ and - as spaces.
func key(s string) string {
	if folded, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s); err == nil {
		s = folded
	}
	s = strings.ToLower(strings.NewReplacer("_", " ", "-", " ").Replace(s))
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

func area(zone string) string { a, _, _ := strings.Cut(zone, "/"); return a }

func depth(zone string) int { return strings.Count(zone, "/") }

func areaRank(zone string) int {
	for i, a := range areaOrder {
		if area(zone) == a {
			return i
		}
	}
	return len(areaOrder)
}

// better orders identical candidates for one place: the deeper name
// (America/Argentina/Buenos_Aires over the older America/Buenos_Aires),
// then the area order, then the name.
func better(a, b string) bool {
	if depth(a) != depth(b) {
		return depth(a) > depth(b)
	}
	if areaRank(a) != areaRank(b) {
		return areaRank(a) < areaRank(b)
	}
	return a < b
}

func tables(zones map[string][]byte) (names, places map[string]string, skipped []string) {
	names = map[string]string{}
	byPlace := map[string][]string{}
	for z := range zones {
		if z == "Factory" || z == "posixrules" || z == "localtime" {
			continue
		}
		names[strings.ToLower(z)] = z
		if !strings.Contains(z, "/") || !areas[area(z)] {
			continue
		}
		last := z[strings.LastIndex(z, "/")+1:]
		if strings.ToUpper(last) == last || notCities[strings.ToLower(last)] {
			continue // ACT, NSW: abbreviations; North: a region
		}
		k := key(last)
		byPlace[k] = append(byPlace[k], z)
	}
	places = map[string]string{}
	for k, cands := range byPlace {
		sort.Slice(cands, func(i, j int) bool { return better(cands[i], cands[j]) })
		same := true
		for _, c := range cands[1:] {
			if !bytes.Equal(zones[c], zones[cands[0]]) {
				same = false
			}
		}
		if !same {
			skipped = append(skipped, k)
			continue
		}
		places[k] = cands[0]
	}
	// Country names the database gives a zone of their own ("Japan",
	// "Poland"): the place zone with the same data, when there is one
	// place only.
	for z := range zones {
		if strings.Contains(z, "/") || z == "Factory" || strings.ToUpper(z) == z || strings.ContainsAny(z, "-+0123456789") {
			continue
		}
		k := key(z)
		if _, ok := places[k]; ok {
			continue
		}
		targets := map[string]bool{}
		for pk, pz := range places {
			if bytes.Equal(zones[pz], zones[z]) {
				targets[pk] = true
			}
		}
		if len(targets) != 1 {
			skipped = append(skipped, k)
			continue
		}
		for pk := range targets {
			places[k] = places[pk]
		}
	}
	sort.Strings(skipped)
	return names, places, skipped
}

func render(names, places map[string]string, cities string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by gentz from Go's time zone database ($GOROOT/lib/time/zoneinfo.zip)")
	if cities != "" {
		fmt.Fprintf(&b, " and the world cities of %s (MIT licence; Natural Earth's populated places, public domain)", cities)
	}
	b.WriteString("; DO NOT EDIT.\n// Regenerate with: go generate ./workers/internal/places\n\n")
	b.WriteString("package places\n\nimport \"sync\"\n\n")
	b.WriteString("// The tables are built on first use, not at start-up: every command of\n// the binary imports them, and a map of 20,000 places costs milliseconds\n// and a megabyte to build.\n\n")
	b.WriteString("// zoneNames maps every zone name, lower case, to the name as the database\n// writes it (\"europe/paris\" → \"Europe/Paris\").\n")
	writeMap(&b, "zoneNames", names)
	b.WriteString("\n// zonePlaces maps a place (lower case, words separated by one space) to\n// its zone: every city of the database, the countries it names a zone for,\n// and the world cities and countries whose name leaves no doubt about the\n// zone, alone or with their province or country (\"portland maine\").\n")
	writeMap(&b, "zonePlaces", places)
	return format.Source(b.Bytes())
}

func writeMap(b *bytes.Buffer, name string, m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(b, "var %s = sync.OnceValue(func() map[string]string {\n\treturn map[string]string{\n", name)
	for _, k := range keys {
		fmt.Fprintf(b, "\t\t%q: %q,\n", k, m[k])
	}
	b.WriteString("\t}\n})\n")
}
