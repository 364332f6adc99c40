// Package places knows the places a request may name for a time zone: every
// zone of the time zone database by its name ("Europe/Paris"), and places
// by their names: the cities zones are named for, the world's cities and
// countries whose name leaves no doubt about the zone ("San Francisco",
// "Germany"), alone or with their province or country ("Portland,
// Maine"). The resolver fills time zone parameters from it; discovery
// counts a named place as a value a tool may take.
package places

import (
	"iter"
	"maps"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

//go:generate bash ../../../scripts/npm-pack.sh city-timezones 1.3.4 sha512-yLmtCxU4y5HLAw9XGIMcGEXO+R2KH1sb595wEQC/E9BxSDpazCD7v9ZQRySO7367IXWsWqt3z2xFVh3OkZdgEQ== ../../../build/npm/city-timezones-1.3.4.tgz
//go:generate go run ./internal/gentz -out table.go -cities ../../../build/npm/city-timezones-1.3.4.tgz

// MaxWords is the longest place name of the tables in words: a city with
// its province ("Rio de Janeiro, Rio de Janeiro").
const MaxWords = 6

// Zone is the zone of a place, by its key: the Key of each of its words,
// joined by one space ("sao paulo").
func Zone(key string) (string, bool) {
	z, ok := zonePlaces()[key]
	return z, ok
}

// ZoneName is a zone by its name in any case ("europe/paris" →
// "Europe/Paris"), by an abbreviation people write for it in capitals
// ("PST", "JST": abbreviations), or by a whole-hour offset ("UTC+2").
func ZoneName(name string) (string, bool) {
	if z, ok := zoneNames()[strings.ToLower(name)]; ok {
		return z, ok
	}
	if z, ok := abbreviations[name]; ok {
		return z, ok
	}
	return offsetZone(name)
}

// abbreviations are the zone abbreviations people write that name one
// zone, written in capitals, as the zone that keeps that time: "PST" is
// the Pacific time of America/Los_Angeles (which reads PDT in summer, as
// someone writing PST all year means). The time zone database has no
// such table, on purpose: an abbreviation may name several zones. Those
// that do in common use (CST: US Central or China; IST: India, Ireland or
// Israel; AST) are not here, and stay unmapped for the agent to say;
// those the database names itself (EST, MST, HST, CET, EET, WET) are its
// own.
var abbreviations = map[string]string{
	"PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
	"MDT":  "America/Denver",
	"CDT":  "America/Chicago",
	"EDT":  "America/New_York",
	"AKST": "America/Anchorage", "AKDT": "America/Anchorage",
	"NST": "America/St_Johns", "NDT": "America/St_Johns",
	"BST":  "Europe/London",
	"CEST": "CET", "EEST": "EET", "WEST": "WET",
	"MSK": "Europe/Moscow",
	"JST": "Asia/Tokyo", "KST": "Asia/Seoul", "HKT": "Asia/Hong_Kong", "SGT": "Asia/Singapore",
	"PHT": "Asia/Manila", "WIB": "Asia/Jakarta",
	"AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
	"ACST": "Australia/Adelaide", "ACDT": "Australia/Adelaide",
	"AWST": "Australia/Perth",
	"NZST": "Pacific/Auckland", "NZDT": "Pacific/Auckland",
	"SAST": "Africa/Johannesburg", "WAT": "Africa/Lagos",
}

// ambiguousAbbreviations name several zones in common use (CST: US
// Central or China; IST: India, Ireland or Israel; AST: Atlantic or
// Arabia): no zone of their own, but a time zone all the same.
var ambiguousAbbreviations = map[string]bool{"CST": true, "IST": true, "AST": true}

// Abbreviation: word, as written, is a zone abbreviation in capitals: one
// of ZoneName's, one the database names a zone by ("EST", "CET", "UTC"),
// or one that names several zones ("CST"). Discovery reads it as a value
// a time zone parameter takes, as it reads a city.
func Abbreviation(word string) bool {
	if len(word) < 3 || len(word) > 4 {
		return false
	}
	for i := 0; i < len(word); i++ {
		if word[i] < 'A' || word[i] > 'Z' {
			return false // discovery asks it of every capitalised word: no allocation
		}
	}
	if _, ok := abbreviations[word]; ok || ambiguousAbbreviations[word] {
		return true
	}
	z, ok := zoneNames()[strings.ToLower(word)]
	return ok && z == word
}

// offsetZone is the zone of a whole-hour offset from UTC written as people
// write it ("UTC+2", "GMT-5", "utc+05:00", "UTC−3"): the database's
// Etc/GMT zone, whose sign is the POSIX one, inverted ("UTC+2" is
// Etc/GMT-2). An offset with minutes ("UTC+5:30") has no such zone: a
// place names those ("Kolkata").
func offsetZone(name string) (string, bool) {
	if len(name) < 5 || !strings.EqualFold(name[:3], "utc") && !strings.EqualFold(name[:3], "gmt") {
		return "", false // most words: no allocation
	}
	rest := strings.Replace(name[3:], "−", "-", 1) // the minus sign
	if len(rest) < 2 || rest[0] != '+' && rest[0] != '-' {
		return "", false
	}
	sign, digits := rest[:1], rest[1:]
	if h, m, ok := strings.Cut(digits, ":"); ok {
		if m != "00" {
			return "", false
		}
		digits = h
	}
	hours, err := strconv.Atoi(digits)
	if err != nil || len(digits) > 2 || hours > 14 || sign == "-" && hours > 12 {
		return "", false
	}
	if hours == 0 {
		return "UTC", true
	}
	posix := "-"
	if sign == "-" {
		posix = "+"
	}
	z, ok := zoneNames()["etc/gmt"+posix+strconv.Itoa(hours)]
	return z, ok
}

// Longest reads the longest place that words, as written (with the
// punctuation around them), begin with: how many words it spans, 0 when
// none, and its zone. One comma may part a city from its province or
// country ("Portland," "Maine"): the longer name is taken only if the
// tables have it. Other punctuation ends the name after its word, and a
// dot too unless it closes an abbreviation ("St. John's"). A possessive
// is read both ways: "St. John's" keeps its s, "Tokyo's" does not.
// The resolver and discovery both read places with it.
func Longest(words []string) (n int, zone string) {
	keys := make([]string, 0, MaxWords)
	commas := 0
	for j, raw := range words[:min(len(words), MaxWords)] {
		word := strings.Trim(raw, punctuation)
		keys = append(keys, Key(word))
		z, ok := Zone(strings.Join(keys, " "))
		if base, cut := strings.CutSuffix(word, "'s"); !ok && cut {
			z, ok = Zone(strings.Join(append(keys[:j:j], Key(base)), " "))
		} else if base, cut := strings.CutSuffix(word, "’s"); !ok && cut {
			z, ok = Zone(strings.Join(append(keys[:j:j], Key(base)), " "))
		}
		if ok {
			n, zone = j+1, z
		}
		switch end := strings.TrimRight(raw, `"'”’)]}`); {
		case strings.HasSuffix(end, ","):
			if commas++; commas > 1 {
				return n, zone
			}
		case strings.HasSuffix(end, ".") && len(word) > 3,
			strings.ContainsAny(end[max(0, len(end)-1):], ";:!?"):
			return n, zone
		}
	}
	return n, zone
}

// punctuation is what Longest trims around a word.
const punctuation = `.,;:!?()[]{}"'“”‘’«»` + "`"

// All is every place key with its zone.
func All() iter.Seq2[string, string] { return maps.All(zonePlaces()) }

// Names is every zone name, lower case, with the name as the database
// writes it.
func Names() iter.Seq2[string, string] { return maps.All(zoneNames()) }

// Key is a word as the tables key it: lower case, without accents ("São"
// → "sao") or anything but letters and digits ("John's" → "johns"), and a
// hyphenated word spaced ("port-au-prince" → "port au prince"). gentz keys
// the tables the same way.
func Key(word string) string {
	s := foldAccents(strings.ToLower(word))
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
