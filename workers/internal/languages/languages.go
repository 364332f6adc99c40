// Package languages names the world's languages as requests write them,
// for discovery (a language named where a language goes is a value) and
// the resolver (a language parameter that wants a code).
package languages

import (
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// Codes maps language names, in lower case, to their ISO 639-1 codes
// ("portuguese" → "pt"), read from CLDR's English names
// (golang.org/x/text/language/display) so that no code is written by
// hand; the first code of a name wins, so a current code ("he") comes
// before a withdrawn one ("iw"). Names requests use that are not CLDR's
// ("Farsi", "Mandarin", "Bengali", "Tagalog", "Norwegian") follow the
// name CLDR gives the language; a name with no two-letter code
// (Cantonese) has none. The map is built once and must not be changed.
var Codes = sync.OnceValue(func() map[string]string {
	names := display.English.Languages()
	codes := map[string]string{}
	for a := 'a'; a <= 'z'; a++ {
		for b := 'a'; b <= 'z'; b++ {
			code := string([]rune{a, b})
			if base, err := language.ParseBase(code); err == nil {
				if name := strings.ToLower(names.Name(base)); name != "" && codes[name] == "" {
					codes[name] = code
				}
			}
		}
	}
	for alias, name := range aliases {
		codes[alias] = codes[name]
	}
	return codes
})

// aliases are names requests give languages, by the name CLDR gives them.
var aliases = map[string]string{"farsi": "persian", "mandarin": "chinese", "bengali": "bangla",
	"tagalog": "filipino", "norwegian": "norwegian bokmål"}
