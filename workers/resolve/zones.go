package resolve

import (
	"strings"

	"github.com/toolyard/toolyard/workers/internal/places"
)

// zoneProp: a parameter that takes a time zone, by its name (timezone, tz,
// time_zone, zone) or its description ("IANA time zone").
func zoneProp(p *property) bool {
	if !stringProp(p) {
		return false
	}
	for _, w := range p.words {
		if w == "timezone" || w == "tz" || w == "zone" {
			return true
		}
	}
	d := p.desc
	return strings.Contains(d, "time zone") || strings.Contains(d, "timezone")
}

// missingZone: the tool takes a time zone the request left unset.
func (f *filler) missingZone() bool {
	for _, p := range f.s.props {
		if f.missing(p) && zoneProp(p) {
			return true
		}
	}
	return false
}

// applyZones fills a time zone parameter from a zone name written as such
// ("Europe/Paris", "utc") or a place the time zone database names a zone
// for: any of its cities ("Tokyo", "new york", "São Paulo") and the
// countries it gives a zone ("Japan"). A place written in lower case
// counts only next to a word that makes it one ("in tokyo", "tokyo time"),
// so that ordinary words that are also zone cities ("center") do not.
func (f *filler) applyZones() {
	for _, p := range f.s.props {
		if !f.missing(p) || !zoneProp(p) {
			continue
		}
		for i := 0; i < len(f.toks); i++ {
			if !f.free(i) {
				continue
			}
			// A place first: "Japan" is a zone name too, but an old alias
			// of Asia/Tokyo that not every system still installs.
			if z, last, ok := f.zonePlace(i); ok && f.try(p, z) {
				f.useTokens(rangeIdx(i, last)...)
				break
			}
			if z, ok := places.ZoneName(f.toks[i].value); ok && f.try(p, z) {
				f.useTokens(i)
				break
			}
		}
	}
}

// zonePlace reads the longest place name starting at token i.
func (f *filler) zonePlace(i int) (zone string, last int, ok bool) {
	raws := make([]string, 0, places.MaxWords)
	for j := i; j < len(f.toks) && j < i+places.MaxWords && f.free(j); j++ {
		raws = append(raws, f.toks[j].raw)
	}
	n, zone := places.Longest(raws)
	if n == 0 || !capWord(f.toks[i].raw) && !f.placeCue(i, i+n-1) {
		return "", 0, false
	}
	return zone, i + n - 1, true
}

// wholePlace is the zone of text when the whole of it names a place
// package places knows ("Tokyo", "New York"), as it stands.
func wholePlace(text string) (string, bool) {
	words := strings.Fields(text)
	n, zone := places.Longest(words)
	return zone, n > 0 && n == len(words)
}

// placeCue: the words around tokens [i, j] say they name a place.
func (f *filler) placeCue(i, j int) bool {
	if i > 0 {
		switch f.toks[i-1].word {
		case "in", "at", "for", "of", "from":
			return true
		}
	}
	return j+1 < len(f.toks) && (f.toks[j+1].word == "time" || f.toks[j+1].word == "timezone")
}
