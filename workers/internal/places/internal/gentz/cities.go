package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/toolyard/toolyard/workers/internal/npmtar"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// citiesFile is the world cities' list inside the city-timezones npm
// package (Natural Earth's populated places, each with its zone).
const citiesFile = "package/data/cityMap.json"

// maxWords bounds a place key: a city with its province or country
// ("rio de janeiro rio de janeiro"). The resolver reads as many words.
const maxWords = 6

// lead is how many times more people a name's leading zone must hold than
// all its other zones together for the name alone to mean that zone:
// "San Francisco" is California's, not Córdoba's (2.1 million against
// 43 thousand), while "Springfield" (Missouri, Massachusetts, Illinois,
// Ohio, Oregon) names no zone until its state is written with it. A
// country is the same: "Germany" is Europe/Berlin, "Brazil" is none.
const lead = 10

// city is one record of the list.
type city struct {
	City     string  `json:"city"`
	ASCII    string  `json:"city_ascii"`
	Province string  `json:"province"`
	Country  string  `json:"country"`
	ISO2     code    `json:"iso2"`
	Pop      float64 `json:"pop"`
	Zone     string  `json:"timezone"`
}

// code is a country's ISO 3166 code, or "" where the list writes -99
// (Kosovo, Somaliland: Natural Earth's "no code").
type code string

func (c *code) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = code(s)
	}
	return nil
}

// readCities reads the list out of the package's tarball.
func readCities(path string) ([]city, error) {
	var cities []city
	err := npmtar.Read(path, citiesFile, func(r io.Reader) error { return json.NewDecoder(r).Decode(&cities) })
	return cities, err
}

// names are the ways a record's city is written: its name and its ASCII
// spelling, when they differ.
func (c city) names() []string {
	if key(c.ASCII) == "" || key(c.ASCII) == key(c.City) {
		return []string{c.City}
	}
	return []string{c.City, c.ASCII}
}

// countryNames are the ways its country is written: the list's name
// ("United States of America") and CLDR's English one ("United States").
func (c city) countryNames() []string {
	out := []string{c.Country}
	if r, err := language.ParseRegion(string(c.ISO2)); err == nil {
		if n := display.English.Regions().Name(r); n != "" && key(n) != key(c.Country) {
			out = append(out, n)
		}
	}
	return out
}

// addCities adds the world cities to places: every city name, the city
// with its province or country ("portland maine", "london canada"), and
// every country, each when its cities leave no doubt about the zone (see
// lead). A place the time zone database names itself keeps its zone.
func addCities(zones map[string][]byte, places map[string]string, cities []city) (added int, ambiguous []string, err error) {
	byKey := map[string][]city{}
	add := func(k string, c city) {
		if k != "" && len(strings.Fields(k)) <= maxWords {
			byKey[k] = append(byKey[k], c)
		}
	}
	byCountry := map[string][]city{}
	for _, c := range cities {
		if c.Zone == "" {
			continue // research stations of Antarctica
		}
		if _, ok := zones[c.Zone]; !ok {
			return 0, nil, fmt.Errorf("city %s (%s): zone %q is not in the time zone database", c.City, c.Country, c.Zone)
		}
		for _, n := range c.names() {
			add(key(n), c)
			if p := key(c.Province); p != "" && p != key(n) {
				add(key(n)+" "+p, c)
			}
			for _, cn := range c.countryNames() {
				add(key(n)+" "+key(cn), c)
			}
		}
		for _, cn := range c.countryNames() {
			byCountry[key(cn)] = append(byCountry[key(cn)], c)
		}
	}
	for _, m := range []map[string][]city{byKey, byCountry} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, ok := places[k]; ok {
				continue
			}
			z, ok := dominant(zones, m[k])
			if !ok {
				ambiguous = append(ambiguous, k)
				continue
			}
			places[k] = z
			added++
		}
	}
	return added, ambiguous, nil
}

// dominant is the zone of the most populous of cities when the zone holds
// lead times as many people as every other zone among them together.
// Zones with the same data are one zone.
func dominant(zones map[string][]byte, cities []city) (string, bool) {
	pop := map[string]float64{}
	var top city
	for i, c := range cities {
		pop[string(zones[c.Zone])] += c.Pop
		if i == 0 || c.Pop > top.Pop {
			top = c
		}
	}
	if len(pop) == 1 {
		return top.Zone, true
	}
	lead0 := string(zones[top.Zone])
	var rest float64
	for z, p := range pop {
		if z != lead0 {
			rest += p
		}
	}
	return top.Zone, pop[lead0] > 0 && pop[lead0] >= lead*rest
}
