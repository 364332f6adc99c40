package resolve

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

//go:generate go run ./internal/gentz -out zones_table.go

// maxPlaceWords is the longest place name of the time zone database in
// words ("Port of Spain", "Dar es Salaam").
const maxPlaceWords = 4

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
	d := strings.ToLower(p.description)
	return strings.Contains(d, "time zone") || strings.Contains(d, "timezone")
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
			if z, ok := zoneNames[strings.ToLower(cleanValue(f.toks[i].raw))]; ok && f.try(p, z) {
				f.useTokens(i)
				break
			}
		}
	}
}

// zonePlace reads the longest place name starting at token i.
func (f *filler) zonePlace(i int) (zone string, last int, ok bool) {
	words := make([]string, 0, maxPlaceWords)
	for j := i; j < len(f.toks) && j < i+maxPlaceWords && f.free(j); j++ {
		w := placeKey(f.toks[j].raw)
		words = append(words, w)
		z, found := zonePlaces[strings.Join(words, " ")]
		if possessive, cut := strings.CutSuffix(w, "s"); !found && cut && hasPossessive(f.toks[j].raw) {
			// "Tokyo's time"; St. John's keeps its s.
			z, found = zonePlaces[strings.Join(append(words[:len(words)-1:len(words)-1], possessive), " ")]
		}
		if found && (capWord(f.toks[i].raw) || f.placeCue(i, j)) {
			zone, last, ok = z, j, true
		}
		if endsClause(f.toks[j].raw) {
			break
		}
	}
	return zone, last, ok
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

// hasPossessive: the word ends in 's.
func hasPossessive(raw string) bool {
	w := trimPunct(raw)
	return strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s")
}

// placeKey is a word as the zone tables key it: lower case, without
// accents ("São" → "sao") or punctuation ("John's" → "johns"), hyphenated
// words spaced ("port-au-prince" → "port au prince").
func placeKey(raw string) string {
	s := foldAccents(strings.ToLower(trimPunct(raw)))
	s = strings.NewReplacer("_", " ", "-", " ").Replace(s)
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' }), "")
}

// foldAccents removes diacritics: "são paulo" → "sao paulo".
func foldAccents(s string) string {
	if isASCII(s) {
		return s
	}
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		return s
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
