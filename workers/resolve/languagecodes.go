package resolve

import (
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// languageCodes maps language names to their ISO 639-1 codes
// ("portuguese" → "pt"), read from CLDR's English names
// (golang.org/x/text/language/display) so that no code is written by
// hand; the first code of a name wins, so a current code ("he") comes
// before a withdrawn one ("iw"). Names requests use that are not CLDR's
// ("Farsi", "Mandarin", "Bengali", "Tagalog", "Norwegian") follow the
// name CLDR gives the language; a name with no two-letter code
// (Cantonese) has none.
var languageCodes = sync.OnceValue(func() map[string]string {
	names := display.English.Languages()
	codes := map[string]string{}
	for a := 'a'; a <= 'z'; a++ {
		for b := 'a'; b <= 'z'; b++ {
			code := string([]rune{a, b})
			if base, err := language.ParseBase(code); err == nil {
				if name := strings.ToLower(names.Name(base)); codes[name] == "" {
					codes[name] = code
				}
			}
		}
	}
	for alias, name := range languageAliases {
		codes[alias] = codes[name]
	}
	return codes
})

// languageAliases are names requests give languages, by the name CLDR
// gives them.
var languageAliases = map[string]string{"farsi": "persian", "mandarin": "chinese", "bengali": "bangla",
	"tagalog": "filipino", "norwegian": "norwegian bokmål"}

// wantsLanguageCode: p asks for a language as its code ("Result language
// (ISO 639-1)", "two-letter language code", lang_code), not also as a
// name ("ISO 639-1 or name"): a name written there would not be read.
func wantsLanguageCode(p *property) bool {
	if strings.Contains(p.desc, "name") {
		return false
	}
	return fitsName(p, setOf("code")) || strings.Contains(p.desc, "iso 639") ||
		strings.Contains(p.desc, "language code") || strings.Contains(p.desc, "two-letter") || strings.Contains(p.desc, "2-letter")
}

// languageValue is the language named at token i as p takes it: its ISO
// 639-1 code where p asks for a code and the language has one, else as
// written.
func (f *filler) languageValue(p *property, i int) string {
	if code := languageCodes()[f.toks[i].word]; code != "" && wantsLanguageCode(p) {
		return code
	}
	return f.spanValue(i, i)
}
